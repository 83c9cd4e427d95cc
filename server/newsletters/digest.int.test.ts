// The digest's schedule on the test clock, in the account's time zone (both databases): due at its time,
// once per local day however often or wherever it runs, skipped without a new story, and mailed by the jobs.
// A digest of an automated collection evaluates the collection's rules when it is made and mailed.
import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { getDb } from "../db";
import type { Db } from "../db/client";
import { enqueueJob } from "../jobs/queue";
import { forgetPublisherCache } from "../publishing/publisher";
import { now, resetClock, setClock } from "../testing/clock";
import { recordingTransport, runJobsNow, testJobDeps } from "../testing/jobs";
import { insertNewsletter, insertSubscribers } from "../testing/newsletter-fixtures";
import { createTestPublisher, insertStory } from "../testing/publishing-factories";
import { createDueDigests, dueDigest, newsletterDigestJob } from "./digest";
import { DIGEST_SITE_URL_UNSET } from "./send";

/** Masthead's own address in these tests (the publishers' site URL is news.example.com). */
const APP_URL = "http://masthead.test";

let db: Db;
beforeEach(async () => {
  db = await getDb();
});
afterEach(() => resetClock());

/** A New York account whose newsletter mails its "Top" collection on Fridays at 07:00 there (12:00 UTC in winter). */
async function setUp() {
  const account = await createTestPublisher(db);
  await db.account.update({ where: { id: account.id }, data: { timeZone: "America/New_York" } });
  const collection = await db.collection.create({ data: { accountId: account.id, slug: "top", name: "Top stories" } });
  const story = await insertStory(db, account.id, { headline: "First", publishedAt: new Date("2026-11-26T10:00:00Z") });
  await db.collectionItem.create({ data: { collectionId: collection.id, position: 0, storyId: story.id } });
  const newsletter = await insertNewsletter(db, account.id, {
    digestCollectionId: collection.id,
    digestSchedule: { days: [5], time: "07:00" },
  });
  const readers = await insertSubscribers(db, { accountId: account.id, newsletterId: newsletter.id, count: 3 });
  return { account, collection, newsletter, readers };
}

const digests = (newsletterId: number) =>
  db.newsletterSend.findMany({ where: { newsletterId, kind: "digest" }, orderBy: { id: "asc" } });

describe("the digest schedule", () => {
  it("is due from its local time for a while, on its days only", () => {
    const schedule = { days: [5], time: "07:00" };
    expect(dueDigest(schedule, "America/New_York", new Date("2026-11-27T11:59:00Z"))).toBeNull();
    expect(dueDigest(schedule, "America/New_York", new Date("2026-11-27T12:00:00Z"))).toEqual({
      day: "2026-11-27",
      at: new Date("2026-11-27T12:00:00Z"),
    });
    expect(dueDigest(schedule, "America/New_York", new Date("2026-11-27T15:00:00Z"))).toBeNull();
    expect(dueDigest(schedule, "America/New_York", new Date("2026-11-26T12:30:00Z"))).toBeNull();
    // Summer time: 07:00 in New York is 11:00 UTC.
    expect(dueDigest({ days: [5], time: "07:00" }, "America/New_York", new Date("2026-07-03T11:10:00Z"))?.at).toEqual(
      new Date("2026-07-03T11:00:00Z"),
    );
  });

  it("makes one send per local day, skips a day without a new story, and the jobs mail it", async () => {
    const { account, collection, newsletter, readers } = await setUp();
    setClock(new Date("2026-11-27T11:55:00Z"));
    expect(await createDueDigests(db, now(), APP_URL)).toBe(0);

    // At 12:05 UTC, through the job engine as the app runs it: the digest job makes the send, the send job mails it.
    setClock(new Date("2026-11-27T12:05:00Z"));
    const mail = recordingTransport();
    await enqueueJob(db, newsletterDigestJob, {}, { now: now() });
    await runJobsNow(db, testJobDeps({ clock: now, mail, appUrl: "https://app.test" }));
    const [first] = await digests(newsletter.id);
    expect(first).toMatchObject({
      dedupeKey: "digest:2026-11-27",
      status: "SENT",
      collectionId: collection.id,
      recipients: 3,
      scheduledAt: new Date("2026-11-27T12:00:00Z"),
    });
    expect(mail.sent.map((m) => m.to).sort()).toEqual(readers.map((r) => r.email).sort());
    expect(mail.sent[0]!.html).toContain("First");

    // Again, and from two instances at once: still one.
    setClock(new Date("2026-11-27T12:20:00Z"));
    const again = await Promise.all([createDueDigests(db, now(), APP_URL), createDueDigests(db, now(), APP_URL)]);
    expect(again).toEqual([0, 0]);
    expect(await digests(newsletter.id)).toHaveLength(1);

    // Next Friday, nothing new in the collection: skipped.
    setClock(new Date("2026-12-04T12:05:00Z"));
    expect(await createDueDigests(db, now(), APP_URL)).toBe(0);

    // A story published since: the Friday after, a digest.
    const fresh = await insertStory(db, account.id, {
      headline: "Second",
      publishedAt: new Date("2026-12-05T09:00:00Z"),
    });
    await db.collectionItem.create({ data: { collectionId: collection.id, position: 1, storyId: fresh.id } });
    setClock(new Date("2026-12-11T12:01:00Z"));
    expect(await createDueDigests(db, now(), APP_URL)).toBe(1);
    expect((await digests(newsletter.id)).map((d) => d.dedupeKey)).toEqual(["digest:2026-11-27", "digest:2026-12-11"]);
  });

  it("is not sent while the site URL is unset: skipped with the reason recorded once, sent once it is set", async () => {
    const { account, newsletter } = await setUp();
    await db.publisherConfig.update({ where: { accountId: account.id }, data: { siteUrl: "" } });
    forgetPublisherCache();
    setClock(new Date("2026-11-27T12:05:00Z"));
    expect(await createDueDigests(db, now(), APP_URL)).toBe(0);
    setClock(new Date("2026-11-27T12:10:00Z"));
    expect(await createDueDigests(db, now(), APP_URL)).toBe(0);
    expect(await digests(newsletter.id)).toEqual([]);
    const skipped = await db.auditLog.findMany({
      where: { accountId: account.id, action: "newsletter.digest_skipped" },
    });
    expect(skipped.map((e) => [e.targetType, e.targetId])).toEqual([["newsletter", String(newsletter.id)]]);
    expect(skipped[0]!.metadata).toMatchObject({ day: "2026-11-27", reason: DIGEST_SITE_URL_UNSET });
    expect(DIGEST_SITE_URL_UNSET).toContain("the site's public URL is not set");

    // Set within the digest's window: that day's digest goes.
    await db.publisherConfig.update({
      where: { accountId: account.id },
      data: { siteUrl: "https://news.example.com" },
    });
    forgetPublisherCache();
    setClock(new Date("2026-11-27T12:15:00Z"));
    expect(await createDueDigests(db, now(), APP_URL)).toBe(1);
  });

  it("a digest of an automated collection sends the stories its rules select at send time", async () => {
    const account = await createTestPublisher(db);
    await db.account.update({ where: { id: account.id }, data: { timeZone: "UTC" } });
    const section = await db.section.create({
      data: { accountId: account.id, slug: "city", name: "City", displayName: "City" },
    });
    const collection = await db.collection.create({
      data: {
        accountId: account.id,
        slug: "city-video",
        name: "City video",
        automated: true,
        rules: { "section-ids": [section.id], "story-templates": ["video"] },
      },
    });
    const at = (iso: string) => new Date(iso);
    await insertStory(db, account.id, {
      headline: "Bridge reopens",
      storyTemplate: "video",
      sectionIds: [section.id],
      publishedAt: at("2026-11-26T10:00:00Z"),
    });
    await insertStory(db, account.id, {
      headline: "Market day",
      storyTemplate: "video",
      sectionIds: [section.id],
      publishedAt: at("2026-11-26T11:00:00Z"),
    });
    // Not selected by the rules: another template; no section; a draft.
    await insertStory(db, account.id, {
      headline: "Op-ed",
      sectionIds: [section.id],
      publishedAt: at("2026-11-26T12:00:00Z"),
    });
    await insertStory(db, account.id, {
      headline: "Elsewhere",
      storyTemplate: "video",
      publishedAt: at("2026-11-26T12:00:00Z"),
    });
    await insertStory(db, account.id, {
      headline: "Unfinished",
      storyTemplate: "video",
      sectionIds: [section.id],
      status: "DRAFT",
    });
    const newsletter = await insertNewsletter(db, account.id, {
      digestCollectionId: collection.id,
      digestSchedule: { days: [5], time: "07:00" },
    });
    const readers = await insertSubscribers(db, { accountId: account.id, newsletterId: newsletter.id, count: 2 });

    setClock(new Date("2026-11-27T07:05:00Z"));
    const mail = recordingTransport();
    await enqueueJob(db, newsletterDigestJob, {}, { now: now() });
    await runJobsNow(db, testJobDeps({ clock: now, mail, appUrl: "https://app.test" }));
    expect(await digests(newsletter.id)).toMatchObject([
      { status: "SENT", collectionId: collection.id, recipients: 2 },
    ]);
    expect(mail.sent.map((m) => m.to).sort()).toEqual(readers.map((r) => r.email).sort());
    const html = mail.sent[0]!.html!;
    // Newest first, as the content API lists the collection.
    expect(html.indexOf("Market day")).toBeGreaterThan(-1);
    expect(html.indexOf("Market day")).toBeLessThan(html.indexOf("Bridge reopens"));
    for (const left of ["Op-ed", "Elsewhere", "Unfinished"]) expect(html).not.toContain(left);

    // A week later, no story the rules select was published since: skipped. One published since: sent.
    await insertStory(db, account.id, {
      headline: "Not video",
      sectionIds: [section.id],
      publishedAt: at("2026-11-30T09:00:00Z"),
    });
    setClock(new Date("2026-12-04T07:05:00Z"));
    expect(await createDueDigests(db, now(), APP_URL)).toBe(0);
    await insertStory(db, account.id, {
      headline: "Tram line",
      storyTemplate: "video",
      sectionIds: [section.id],
      publishedAt: at("2026-12-05T09:00:00Z"),
    });
    setClock(new Date("2026-12-11T07:05:00Z"));
    expect(await createDueDigests(db, now(), APP_URL)).toBe(1);
  });
});
