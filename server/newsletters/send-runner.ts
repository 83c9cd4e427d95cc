/**
 * Sending one newsletter send, in slices (the "newsletter.send" job, ./send-job.ts, runs one slice
 * per run and is run again until the send is done). Any number of workers may run slices of the
 * same send at once, on any number of instances: they share nothing but the database.
 *
 * 1. Recipients. A QUEUED send whose time has come gets its deliveries, one per address of the
 *    audience (./audience.ts), written page by page with ON CONFLICT DO NOTHING (unique send and
 *    address) in the transaction that moves it to SENDING and records `recipients`: a worker killed
 *    half-way leaves it QUEUED with nothing written, and the next run starts over.
 * 2. Claims. A worker claims a batch of PENDING deliveries (FOR UPDATE SKIP LOCKED, a lease in
 *    `claimed_until`): two workers never take the same row, and a dead worker's rows are free again
 *    once the lease lapses. A claimed reader who unsubscribed or was suppressed meanwhile is SKIPPED.
 * 3. Handoff, at most once per address. Before the SMTP handoff the worker marks the delivery
 *    handed off (`sent_at`), conditionally on no one having done so, a group of as many deliveries
 *    as it has handoffs in flight in one statement: only one worker ever hands a delivery to the
 *    SMTP server. Accepted: SENT (written for the batch at its end). Refused for
 *    good (a 5xx: PermanentMailError): FAILED, and, when the recipient was refused (RCPT TO), the
 *    address suppressed as a bounce (a refused sender or message is not the address's fault).
 *    Refused for now: the mark is taken back and the delivery waits (claimed_until) 30 s × 2^(attempt − 1)
 *    before its next attempt, FAILED after MAX_ATTEMPTS.
 *    A worker that dies after marking a delivery and before writing its outcome (the SMTP server
 *    may or may not have accepted it; most often it has, and the SENT write was lost) leaves it
 *    marked: once its lease lapses it is counted SENT and never handed off again, with
 *    `last_error` saying the outcome is unknown. So a crash can lose, per worker, its handoffs in
 *    flight and the group marked and not yet handed off, never send a mail twice.
 *    (Each worker has up to `concurrency` handoffs in flight, SEND_CONCURRENCY by default; the
 *    SMTP transport keeps its connections open, ../mail/transport.ts.)
 * 4. Pace: each handoff first takes a turn of the throttle (./throttle.ts), before its mark.
 * 5. End: a send with no PENDING delivery left is SENT (finished_at); a send staff CANCELLED stops
 *    at the next batch (its unsent deliveries SKIPPED by the cancellation, ./send.ts); a send whose
 *    story was deleted meanwhile ends CANCELLED the same way.
 */
import "server-only";

import type { Db } from "../db/client";
import { withTransaction } from "../db/transaction";
import { AppError } from "../errors";
import { log } from "../log";
import { PermanentMailError, type MailTransport } from "../mail/transport";
import { audience } from "./audience";
import { deliveryLinks } from "./links";
import { fromHeader, newsletterHeaders, personalise, subjectLine } from "./render-mail";
import { sendContent, type SendContent } from "./send-content";
import { suppress, suppressedAmong } from "./suppression";
import type { Throttle } from "./throttle";
import { newsletterTokenKey } from "./tokens";

const MAX_ATTEMPTS = 5;
export const CLAIM_LEASE_MS = 120_000;
/** Handoffs in flight per sender: each waits on its SMTP exchange over one of the transport's pooled connections. */
const SEND_CONCURRENCY = 8;
export const UNKNOWN_OUTCOME = "The sender stopped during the SMTP handoff: counted as sent, not sent again.";

export type SliceOptions = {
  sendId: number;
  clock: () => Date;
  mail: MailTransport;
  appUrl: string;
  throttle: Throttle;
  /** Stop claiming new batches after this long (the slice ends; the job runs again). */
  budgetMs?: number;
  batchSize?: number;
  /** Handoffs in flight at once (default SEND_CONCURRENCY): each SMTP handoff waits on the network. */
  concurrency?: number;
  /** Tests: called after each accepted handoff; true simulates a kill there (nothing more is written). */
  killAfterHandoff?: () => boolean;
};

type SliceResult = { state: "done" } | { state: "continue"; at: Date } | { state: "killed" };

type ClaimedRow = { id: string; member_id: number; email: string; attempts: number };

const backoffMs = (attempt: number) => Math.min(3600_000, 30_000 * 2 ** Math.max(0, attempt - 1));

async function writeRecipients(db: Db, sendId: number, now: Date): Promise<void> {
  await withTransaction(
    db,
    async (tx) => {
      const [locked] = await tx.$queryRaw<{ status: string }[]>`
        SELECT status::text AS status FROM newsletter_sends WHERE id = ${sendId} FOR UPDATE`;
      if (locked?.status !== "queued") return;
      const send = await tx.newsletterSend.findUniqueOrThrow({
        where: { id: sendId },
        select: {
          accountId: true,
          newsletter: { select: { id: true, accountId: true, audience: true, planIds: true } },
        },
      });
      for await (const page of audience(tx, { newsletter: send.newsletter, now })) {
        await tx.newsletterDelivery.createMany({
          data: page.map((r) => ({ accountId: send.accountId, sendId, memberId: r.memberId, email: r.email })),
          skipDuplicates: true,
        });
      }
      const recipients = await tx.newsletterDelivery.count({ where: { sendId } });
      await tx.newsletterSend.update({
        where: { id: sendId },
        data: { status: "SENDING", startedAt: now, recipients },
      });
    },
    { timeout: 10 * 60_000 },
  );
}

/** Deliveries whose handoff was marked by a worker whose lease lapsed: SENT, never handed off again. */
async function settleLapsedHandoffs(db: Db, sendId: number, now: Date): Promise<void> {
  await db.$executeRaw`
    UPDATE newsletter_deliveries SET status = 'sent', claimed_until = NULL, last_error = ${UNKNOWN_OUTCOME}
     WHERE send_id = ${sendId} AND status = 'pending' AND sent_at IS NOT NULL AND claimed_until < ${now}`;
}

async function claim(db: Db, sendId: number, now: Date, lease: Date, limit: number): Promise<ClaimedRow[]> {
  return db.$queryRaw<ClaimedRow[]>`
    UPDATE newsletter_deliveries d SET claimed_until = ${lease}
     WHERE d.id IN (
       SELECT id FROM newsletter_deliveries
        WHERE send_id = ${sendId} AND status = 'pending' AND sent_at IS NULL
          AND (claimed_until IS NULL OR claimed_until < ${now})
        ORDER BY id LIMIT ${limit}
        FOR UPDATE SKIP LOCKED)
    RETURNING d.id::text AS id, d.member_id, d.email, d.attempts`;
}

/**
 * The claimed rows, handed out one at a time, each marked handed off (`sent_at`) before it is:
 * `group` rows at once, one UPDATE for them, once each has taken its turn of the throttle. A row
 * another worker holds now (our lease lapsed) is never handed out. So a worker that dies leaves
 * at most a group marked and not yet handed off, beside its handoffs in flight.
 */
function handoffMarks(
  db: Db,
  args: { rows: ClaimedRow[]; lease: Date; group: number; throttle: Throttle; clock: () => Date; stop: () => boolean },
): () => Promise<ClaimedRow | undefined> {
  const waiting = [...args.rows];
  const marked: ClaimedRow[] = [];
  let marking: Promise<void> | undefined;
  const markGroup = async () => {
    const group = waiting.splice(0, args.group);
    await Promise.all(group.map(() => args.throttle.take()));
    if (args.stop()) return;
    const ids = await db.$queryRaw<{ id: string }[]>`
      UPDATE newsletter_deliveries SET sent_at = ${args.clock()}, attempts = attempts + 1
       WHERE id = ANY(${group.map((r) => r.id)}::bigint[]) AND status = 'pending' AND sent_at IS NULL
         AND claimed_until = ${args.lease}
      RETURNING id::text AS id`;
    const ours = new Set(ids.map((r) => r.id));
    marked.push(...group.filter((r) => ours.has(r.id)));
  };
  return async () => {
    for (;;) {
      if (marked.length) return marked.shift();
      if (args.stop() || (waiting.length === 0 && !marking)) return undefined;
      marking ??= markGroup().finally(() => (marking = undefined));
      await marking;
    }
  };
}

/** Claimed readers who left the newsletter or whose address was suppressed since: SKIPPED. */
async function skipGone(
  db: Db,
  args: { accountId: number; newsletterId: number; rows: ClaimedRow[] },
): Promise<ClaimedRow[]> {
  const [active, suppressed] = await Promise.all([
    db.newsletterSubscription.findMany({
      where: { newsletterId: args.newsletterId, memberId: { in: args.rows.map((r) => r.member_id) }, status: "ACTIVE" },
      select: { memberId: true },
    }),
    suppressedAmong(db, { accountId: args.accountId, emails: args.rows.map((r) => r.email) }),
  ]);
  const still = new Set(active.map((a) => a.memberId));
  const gone = args.rows.filter((r) => !still.has(r.member_id) || suppressed.has(r.email));
  if (gone.length)
    await db.$executeRaw`UPDATE newsletter_deliveries SET status = 'skipped', claimed_until = NULL
      WHERE id = ANY(${gone.map((r) => r.id)}::bigint[]) AND status = 'pending' AND sent_at IS NULL`;
  return args.rows.filter((r) => !gone.includes(r));
}

/** Finish a send with nothing PENDING left, or say when to look again. */
async function finishOrWait(db: Db, sendId: number, now: Date): Promise<SliceResult> {
  const [left] = await db.$queryRaw<{ pending: bigint; next: Date | null }[]>`
    SELECT count(*) AS pending, min(claimed_until) AS next FROM newsletter_deliveries
     WHERE send_id = ${sendId} AND status = 'pending'`;
  if (!left || Number(left.pending) === 0) {
    await db.newsletterSend.updateMany({
      where: { id: sendId, status: "SENDING" },
      data: { status: "SENT", finishedAt: now },
    });
    return { state: "done" };
  }
  const next = left.next && left.next > now ? left.next : new Date(now.getTime() + 1000);
  return { state: "continue", at: next };
}

/** Run a worker's share of a send for up to `budgetMs`. */
export async function runSendSlice(db: Db, options: SliceOptions): Promise<SliceResult> {
  const { sendId, clock } = options;
  const started = Date.now();
  const budget = options.budgetMs ?? 40_000;
  let send = await db.newsletterSend.findUnique({
    where: { id: sendId },
    include: { newsletter: true },
  });
  if (!send || send.status === "SENT" || send.status === "CANCELLED") return { state: "done" };
  if (send.status === "QUEUED") {
    if (send.scheduledAt > clock()) return { state: "continue", at: send.scheduledAt };
    await writeRecipients(db, sendId, clock());
    send = await db.newsletterSend.findUniqueOrThrow({ where: { id: sendId }, include: { newsletter: true } });
    if (send.status !== "SENDING")
      return send.status === "QUEUED" ? { state: "continue", at: clock() } : { state: "done" };
  }
  const { newsletter } = send;
  const key = newsletterTokenKey();
  const base = { baseUrl: options.appUrl, key, accountId: send.accountId };
  let content: SendContent | undefined;
  const subject = subjectLine(send.subject);
  const from = fromHeader(newsletter.senderName, newsletter.senderEmail);
  const batchSize = options.batchSize ?? 50;

  while (Date.now() - started < budget) {
    const current = await db.newsletterSend.findUnique({ where: { id: sendId }, select: { status: true } });
    if (current?.status !== "SENDING") return { state: "done" };
    const now = clock();
    await settleLapsedHandoffs(db, sendId, now);
    const lease = new Date(now.getTime() + CLAIM_LEASE_MS);
    const claimed = await claim(db, sendId, now, lease, batchSize);
    if (claimed.length === 0) return finishOrWait(db, sendId, now);
    const rows = await skipGone(db, { accountId: send.accountId, newsletterId: newsletter.id, rows: claimed });
    try {
      content ??= await sendContent(db, { send, newsletter, appUrl: options.appUrl, now });
    } catch (error) {
      if (!(error instanceof AppError && error.code === "NOT_FOUND")) throw error;
      // The story was deleted since: nothing to send, ever. The send ends as if staff cancelled it.
      await abandon(db, sendId, now, "The story no longer exists.");
      return { state: "done" };
    }
    await content.prepare(rows.map((r) => r.member_id));
    const accepted: string[] = [];
    let killed = false;
    const lanes = Math.min(options.concurrency ?? SEND_CONCURRENCY, rows.length);
    const next = handoffMarks(db, { rows, lease, group: lanes, throttle: options.throttle, clock, stop: () => killed });

    const handOff = async (row: ClaimedRow) => {
      const template = content!.templateFor(row.member_id);
      const links = deliveryLinks({ ...base, deliveryId: row.id });
      const unsubscribe = links.unsubscribe;
      const body = personalise(template, {
        link: newsletter.trackClicks ? links.click : (url) => url,
        unsubscribeUrl: unsubscribe,
        openPixelUrl: newsletter.trackOpens ? links.openPixel : null,
      });
      try {
        await options.mail.send({
          id: `newsletter-${sendId}-${row.id}`,
          accountId: send.accountId,
          to: row.email,
          from,
          subject,
          text: body.text,
          html: body.html,
          kind: "newsletter.send",
          headers: newsletterHeaders({ unsubscribeUrl: unsubscribe, replyTo: newsletter.replyTo }),
        });
      } catch (error) {
        await recordRefusal(db, { row, error, accountId: send.accountId, now: clock() });
        return;
      }
      if (options.killAfterHandoff?.()) {
        killed = true;
        return;
      }
      accepted.push(row.id);
    };

    // `lanes` handoffs in flight, each taking the next marked row. A stopped worker marks no more,
    // and hands off the rows it has marked: in a real crash those are lost with the handoffs in
    // flight (counted sent, never sent twice); a test's simulated kill delivers them.
    await Promise.all(
      Array.from({ length: lanes }, async () => {
        for (let row = await next(); row; row = await next()) await handOff(row);
      }),
    );
    if (killed) return { state: "killed" };
    if (accepted.length)
      await db.$executeRaw`UPDATE newsletter_deliveries SET status = 'sent', claimed_until = NULL, last_error = NULL
        WHERE id = ANY(${accepted}::bigint[]) AND status = 'pending'`;
  }
  return { state: "continue", at: clock() };
}

/** End a send that can no longer be sent: CANCELLED, its deliveries not handed off SKIPPED with the reason. */
async function abandon(db: Db, sendId: number, now: Date, reason: string): Promise<void> {
  log.warn("newsletter send abandoned", { send: sendId, reason });
  await withTransaction(db, async (tx) => {
    await tx.$executeRaw`UPDATE newsletter_deliveries SET status = 'skipped', claimed_until = NULL, last_error = ${reason}
      WHERE send_id = ${sendId} AND status = 'pending' AND sent_at IS NULL`;
    await tx.newsletterSend.updateMany({
      where: { id: sendId, status: { in: ["QUEUED", "SENDING"] } },
      data: { status: "CANCELLED", finishedAt: now },
    });
  });
}

/** A handoff the SMTP server refused: FAILED and suppressed (5xx), or retried later. */
async function recordRefusal(
  db: Db,
  args: { row: ClaimedRow; error: unknown; accountId: number; now: Date },
): Promise<void> {
  const { row, now } = args;
  const message = (args.error instanceof Error ? args.error.message : String(args.error)).slice(0, 1000);
  const attempts = row.attempts + 1;
  if (args.error instanceof PermanentMailError || attempts >= MAX_ATTEMPTS) {
    await db.$executeRaw`UPDATE newsletter_deliveries SET status = 'failed', sent_at = NULL, claimed_until = NULL, last_error = ${message}
      WHERE id = ${BigInt(row.id)} AND status = 'pending'`;
    // Only a refused recipient is the address's fault: a refused sender (MAIL FROM) or message
    // (DATA) would otherwise suppress the whole list.
    if (args.error instanceof PermanentMailError && args.error.command === "RCPT TO")
      await suppress(db, { accountId: args.accountId, email: row.email, reason: "bounce", detail: message, now });
    return;
  }
  log.warn("newsletter mail refused for now; retried later", { delivery: row.id, attempt: attempts, error: message });
  await db.$executeRaw`UPDATE newsletter_deliveries SET sent_at = NULL, last_error = ${message},
      claimed_until = ${new Date(now.getTime() + backoffMs(attempts))}
    WHERE id = ${BigInt(row.id)} AND status = 'pending'`;
}
