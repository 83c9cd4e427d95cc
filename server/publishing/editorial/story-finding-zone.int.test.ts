/** The overview's and the stories list's days are the account's (accounts.time_zone), not UTC's. */
import { beforeEach, describe, expect, it } from "vitest";

import { insertMember } from "../../testing/access-fixtures";
import { editorialSetup, testClock } from "../../testing/editorial-fixture";
import { insertStory } from "../../testing/publishing-factories";
import { forgetPublisherCache } from "../publisher";
import { getDailyActivity, getEditorOverview, listStories } from "./story-finding";

beforeEach(() => forgetPublisherCache());

const setup = async (timeZone: string) => {
  const fixture = await editorialSetup(testClock("2026-11-26T12:00:00.000Z"));
  await fixture.db.account.update({ where: { id: fixture.account.id }, data: { timeZone } });
  return fixture;
};

const headlines = (items: { headline: string }[]) => items.map((s) => s.headline).sort();

describe("days on the account's clocks", () => {
  it("counts a story published at 23:30 UTC as published tomorrow in Asia/Tokyo (UTC+9)", async () => {
    const { db, account, actor } = await setup("Asia/Tokyo");
    // 27 Nov in Tokyo runs from 26 Nov 15:00 UTC to 27 Nov 15:00 UTC.
    await insertStory(db, account.id, { headline: "Late UTC", publishedAt: new Date("2026-11-26T23:30:00Z") });
    await insertStory(db, account.id, { headline: "First minute", publishedAt: new Date("2026-11-26T15:00:00Z") });
    await insertStory(db, account.id, {
      headline: "Last minute before",
      publishedAt: new Date("2026-11-26T14:59:59Z"),
    });
    const now = new Date("2026-11-26T23:45:00Z");

    const overview = await getEditorOverview(db, { actor, now });
    expect(overview.today).toBe("2026-11-27");
    expect(overview.publishedToday.total).toBe(2);
    expect(headlines(overview.publishedToday.items)).toEqual(["First minute", "Late UTC"]);

    // The card's link (from = to = today) lists the same stories.
    const listed = await listStories(db, { actor, dateField: "published", from: "2026-11-27", to: "2026-11-27" });
    expect(headlines(listed.items)).toEqual(["First minute", "Late UTC"]);
    const before = await listStories(db, { actor, dateField: "published", from: "2026-11-26", to: "2026-11-26" });
    expect(headlines(before.items)).toEqual(["Last minute before"]);

    const activity = await getDailyActivity(db, { actor, now });
    expect(activity.days.at(-1)).toEqual({ day: "2026-11-27", published: 2, votes: 0 });
    expect(activity.days.at(-2)).toEqual({ day: "2026-11-26", published: 1, votes: 0 });
  });

  it("keeps the UTC day for an account in UTC: the same three stories are all the 26th's", async () => {
    const { db, account, actor } = await setup("UTC");
    await insertStory(db, account.id, { headline: "Late UTC", publishedAt: new Date("2026-11-26T23:30:00Z") });
    await insertStory(db, account.id, { headline: "Afternoon", publishedAt: new Date("2026-11-26T15:00:00Z") });
    await insertStory(db, account.id, { headline: "Yesterday", publishedAt: new Date("2026-11-25T23:59:59Z") });
    const overview = await getEditorOverview(db, { actor, now: new Date("2026-11-26T23:45:00Z") });
    expect(overview.today).toBe("2026-11-26");
    expect(headlines(overview.publishedToday.items)).toEqual(["Afternoon", "Late UTC"]);
  });

  it("counts the account's day west of UTC and across a clock change (America/Los_Angeles)", async () => {
    const { db, account, actor } = await setup("America/Los_Angeles");
    // 1 Nov 2026 is 25 hours long in Los Angeles: 07:00 UTC to 08:00 UTC the next day.
    await insertStory(db, account.id, { headline: "Early", publishedAt: new Date("2026-11-01T07:00:00Z") });
    await insertStory(db, account.id, { headline: "Late", publishedAt: new Date("2026-11-02T07:59:59Z") });
    await insertStory(db, account.id, { headline: "Next day", publishedAt: new Date("2026-11-02T08:00:00Z") });
    await insertStory(db, account.id, { headline: "Day before", publishedAt: new Date("2026-11-01T06:59:59Z") });
    const reader = await insertMember(db, account.id);
    const early = await db.story.findFirstOrThrow({ where: { accountId: account.id, headline: "Early" } });
    await db.storyVote.create({
      data: { storyId: early.id, memberId: reader.id, magnitude: 1, createdAt: new Date("2026-11-02T07:30:00Z") },
    });
    const now = new Date("2026-11-02T07:59:59.999Z");

    const overview = await getEditorOverview(db, { actor, now });
    expect(overview.today).toBe("2026-11-01");
    expect(headlines(overview.publishedToday.items)).toEqual(["Early", "Late"]);

    const activity = await getDailyActivity(db, { actor, now });
    expect(activity.days).toHaveLength(30);
    expect(activity.days.at(-1)).toEqual({ day: "2026-11-01", published: 2, votes: 1 });
    expect(activity.days.at(-2)).toEqual({ day: "2026-10-31", published: 1, votes: 0 });
    expect(activity.totals).toEqual({ published: 3, votes: 1 });
  });
});
