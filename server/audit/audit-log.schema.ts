/**
 * Audit log: input and output of the dashboard's listing (tRPC `auditLog.list`).
 * Imported by the router and by the dashboard's client components: zod only.
 */
import { z } from "zod";

import { zCursorPage, zCursorPaging } from "../cursor-page.schema";

/** Dotted verbs such as "admin.sign_in" or "api_key.create". */
export const ZAuditAction = z
  .string()
  .trim()
  .min(1, "is required")
  .max(100, "must be at most 100 characters")
  .regex(/^[a-z0-9_]+(\.[a-z0-9_]+)*$/, "must be a dotted action such as admin.sign_in");

export const ZListAuditLogInput = z.object({
  ...zCursorPaging,
  /** Only entries with exactly this action. */
  action: ZAuditAction.optional(),
});
export type TListAuditLogInput = z.input<typeof ZListAuditLogInput>;

export const ZAuditLogEntry = z.object({
  id: z.string(),
  action: z.string(),
  targetType: z.string().nullable(),
  targetId: z.string().nullable(),
  metadata: z.record(z.string(), z.unknown()),
  ip: z.string().nullable(),
  createdAt: z.date(),
  /** Null for the system (seed, background jobs) or a user since deleted. */
  actor: z.object({ id: z.string(), name: z.string(), email: z.string() }).nullable(),
});
export type TAuditLogEntry = z.infer<typeof ZAuditLogEntry>;

export const ZAuditLogPage = zCursorPage(ZAuditLogEntry);
export type TAuditLogPage = z.infer<typeof ZAuditLogPage>;

export const ZAuditActionList = z.array(z.object({ action: z.string(), count: z.number().int() }));
export type TAuditActionList = z.infer<typeof ZAuditActionList>;
