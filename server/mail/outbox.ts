/**
 * Mail outbox. An e-mail is a row of outgoing_emails, written by `queueEmail` in the transaction
 * of the change that causes it (a password reset request), so the mail exists exactly when the
 * change does. Sending happens after the commit (`flushOutbox`) and again from any background
 * runner (`sendPendingEmails`), so a mail whose hand-off was lost still goes out.
 *
 * Transport: Masthead has no SMTP client. "Sending" writes the mail to the log and marks it SENT;
 * the dashboard (Outbox) shows every mail with its body, which is how development reads password
 * reset links. A real transport would slot in where `MailLog` is called.
 *
 * Vocabulary: PENDING (queued, not yet sent), SENT, FAILED (the transport refused it for good).
 */
import "server-only";

import type { Db } from "../db/client";
import { AppError } from "../errors";
import type { OutgoingEmail, Prisma } from "../generated/prisma/client";
import { log as appLog } from "../log";
import { ZListOutgoingEmailsInput, type TListOutgoingEmailsInput, type TOutgoingEmailPage } from "./outbox.schema";

export type QueueEmailInput = {
  accountId: number;
  to: string;
  subject: string;
  text: string;
  /** What made it, dotted: "member.password_reset". */
  kind: string;
  now: Date;
};

/** Queue one e-mail. Call it with the transaction client of the change that causes the mail. */
export async function queueEmail(db: Db, input: QueueEmailInput): Promise<{ id: string }> {
  return db.outgoingEmail.create({
    data: { accountId: input.accountId, to: input.to, subject: input.subject, text: input.text, kind: input.kind, createdAt: input.now },
    select: { id: true },
  });
}

/** Where "sent" mail goes when there is no mail transport: one log entry per mail. */
export type MailLog = (mail: Pick<OutgoingEmail, "id" | "accountId" | "to" | "subject" | "text" | "kind">) => void;

/**
 * The default MailLog: the application log (stderr, JSON), body included. Bodies carry no secret
 * but a reset link, which in development is the point; in production configure a transport.
 */
export const logMail: MailLog = (mail) => {
  appLog.info("mail written to the log (no mail transport configured)", {
    id: mail.id,
    accountId: mail.accountId,
    kind: mail.kind,
    to: mail.to,
    subject: mail.subject,
    body: mail.text,
  });
};

const BATCH = 50;

/**
 * Send every pending e-mail (oldest first). Each mail is claimed by one conditional update
 * (PENDING → SENT), so two processes running this at once never send the same mail twice; with
 * the log transport the claim is the send. A transport that throws marks the mail FAILED. For the background runner:
 * `sendPendingEmails(db, { now: new Date(), log: logMail })` on every tick.
 */
export async function sendPendingEmails(db: Db, args: { now: Date; log: MailLog; limit?: number }): Promise<{ sent: number; failed: number }> {
  const limit = args.limit ?? 1000;
  let sent = 0;
  let failed = 0;
  while (sent + failed < limit) {
    const batch = await db.outgoingEmail.findMany({ where: { status: "PENDING" }, orderBy: [{ createdAt: "asc" }, { id: "asc" }], take: Math.min(BATCH, limit - sent - failed) });
    if (batch.length === 0) break;
    let claimedInBatch = 0;
    for (const mail of batch) {
      const { count } = await db.outgoingEmail.updateMany({ where: { id: mail.id, status: "PENDING" }, data: { status: "SENT", sentAt: args.now } });
      if (count === 0) continue; // another process took it
      claimedInBatch++;
      try {
        args.log(mail);
        sent++;
      } catch (error) {
        // The transport refused it: FAILED, shown in the dashboard, not retried in a loop.
        await db.outgoingEmail.update({ where: { id: mail.id }, data: { status: "FAILED", sentAt: null } });
        failed++;
        appLog.error("could not send an e-mail; marked failed", { id: mail.id, kind: mail.kind, error });
      }
    }
    if (claimedInBatch === 0 && batch.length < BATCH) break;
  }
  return { sent, failed };
}

/**
 * After the transaction that queued mail commits: send it now. Never throws: the mail is in the
 * database, and the next call (or the background runner) sends whatever this one could not.
 */
export async function flushOutbox(db: Db, args: { now?: Date; log?: MailLog } = {}): Promise<void> {
  try {
    await sendPendingEmails(db, { now: args.now ?? new Date(), log: args.log ?? logMail });
  } catch (error) {
    appLog.error("could not send queued mail; it stays pending", { error });
  }
}

// ─── Dashboard ───────────────────────────────────────────────────────────────────────────────

/** One page of an account's outgoing e-mails, newest first (keyset on createdAt, id). */
export async function listOutgoingEmails(db: Db, args: { accountId: number } & TListOutgoingEmailsInput): Promise<TOutgoingEmailPage> {
  const { cursor, limit, status } = ZListOutgoingEmailsInput.parse(args);
  const after = cursor ? decodeCursor(cursor) : undefined;
  const where: Prisma.OutgoingEmailWhereInput = {
    accountId: args.accountId,
    ...(status ? { status } : {}),
    ...(after ? { OR: [{ createdAt: { lt: after.createdAt } }, { createdAt: after.createdAt, id: { lt: after.id } }] } : {}),
  };
  const rows = await db.outgoingEmail.findMany({ where, orderBy: [{ createdAt: "desc" }, { id: "desc" }], take: limit + 1 });
  const items = rows.slice(0, limit);
  const last = items.at(-1);
  return {
    items: items.map((row) => ({
      id: row.id,
      to: row.to,
      subject: row.subject,
      text: row.text,
      kind: row.kind,
      status: row.status,
      createdAt: row.createdAt,
      sentAt: row.sentAt,
    })),
    nextCursor: rows.length > limit && last ? encodeCursor(last) : null,
    transport: "log",
  };
}

export async function countOutgoingEmails(db: Db, args: { accountId: number }): Promise<Record<"PENDING" | "SENT" | "FAILED", number>> {
  const groups = await db.outgoingEmail.groupBy({ by: ["status"], where: { accountId: args.accountId }, _count: { _all: true } });
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
  if (!match) throw new AppError("BAD_REQUEST", "The cursor is not one this listing returned.", { details: [{ field: "cursor", issue: "is invalid" }] });
  return { createdAt: new Date(Number(match[1])), id: match[2]! };
}
