/**
 * Mail outbox. An e-mail is a row of outgoing_emails, written by `queueEmail` in the transaction
 * of the change that causes it (a password reset request), so the mail exists exactly when the
 * change does; its "mail.send" job is queued with it, and the job engine sends it once the commit
 * is done, retrying with backoff when the transport refuses it.
 *
 * Transport: ./transport.ts (SMTP with SMTP_URL; else the log, and the dashboard's Outbox, which
 * shows every mail with its body, is how development reads password reset links).
 *
 * Vocabulary: PENDING (queued, not yet sent), SENT, FAILED (every attempt failed; `lastError` says why).
 */
import "server-only";

import { z } from "zod";

import type { Db } from "../db/client";
import { AppError } from "../errors";
import type { Prisma } from "../generated/prisma/client";
import { defineJob } from "../jobs/define";
import { enqueueJob } from "../jobs/queue";
import {
  ZListOutgoingEmailsInput,
  type TListOutgoingEmailsInput,
  type TOutgoingEmailPage,
  type TOutgoingEmailView,
} from "./outbox.schema";
import { PermanentMailError, type OutgoingMail } from "./transport";

type QueueEmailInput = {
  accountId: number;
  to: string;
  subject: string;
  text: string;
  /** An HTML part beside the text (escaped by its writer). */
  html?: string;
  /** Extra headers, such as List-Unsubscribe (RFC 8058). */
  headers?: Record<string, string>;
  /** The From when not MAIL_FROM ("Name" <address>: a newsletter's sender). */
  from?: string;
  /** What made it, dotted: "member.password_reset". */
  kind: string;
  now: Date;
};

/** Queue one e-mail, and its sending. Call it with the transaction client of the change that causes the mail. */
export async function queueEmail(db: Db, input: QueueEmailInput): Promise<{ id: string }> {
  const mail = await db.outgoingEmail.create({
    data: {
      accountId: input.accountId,
      to: input.to,
      subject: input.subject,
      text: input.text,
      ...(input.html ? { html: input.html } : {}),
      ...(input.headers ? { headers: input.headers } : {}),
      ...(input.from ? { sender: input.from } : {}),
      kind: input.kind,
      createdAt: input.now,
    },
    select: { id: true },
  });
  await enqueueJob(db, sendMailJob, { emailId: mail.id }, { accountId: input.accountId, now: input.now });
  return mail;
}

/**
 * "mail.send": hand one pending mail to the transport, then mark it SENT. A transport that throws
 * makes the job retry (10 s, 20 s, 40 s… 6 attempts); the last failure marks the mail FAILED.
 * A `PermanentMailError` (the SMTP server refused the recipient or the message with a 5xx) marks
 * it FAILED at once: the server said not to ask again, and retrying would only delay the answer.
 * Every attempt counts in `attempts` and leaves its error in `lastError`.
 * A crash between the transport's acceptance and the write sends the mail again (at least once).
 */
export const sendMailJob = defineJob<{ emailId: string }, OutgoingMail>({
  name: "mail.send",
  kind: "external",
  payload: z.object({ emailId: z.uuid() }),
  maxAttempts: 6,
  concurrency: 5,
  async perform(db, jobs, ctx) {
    const mails = await db.outgoingEmail.findMany({ where: { id: { in: jobs.map((j) => j.payload.emailId) } } });
    const byId = new Map(mails.map((m) => [m.id, m]));
    const performed = [];
    for (const job of jobs) {
      const mail = byId.get(job.payload.emailId);
      if (!mail || mail.status !== "PENDING") {
        performed.push({ job, result: { status: "done" as const } });
        continue;
      }
      try {
        const { sender, ...rest } = mail;
        await ctx.mail.send({ ...rest, ...(sender ? { from: sender } : {}) });
        performed.push({ job, result: { status: "done" as const }, data: mail });
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        await db.outgoingEmail.updateMany({
          where: { id: mail.id, status: "PENDING" },
          data: { attempts: { increment: 1 }, lastError: message.slice(0, 1000) },
        });
        const permanent = error instanceof PermanentMailError;
        performed.push({ job, result: { status: "error" as const, error: message, permanent } });
      }
    }
    return performed;
  },
  async record(tx, performed, ctx) {
    const sent = performed.flatMap((p) => (p.data ? [p.data.id] : []));
    if (sent.length === 0) return;
    await tx.outgoingEmail.updateMany({
      where: { id: { in: sent }, status: "PENDING" },
      data: { status: "SENT", sentAt: ctx.clock(), attempts: { increment: 1 }, lastError: null },
    });
  },
  async onFailed(tx, job) {
    await tx.outgoingEmail.updateMany({
      where: { id: job.payload.emailId, status: "PENDING" },
      data: { status: "FAILED" },
    });
  },
});

// ─── Dashboard ───────────────────────────────────────────────────────────────────────────────

const HTML_ROOT = /<html\b([^>]*)>/i;

/** The `lang` and `dir` on an HTML part's root element (dir "ltr" when it names none), or null. */
function htmlLanguage(html: string | null): TOutgoingEmailView["language"] {
  const root = html ? HTML_ROOT.exec(html.slice(0, 2_000)) : null;
  const lang = root && /\slang="([A-Za-z0-9-]{1,35})"/.exec(root[1]!);
  if (!root || !lang) return null;
  return { lang: lang[1]!, dir: /\sdir="rtl"/i.test(root[1]!) ? "rtl" : "ltr" };
}

/** One page of an account's outgoing e-mails, newest first (keyset on createdAt, id). */
export async function listOutgoingEmails(
  db: Db,
  args: { accountId: number; transport?: TOutgoingEmailPage["transport"] } & TListOutgoingEmailsInput,
): Promise<TOutgoingEmailPage> {
  const { cursor, limit, status } = ZListOutgoingEmailsInput.parse(args);
  const after = cursor ? decodeCursor(cursor) : undefined;
  const where: Prisma.OutgoingEmailWhereInput = {
    accountId: args.accountId,
    ...(status ? { status } : {}),
    ...(after
      ? { OR: [{ createdAt: { lt: after.createdAt } }, { createdAt: after.createdAt, id: { lt: after.id } }] }
      : {}),
  };
  const rows = await db.outgoingEmail.findMany({
    where,
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: limit + 1,
  });
  const items = rows.slice(0, limit);
  const last = items.at(-1);
  return {
    items: items.map((row) => ({
      id: row.id,
      to: row.to,
      subject: row.subject,
      text: row.text,
      kind: row.kind,
      language: htmlLanguage(row.html),
      status: row.status,
      createdAt: row.createdAt,
      sentAt: row.sentAt,
      attempts: row.attempts,
      lastError: row.lastError,
    })),
    nextCursor: rows.length > limit && last ? encodeCursor(last) : null,
    transport: args.transport ?? { name: "log", detail: null },
  };
}

/** One of an account's outgoing e-mails with its HTML part (null: the mail is text only); NOT_FOUND otherwise. */
export async function getOutgoingEmailHtml(
  db: Db,
  args: { accountId: number; id: string },
): Promise<{ id: string; html: string | null }> {
  const row = await db.outgoingEmail.findFirst({
    where: { id: args.id, accountId: args.accountId },
    select: { id: true, html: true },
  });
  if (!row) throw new AppError("NOT_FOUND", "There is no such e-mail in this account's outbox.");
  return row;
}

export async function countOutgoingEmails(
  db: Db,
  args: { accountId: number },
): Promise<Record<"PENDING" | "SENT" | "FAILED", number>> {
  const groups = await db.outgoingEmail.groupBy({
    by: ["status"],
    where: { accountId: args.accountId },
    _count: { _all: true },
  });
  const counts = { PENDING: 0, SENT: 0, FAILED: 0 };
  for (const group of groups) counts[group.status] = group._count._all;
  return counts;
}

const CURSOR_FORM = /^(\d{1,15}):([0-9a-f-]{36})$/;

function encodeCursor(row: { createdAt: Date; id: string }): string {
  return Buffer.from(`${row.createdAt.getTime()}:${row.id}`, "utf8").toString("base64url");
}

function decodeCursor(cursor: string): { createdAt: Date; id: string } {
  const match = CURSOR_FORM.exec(Buffer.from(cursor, "base64url").toString("utf8"));
  if (!match)
    throw new AppError("BAD_REQUEST", "The cursor is not one this listing returned.", {
      details: [{ field: "cursor", issue: "is invalid" }],
    });
  return { createdAt: new Date(Number(match[1])), id: match[2]! };
}
