/**
 * Audit log: input and output of the dashboard's listing (tRPC `auditLog.list`).
 * Imported by the router and by the dashboard's client components: zod only.
 */
import { z } from "zod";

import { zCursorPage, zCursorPaging } from "../cursor-page.schema";
import { zCalendarDay } from "../dates.schema";

/** Dotted verbs such as "admin.sign_in" or "api_key.create". */
const ZAuditAction = z
  .string()
  .trim()
  .min(1, "is required")
  .max(100, "must be at most 100 characters")
  .regex(/^[a-z0-9_]+(\.[a-z0-9_]+)*$/, "must be a dotted action such as admin.sign_in");

/** A calendar day ("2026-11-22"), on the account's clocks. */
const ZDay = zCalendarDay;

/** The filters of the listing and of its CSV export. */
const FILTERS = {
  /** Only entries with exactly this action. */
  action: ZAuditAction.optional(),
  /** Only this staff member's entries (a user id), or the system's ("system"). */
  actor: z.union([z.uuid({ message: "must be a user id or system" }), z.literal("system")]).optional(),
  /** From the start of this day, in the account's time zone. */
  from: ZDay.optional(),
  /** To the end of this day, in the account's time zone. */
  to: ZDay.optional(),
};
const fromBeforeTo = (f: { from?: string; to?: string }) => !f.from || !f.to || f.from <= f.to;
const TO_BEFORE_FROM = { path: ["to"], message: "must not be before from" };

export const ZAuditLogFilter = z.object(FILTERS).refine(fromBeforeTo, TO_BEFORE_FROM);
export type TAuditLogFilter = z.infer<typeof ZAuditLogFilter>;

export const ZListAuditLogInput = z.object({ ...zCursorPaging, ...FILTERS }).refine(fromBeforeTo, TO_BEFORE_FROM);
export type TListAuditLogInput = z.input<typeof ZListAuditLogInput>;

const ZAuditLogEntry = z.object({
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

/** The people the log holds entries of (the system has none here: it is the filter's own choice). */
export const ZAuditActorList = z.array(z.object({ id: z.string(), name: z.string(), email: z.string() }));
export type TAuditActorList = z.infer<typeof ZAuditActorList>;
export type TAuditActionList = z.infer<typeof ZAuditActionList>;
