/**
 * The newsletter stats read from the database (what the numbers mean: ./stats.ts): one send's,
 * and a newsletter's over its sends of a range of days with its subscribers by day, both counted
 * in SQL (one statement for every send of the page) and scoped to the staff member's account: a
 * newsletter or send of another account is NOT_FOUND. Days are the account's (accounts.time_zone).
 */
import "server-only";

import type { Db } from "../db/client";
import { AppError } from "../errors";
import { Prisma } from "../generated/prisma/client";
import { nextDay, zonedDayStart } from "../time-zone";
import { EMPTY_COUNTS, subscribersSeries, totalOf, withRates, type SendCounts, type SendStats } from "./stats";
import type { TStatsRange } from "./stats.schema";

/** Sends a newsletter's page lists at most (newest first). */
const MAX_SENDS_LISTED = 500;

/** Days after a first click in which a subscription counts for the send. */
const CONVERSION_WINDOW_DAYS = 7;

/**
 * A subscription `s` that the clicking reader of delivery `d` started (./stats.ts): paid, bought
 * for themselves or as a gift, created in (first click, first click + 7 days].
 */
const startedAfterClick = Prisma.sql`
  s.account_id = d.account_id
  AND (s.subscriber_id = d.member_id OR s.gifter_id = d.member_id)
  AND s.created_at > d.clicked_at
  AND s.created_at <= d.clicked_at + make_interval(days => ${CONVERSION_WINDOW_DAYS})
  AND s.deleted_at IS NULL AND s.status IN ('active', 'cancelled', 'expired')
  AND s.payment_amount_cents > 0`;

/**
 * The subscriptions started after a click of any of `sendIds`, each once (a newsletter's total:
 * a reader who clicked two sends before subscribing started one subscription).
 */
export async function distinctSubscriptionsStarted(
  db: Db,
  accountId: number,
  sendIds: readonly number[],
): Promise<number> {
  if (sendIds.length === 0) return 0;
  const [row] = await db.$queryRaw<{ n: bigint }[]>`
    SELECT COUNT(DISTINCT s.id) AS n
    FROM newsletter_deliveries d JOIN subscriptions s ON ${startedAfterClick}
    WHERE d.account_id = ${accountId} AND d.send_id IN (${Prisma.join(sendIds)}) AND d.clicked_at IS NOT NULL`;
  return Number(row?.n ?? 0);
}

type CountsRow = {
  send_id: number;
  recipients: bigint;
  delivered: bigint;
  bounced: bigint;
  failed: bigint;
  pending: bigint;
  opened: bigint;
  clicked: bigint;
  unsubscribed: bigint;
  subscriptions_started: bigint;
};

/** Each send's counts, in one statement. */
async function countsBySend(db: Db, accountId: number, sendIds: readonly number[]): Promise<Map<number, SendCounts>> {
  const result = new Map<number, SendCounts>();
  if (sendIds.length === 0) return result;
  const rows = await db.$queryRaw<CountsRow[]>`
    SELECT d.send_id,
      COUNT(*) FILTER (WHERE d.status <> 'skipped') AS recipients,
      COUNT(*) FILTER (WHERE d.status = 'sent') AS delivered,
      COUNT(*) FILTER (WHERE d.status = 'bounced') AS bounced,
      COUNT(*) FILTER (WHERE d.status = 'failed') AS failed,
      COUNT(*) FILTER (WHERE d.status = 'pending') AS pending,
      COUNT(d.opened_at) AS opened,
      COUNT(d.clicked_at) AS clicked,
      COUNT(d.unsubscribed_at) AS unsubscribed,
      COALESCE(SUM((
        SELECT COUNT(*) FROM subscriptions s WHERE ${startedAfterClick}
      )) FILTER (WHERE d.clicked_at IS NOT NULL), 0) AS subscriptions_started
    FROM newsletter_deliveries d
    WHERE d.account_id = ${accountId} AND d.send_id IN (${Prisma.join(sendIds)})
    GROUP BY d.send_id`;
  for (const row of rows) {
    result.set(Number(row.send_id), {
      recipients: Number(row.recipients),
      delivered: Number(row.delivered),
      bounced: Number(row.bounced),
      failed: Number(row.failed),
      pending: Number(row.pending),
      opened: Number(row.opened),
      clicked: Number(row.clicked),
      unsubscribed: Number(row.unsubscribed),
      subscriptionsStarted: Number(row.subscriptions_started),
    });
  }
  return result;
}

async function accountZone(db: Db, accountId: number): Promise<string> {
  const account = await db.account.findUnique({ where: { id: accountId }, select: { timeZone: true } });
  return account?.timeZone ?? "UTC";
}

const NEWSLETTER_FIELDS = { id: true, name: true, slug: true, trackOpens: true, trackClicks: true } as const;
const SEND_FIELDS = {
  id: true,
  newsletterId: true,
  subject: true,
  kind: true,
  status: true,
  scheduledAt: true,
  startedAt: true,
  finishedAt: true,
} as const;

export type SendRow = {
  id: number;
  newsletterId: number;
  subject: string;
  kind: string;
  status: string;
  scheduledAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
};

/** When a send went out (began), or is to. */
const sendTime = (send: Pick<SendRow, "startedAt" | "scheduledAt">) => send.startedAt ?? send.scheduledAt;

/** One send of the account with its numbers; NOT_FOUND for another account's. */
export async function getSendStats(db: Db, args: { accountId: number; sendId: number }) {
  const send = await db.newsletterSend.findFirst({
    where: { id: args.sendId, accountId: args.accountId },
    select: { ...SEND_FIELDS, newsletter: { select: NEWSLETTER_FIELDS } },
  });
  if (!send) throw new AppError("NOT_FOUND", "No such send.");
  const counts = (await countsBySend(db, args.accountId, [send.id])).get(send.id) ?? EMPTY_COUNTS;
  const { newsletter, ...rest } = send;
  return { timeZone: await accountZone(db, args.accountId), newsletter, send: rest, stats: withRates(counts) };
}

/** The account's newsletter, or NOT_FOUND. */
async function getNewsletterOrThrow(db: Db, args: { accountId: number; newsletterId: number }) {
  const newsletter = await db.newsletter.findFirst({
    where: { id: args.newsletterId, accountId: args.accountId },
    select: NEWSLETTER_FIELDS,
  });
  if (!newsletter) throw new AppError("NOT_FOUND", "No such newsletter.");
  return newsletter;
}

/**
 * A newsletter's sends that went out (or are to) in the range, newest first (at most
 * MAX_SENDS_LISTED), each with its numbers; their total; and its active subscribers at the end of
 * each day of the range.
 */
export async function getNewsletterStats(
  db: Db,
  args: { accountId: number; newsletterId: number; range: TStatsRange },
) {
  const newsletter = await getNewsletterOrThrow(db, args);
  const zone = await accountZone(db, args.accountId);
  const start = zonedDayStart(args.range.from, zone);
  const end = zonedDayStart(nextDay(args.range.to), zone);
  const sendsInRange = await db.newsletterSend.findMany({
    where: {
      accountId: args.accountId,
      newsletterId: newsletter.id,
      OR: [{ startedAt: { gte: start, lt: end } }, { startedAt: null, scheduledAt: { gte: start, lt: end } }],
    },
    select: SEND_FIELDS,
    orderBy: [{ scheduledAt: "desc" }, { id: "desc" }],
    take: MAX_SENDS_LISTED,
  });
  const counts = await countsBySend(
    db,
    args.accountId,
    sendsInRange.map((s) => s.id),
  );
  const sends: (SendRow & SendStats)[] = sendsInRange
    .map((send) => ({ ...send, ...withRates(counts.get(send.id) ?? EMPTY_COUNTS) }))
    .sort((a, b) => sendTime(b).getTime() - sendTime(a).getTime() || b.id - a.id);
  return {
    newsletter,
    timeZone: zone,
    range: args.range,
    sends,
    total: {
      ...totalOf(sends),
      subscriptionsStarted: await distinctSubscriptionsStarted(
        db,
        args.accountId,
        sends.map((s) => s.id),
      ),
    },
    subscribers: await subscribersByDay(db, { newsletterId: newsletter.id, zone, range: args.range, start, end }),
  };
}

/**
 * Active subscribers at the end of each day: a subscription is active from its confirmation (its
 * consent when it needed none) until it was left; one still pending never was.
 */
async function subscribersByDay(
  db: Db,
  args: { newsletterId: number; zone: string; range: TStatsRange; start: Date; end: Date },
) {
  const { newsletterId, zone, start, end } = args;
  const [before] = await db.$queryRaw<{ n: bigint }[]>`
    SELECT COUNT(*) AS n FROM newsletter_subscriptions
    WHERE newsletter_id = ${newsletterId} AND status <> 'pending'
      AND COALESCE(confirmed_at, consented_at) < ${start}::timestamptz
      AND (unsubscribed_at IS NULL OR unsubscribed_at >= ${start}::timestamptz)`;
  const rows = await db.$queryRaw<{ day: string; started: bigint; ended: bigint }[]>`
    WITH events AS (
      SELECT COALESCE(confirmed_at, consented_at) AS at, 1 AS started, 0 AS ended
      FROM newsletter_subscriptions
      WHERE newsletter_id = ${newsletterId} AND status <> 'pending'
        AND COALESCE(confirmed_at, consented_at) >= ${start}::timestamptz
        AND COALESCE(confirmed_at, consented_at) < ${end}::timestamptz
      UNION ALL
      SELECT unsubscribed_at AS at, 0 AS started, 1 AS ended
      FROM newsletter_subscriptions
      WHERE newsletter_id = ${newsletterId} AND status <> 'pending'
        AND unsubscribed_at >= ${start}::timestamptz AND unsubscribed_at < ${end}::timestamptz
    )
    SELECT to_char(at AT TIME ZONE ${zone}, 'YYYY-MM-DD') AS day, SUM(started) AS started, SUM(ended) AS ended
    FROM events GROUP BY 1`;
  return subscribersSeries({
    from: args.range.from,
    to: args.range.to,
    activeBefore: Number(before?.n ?? 0),
    started: new Map(rows.map((r) => [r.day, Number(r.started)])),
    ended: new Map(rows.map((r) => [r.day, Number(r.ended)])),
  });
}

/** A send's deliveries for the CSV, in pages of `pageSize` by id (bounded memory). */
export async function* sendDeliveries(db: Db, args: { accountId: number; sendId: number; pageSize?: number }) {
  const pageSize = args.pageSize ?? 1000;
  let after: bigint | null = null;
  for (;;) {
    const page: {
      id: bigint;
      email: string;
      status: string;
      sentAt: Date | null;
      openedAt: Date | null;
      clickedAt: Date | null;
      bouncedAt: Date | null;
      unsubscribedAt: Date | null;
      lastError: string | null;
      _count: { clicks: number };
    }[] = await db.newsletterDelivery.findMany({
      where: { accountId: args.accountId, sendId: args.sendId, ...(after !== null ? { id: { gt: after } } : {}) },
      select: {
        id: true,
        email: true,
        status: true,
        sentAt: true,
        openedAt: true,
        clickedAt: true,
        bouncedAt: true,
        unsubscribedAt: true,
        lastError: true,
        _count: { select: { clicks: true } },
      },
      orderBy: { id: "asc" },
      take: pageSize,
    });
    yield* page;
    if (page.length < pageSize) return;
    after = page[page.length - 1]!.id;
  }
}

/**
 * A newsletter's sends with their numbers for the CSV, newest first, in pages of `pageSize`
 * (bounded memory): those of the range when given, else all. NOT_FOUND for another account's.
 */
export async function newsletterSendsForCsv(
  db: Db,
  args: { accountId: number; newsletterId: number; range?: TStatsRange; pageSize?: number },
) {
  const newsletter = await getNewsletterOrThrow(db, args);
  const pageSize = args.pageSize ?? 200;
  let bounds: { start: Date; end: Date } | null = null;
  if (args.range) {
    const zone = await accountZone(db, args.accountId);
    bounds = { start: zonedDayStart(args.range.from, zone), end: zonedDayStart(nextDay(args.range.to), zone) };
  }
  async function* rows(): AsyncGenerator<SendRow & SendStats> {
    let before: number | null = null;
    for (;;) {
      const page: SendRow[] = await db.newsletterSend.findMany({
        where: {
          accountId: args.accountId,
          newsletterId: newsletter.id,
          ...(before !== null ? { id: { lt: before } } : {}),
          ...(bounds
            ? {
                OR: [
                  { startedAt: { gte: bounds.start, lt: bounds.end } },
                  { startedAt: null, scheduledAt: { gte: bounds.start, lt: bounds.end } },
                ],
              }
            : {}),
        },
        select: SEND_FIELDS,
        orderBy: { id: "desc" },
        take: pageSize,
      });
      const counts = await countsBySend(
        db,
        args.accountId,
        page.map((s) => s.id),
      );
      for (const send of page) yield { ...send, ...withRates(counts.get(send.id) ?? EMPTY_COUNTS) };
      if (page.length < pageSize) return;
      before = page[page.length - 1]!.id;
    }
  }
  return { newsletter, rows: rows() };
}
