/** The revenue exports' addresses (GET /api/admin/exports/<kind>.csv, server/subscriptions/reports/exports.ts). */
import { z } from "zod";

const EXPORT_KINDS = ["subscribers", "subscriptions", "payments", "invoices"] as const;
export type TExportKind = (typeof EXPORT_KINDS)[number];

export const ZExportParams = z.object({
  export_file: z
    .string()
    .regex(/^[a-z]+\.csv$/, "must be <kind>.csv")
    .transform((file) => file.slice(0, -".csv".length))
    .pipe(z.enum(EXPORT_KINDS, { message: `must be one of ${EXPORT_KINDS.map((k) => `${k}.csv`).join(", ")}` })),
});

/** subscribers.csv: paying subscribers (the default) or every member, as the Subscribers page lists them. */
export const ZExportQuery = z.object({ who: z.enum(["paying", "all"]).default("paying") });
