/** The data export's inputs and answers (server/privacy/exports/), for the member API, tRPC and the pages. */
import { z } from "zod";

import { LOCALES } from "@/i18n/locales";

/** POST /api/member/privacy/exports: the page's language, for the archive and its mail. */
export const ZRequestMemberExportBody = z.strictObject({ locale: z.enum(LOCALES).optional() });

/** The export a reader asked for, as the member API answers it. */
export const ZMemberExportView = z.object({
  id: z.uuid(),
  status: z.enum(["pending", "ready", "expired"]),
  requested_at: z.iso.datetime(),
  ready_at: z.iso.datetime().nullable(),
  expires_at: z.iso.datetime().nullable(),
});
export type TMemberExportView = z.infer<typeof ZMemberExportView>;

/** A reader's export as the dashboard lists it. */
export const ZStaffExportView = ZMemberExportView.extend({
  requested_by: z.enum(["reader", "staff"]),
  /** Ready, and asked for by the staff user looking: only they may download it. */
  downloadable: z.boolean(),
});
export type TStaffExportView = z.infer<typeof ZStaffExportView>;

/** The link's export id. */
export const ZExportIdParams = z.object({ id: z.uuid() });

/** The link's token (43 base64url characters; bounded so a long query costs nothing). */
export const ZExportTokenQuery = z.object({
  token: z
    .string()
    .min(20)
    .max(128)
    .regex(/^[A-Za-z0-9_-]+$/, "not a download token"),
});

const ZMemberId = z.number().int().min(1).max(2147483647);

/** privacy.exports.create: staff ask for one reader's data; `mailReader` also mails them the link. */
export const ZStaffExportInput = z.strictObject({ memberId: ZMemberId, mailReader: z.boolean().default(false) });
export const ZStaffExportListInput = z.strictObject({ memberId: ZMemberId });
