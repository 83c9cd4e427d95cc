/**
 * "newsletter.digest", every 5 minutes: the digests that are due. A newsletter with a
 * `digestCollectionId` and a `digestSchedule` ({days: [1-7, Monday 1], time: "HH:MM"}) mails the
 * collection's top stories (./digest-stories.ts: a manual collection's items, an automated
 * collection's rules evaluated at send time) on those days at that time on the
 * account's clocks (accounts.time_zone).
 *
 * A digest is due from its time until DIGEST_WINDOW_MS later (a server down at 07:00 still sends
 * the 07:00 digest at 07:40, not at midnight). Its send has the key "digest:<local date>", so two
 * instances, or a run repeated after a crash, make one send (./send.ts `createSend`). It is skipped
 * when no story of the collection was published since the previous digest's time (or, for a first
 * digest, when the collection has no published story). It is not sent either while the account's
 * site URL is unset (the story links would lead nowhere, as "Publish and send" refuses): the day
 * is skipped with an audit entry "newsletter.digest_skipped" saying why, once per newsletter and day,
 * and the newsletter form says so beside the digest's settings.
 */
import "server-only";

import { z } from "zod";

import { ownValue } from "@/server/own-keys";

import { recordAudit } from "../audit/audit-log";
import { systemActor } from "../auth/actor";
import type { Db } from "../db/client";
import { accountLocales } from "../i18n/locale-settings";
import { translatorFor } from "../i18n/overrides";
import { defineSweepJob } from "../jobs/define";
import { log } from "../log";
import { getPublisher } from "../publishing/publisher";
import { zonedDayStart } from "../time-zone";
import { digestFreshCount } from "./digest-stories";
import { createSend, DIGEST_SITE_URL_UNSET } from "./send";

const DIGEST_EVERY_MS = 5 * 60_000;
const DIGEST_WINDOW_MS = 2 * 3600_000;

export const ZDigestSchedule = z.object({
  days: z.array(z.number().int().min(1).max(7)).min(1).max(7),
  time: z.string().regex(/^([01][0-9]|2[0-3]):[0-5][0-9]$/),
});
export type TDigestSchedule = z.infer<typeof ZDigestSchedule>;

const WEEKDAYS: Record<string, number> = { Mon: 1, Tue: 2, Wed: 3, Thu: 4, Fri: 5, Sat: 6, Sun: 7 };

/** The calendar day ("2026-11-27") and weekday (Monday 1) at `at` on `zone`'s clocks. */
function localDay(at: Date, zone: string): { day: string; weekday: number } {
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone: zone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    weekday: "short",
  }).formatToParts(at);
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? "";
  return { day: `${get("year")}-${get("month")}-${get("day")}`, weekday: ownValue(WEEKDAYS, get("weekday")) ?? 0 };
}

/** The instant of today's digest on the zone's clocks, when today is one of its days and it is due at `now`. */
export function dueDigest(schedule: TDigestSchedule, zone: string, now: Date): { day: string; at: Date } | null {
  const { day, weekday } = localDay(now, zone);
  if (!schedule.days.includes(weekday)) return null;
  const [hours, minutes] = schedule.time.split(":").map(Number) as [number, number];
  const at = new Date(zonedDayStart(day, zone).getTime() + (hours * 60 + minutes) * 60_000);
  const since = now.getTime() - at.getTime();
  return since >= 0 && since < DIGEST_WINDOW_MS ? { day, at } : null;
}

/**
 * Whether the account's site URL is set; when not, the day's digest is skipped and the reason
 * recorded once (an audit entry for the newsletter, since the digest's time).
 */
async function siteUrlReady(
  db: Db,
  n: { id: number; accountId: number },
  due: { day: string; at: Date },
  args: { appUrl: string; now: Date },
): Promise<boolean> {
  const publisher = await getPublisher(db, n.accountId, { appUrl: args.appUrl });
  if (publisher.siteUrlSet) return true;
  const action = "newsletter.digest_skipped";
  const targetId = String(n.id);
  const recorded = await db.auditLog.findFirst({
    where: { accountId: n.accountId, action, targetType: "newsletter", targetId, createdAt: { gte: due.at } },
    select: { id: true },
  });
  if (!recorded) {
    await recordAudit(db, {
      actor: systemActor(n.accountId, "newsletter.digest"),
      action,
      targetType: "newsletter",
      targetId,
      metadata: { day: due.day, reason: DIGEST_SITE_URL_UNSET },
      now: args.now,
    });
    log.warn("newsletter digest skipped: site URL unset", { newsletter: n.id, day: due.day });
  }
  return false;
}

/** Create the digest sends due at `now`. Returns how many were created. */
export async function createDueDigests(db: Db, now: Date, appUrl: string): Promise<number> {
  const newsletters = await db.newsletter.findMany({
    where: { archivedAt: null, digestCollectionId: { not: null } },
    select: {
      id: true,
      accountId: true,
      name: true,
      digestCollectionId: true,
      digestSchedule: true,
      account: { select: { timeZone: true } },
    },
  });
  let created = 0;
  for (const n of newsletters) {
    const schedule = ZDigestSchedule.safeParse(n.digestSchedule);
    if (!schedule.success) continue;
    const due = dueDigest(schedule.data, n.account.timeZone || "UTC", now);
    if (!due) continue;
    const dedupeKey = `digest:${due.day}`;
    if (await db.newsletterSend.findUnique({ where: { newsletterId_dedupeKey: { newsletterId: n.id, dedupeKey } } }))
      continue;
    const previous = await db.newsletterSend.findFirst({
      where: { newsletterId: n.id, kind: "digest" },
      orderBy: { scheduledAt: "desc" },
      select: { scheduledAt: true },
    });
    const fresh = await digestFreshCount(db, {
      accountId: n.accountId,
      collectionId: n.digestCollectionId!,
      since: previous?.scheduledAt ?? null,
    });
    if (fresh === 0) continue;
    if (!(await siteUrlReady(db, n, due, { appUrl, now }))) continue;
    const collection = await db.collection.findUnique({ where: { id: n.digestCollectionId! }, select: { name: true } });
    // A collection gone since: the subject says "Top stories" in the newsroom's language.
    const title =
      collection?.name ??
      (await translatorFor(db, n.accountId, "mail", (await accountLocales(db, n.accountId)).defaultLocale))(
        "newsletterTopStories",
      );
    const result = await createSend(db, {
      accountId: n.accountId,
      newsletterId: n.id,
      kind: "digest",
      dedupeKey,
      subject: `${n.name}: ${title}`,
      collectionId: n.digestCollectionId,
      scheduledAt: due.at,
      now,
    });
    if (result.created) {
      created++;
      log.info("newsletter digest queued", { newsletter: n.id, send: result.send.id, day: due.day });
    }
  }
  return created;
}

export const newsletterDigestJob = defineSweepJob({
  name: "newsletter.digest",
  everyMs: DIGEST_EVERY_MS,
  async run(tx, _job, ctx) {
    await createDueDigests(tx, ctx.clock(), ctx.appUrl);
  },
});
