/**
 * Mail outbox: the dashboard's view of outgoing e-mails (tRPC `mail.*`). zod only, so the
 * dashboard's client components may import it.
 */
import { z } from "zod";

import { zCursorPage, zCursorPaging } from "../cursor-page.schema";

const ZEmailStatus = z.enum(["PENDING", "SENT", "FAILED"]);
export type TEmailStatus = z.infer<typeof ZEmailStatus>;

export const ZListOutgoingEmailsInput = z.object({
  ...zCursorPaging,
  status: ZEmailStatus.optional(),
});
export type TListOutgoingEmailsInput = z.input<typeof ZListOutgoingEmailsInput>;

const ZOutgoingEmailView = z.object({
  id: z.string(),
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  kind: z.string(),
  /** The language and direction the HTML part declares on its root (`<html lang dir>`); null without one. */
  language: z.object({ lang: z.string(), dir: z.enum(["ltr", "rtl"]) }).nullable(),
  status: ZEmailStatus,
  createdAt: z.date(),
  sentAt: z.date().nullable(),
  /** Attempts made to hand it to the transport (a SENT mail counts the one that worked). */
  attempts: z.number().int(),
  /** Why the last attempt failed (kept while PENDING, the reason when FAILED); null once SENT. */
  lastError: z.string().nullable(),
});
export type TOutgoingEmailView = z.infer<typeof ZOutgoingEmailView>;

export const ZOutgoingEmailPage = zCursorPage(ZOutgoingEmailView).extend({
  /**
   * How the outbox is delivered in this installation: "log" (written to the server log) or "smtp"
   * with `detail` saying where (host, port, sender; never credentials).
   */
  transport: z.object({ name: z.enum(["log", "smtp"]), detail: z.string().nullable() }),
});
export type TOutgoingEmailPage = z.infer<typeof ZOutgoingEmailPage>;

/** One mail's HTML part, asked by id (the list carries the text part only). */
export const ZOutgoingEmailHtmlInput = z.object({ id: z.uuid() });
export const ZOutgoingEmailHtml = z.object({ id: z.string(), html: z.string().nullable() });

export const ZOutgoingEmailCounts = z.object({
  PENDING: z.number().int(),
  SENT: z.number().int(),
  FAILED: z.number().int(),
});
