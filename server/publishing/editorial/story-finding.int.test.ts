import { randomUUID } from "node:crypto";

import { beforeEach, describe, expect, it } from "vitest";

import { getDb } from "../../db";
import { insertMember } from "../../testing/access-fixtures";
import { EDITORIAL_APP_URL, editorialSetup, testClock } from "../../testing/editorial-fixture";
import {
  createTestPublisher,
  insertAuthor,
  insertSection,
  insertStory,
  insertTag,
  textCards,
} from "../../testing/publishing-factories";
import { createTestStaff, insertEditor, trpcCodeOf } from "../../testing/staff";
import { forgetPublisherCache } from "../publisher";
import { createCollection } from "./collections/write";
import { transitionStory } from "./stories/moves";
import { createStory } from "./stories/write";
import { bulkStories, getDailyActivity, getEditorOverview, listStories } from "./story-finding";
import { summarizeBulk } from "./story-finding.schema";

const APP_URL = EDITORIAL_APP_URL;
const at = testClock("2026-03-10T10:00:00.000Z");

beforeEach(() => forgetPublisherCache());

const setup = () => editorialSetup(at);

/** Move a story along the workflow, one action after another. */
async function move(
  ctx: ReturnType<Awaited<ReturnType<typeof setup>>["ctx"]>,
  story: { id: string; version: number },
  ...actions: ("submit" | "approve" | "publish")[]
) {
  let version = story.version;
  for (const action of actions) {
    version = (await transitionStory(await getDb(), { ...ctx, input: { id: story.id, version, action } })).story
      .version;
  }
}

describe("finding stories", () => {
  it("searches headline, subheadline and text (last word as a prefix), and headlines for short queries", async () => {
    const { db, ctx } = await setup();
    const tram = await createStory(db, {
      ...ctx(1),
      input: { headline: "City news", cards: textCards("The tramway opened on Monday morning.") },
    });
    const sub = await createStory(db, {
      ...ctx(2),
      input: { headline: "Weather", subheadline: "Tramway closed by snow" },
    });
    const eu = await createStory(db, { ...ctx(3), input: { headline: "EU summit: what's at stake" } });
    await createStory(db, { ...ctx(4), input: { headline: "Other story", cards: textCards("Nothing here.") } });
    const meals = await createStory(db, {
      ...ctx(5),
      input: { headline: "Food", cards: textCards("Readymade meals sell well.") },
    });

    const search = async (q: string) =>
      (await listStories(db, { actor: ctx().actor, search: q })).items.map((s) => s.id);
    // Headline (A) ranks above subheadline (B) above text (C).
    expect(await search("tramway")).toEqual([sub.story.id, tram.story.id]);
    expect(await search("tramw")).toEqual([sub.story.id, tram.story.id]);
    expect(await search("monday tram")).toEqual([tram.story.id]);
    // A prefix that stems to something else ("readi") still finds the word it begins.
    expect(await search("ready")).toEqual([meals.story.id]);
    expect(await search("readymade meal")).toEqual([meals.story.id]);
    expect(await search("EU")).toEqual([eu.story.id]);
    // Stop words only: not in the index, found through the headline.
    expect(await search("what's at")).toEqual([eu.story.id]);
    expect(await search("tsquery ) | ! syntax")).toEqual([]);
    expect(await search("100%")).toEqual([]);
  });

  it("filters by status, section, author, tag, own stories, scheduled and a date range; sorts; pages", async () => {
    const { db, account, actor, ctx } = await setup();
    const sport = await insertSection(db, account.id, { name: "Sport", slug: "sport" });
    const ann = await insertAuthor(db, account.id, { name: "Ann" });
    const rail = await insertTag(db, account.id, { name: "Rail", slug: "rail" });
    const other = await insertEditor(db, account.id, { name: "Other" });
    const a = await createStory(db, { ...ctx(1), input: { headline: "Bravo", sectionIds: [sport.id] } });
    const b = await createStory(db, { ...ctx(2), input: { headline: "alpha", authorIds: [ann.id] } });
    const c = await createStory(db, {
      actor: other,
      now: at(3),
      appUrl: APP_URL,
      input: { headline: "Charlie", tags: [{ id: rail.id }] },
    });
    await move(ctx(60 * 24), b.story, "submit", "approve", "publish"); // published (and updated) a day later
    const page = (input: Parameters<typeof listStories>[1]) => listStories(db, input);
    const ids = async (input: Omit<Parameters<typeof listStories>[1], "actor">) =>
      (await page({ actor, ...input })).items.map((s) => s.id);

    expect(await ids({ status: "PUBLISHED" })).toEqual([b.story.id]);
    expect(await ids({ sectionId: sport.id })).toEqual([a.story.id]);
    expect(await ids({ authorId: ann.id })).toEqual([b.story.id]);
    expect(await ids({ tagId: rail.id })).toEqual([c.story.id]);
    expect(await ids({ mine: true })).toEqual([b.story.id, a.story.id]);
    expect(await ids({ dateField: "published", from: "2026-03-11", to: "2026-03-11" })).toEqual([b.story.id]);
    expect(await ids({ dateField: "updated", from: "2026-03-10", to: "2026-03-10" })).toEqual([c.story.id, a.story.id]);
    expect(await ids({ dateField: "published", to: "2026-03-10" })).toEqual([]);
    expect(await ids({ sort: "headline" })).toEqual([b.story.id, a.story.id, c.story.id]);
    expect(await ids({ sort: "updated-asc" })).toEqual([a.story.id, c.story.id, b.story.id]);
    expect(await ids({ sort: "published-desc" })).toEqual([b.story.id, c.story.id, a.story.id]);
    expect(await page({ actor, sort: "headline", limit: 2, offset: 2 })).toMatchObject({
      total: 3,
      items: [{ id: c.story.id, headline: "Charlie" }],
    });
    expect(await ids({ scheduled: true })).toEqual([]);

    // Another account sees none of them, whatever it asks.
    const stranger = await insertEditor(db, (await createTestPublisher(db)).id);
    expect(await listStories(db, { actor: stranger, search: "alpha" })).toMatchObject({ total: 0, items: [] });
    expect((await listStories(db, { actor: stranger, sectionId: sport.id })).total).toBe(0);
  });
});

describe("bulk actions", () => {
  it("publishes what can be, refuses the rest with the reason, and leaves other accounts' stories alone", async () => {
    const { db, account, ctx } = await setup();
    const ready1 = await createStory(db, { ...ctx(1), input: { headline: "Ready one" } });
    const ready2 = await createStory(db, { ...ctx(2), input: { headline: "Ready two" } });
    const draft = await createStory(db, { ...ctx(3), input: { headline: "Just a draft" } });
    await move(ctx(4), ready1.story, "submit", "approve");
    await move(ctx(5), ready2.story, "submit", "approve");
    const theirs = await insertStory(db, (await createTestPublisher(db)).id, { status: "APPROVED" });
    const nobody = randomUUID();
    await db.webhookEndpoint.create({
      data: {
        accountId: account.id,
        kind: "CONTENT",
        url: "http://127.0.0.1:9/hook",
        events: ["story-publish", "story-retract"],
        secret: "whsec_test",
      },
    });

    const result = await bulkStories(db, {
      ...ctx(10),
      input: { action: "publish", ids: [ready1.story.id, draft.story.id, theirs.id, ready2.story.id, nobody] },
    });
    expect(result.results).toEqual([
      { id: ready1.story.id, headline: "Ready one", ok: true, reason: null },
      { id: draft.story.id, headline: "Just a draft", ok: false, reason: "not approved (draft)" },
      { id: theirs.id, headline: null, ok: false, reason: "no such story" },
      { id: ready2.story.id, headline: "Ready two", ok: true, reason: null },
      { id: nobody, headline: null, ok: false, reason: "no such story" },
    ]);
    expect(summarizeBulk(result)).toBe("2 published, 3 refused: no such story (2); not approved (draft) (1)");
    const statuses = await db.story.findMany({ where: { accountId: account.id }, select: { id: true, status: true } });
    expect(new Map(statuses.map((s) => [s.id, s.status]))).toEqual(
      new Map([
        [ready1.story.id, "PUBLISHED"],
        [ready2.story.id, "PUBLISHED"],
        [draft.story.id, "DRAFT"],
      ]),
    );
    expect((await db.story.findUniqueOrThrow({ where: { id: theirs.id } })).status).toBe("APPROVED");
    // Each move audited as the single-story move is.
    expect(await db.auditLog.count({ where: { accountId: account.id, action: "story.publish" } })).toBe(2);
    // …and sends its webhook event, one per story moved.
    const events = await db.webhookEvent.findMany({ where: { accountId: account.id, name: "story-publish" } });
    expect(events.map((e) => (e.payload as { story: { id: string } }).story.id).sort()).toEqual(
      [ready1.story.id, ready2.story.id].sort(),
    );

    // Retract, then delete: only drafts go.
    const retract = await bulkStories(db, { ...ctx(11), input: { action: "retract", ids: [ready1.story.id] } });
    expect(retract.results[0]).toMatchObject({ ok: true });
    const del = await bulkStories(db, {
      ...ctx(12),
      input: { action: "delete", ids: [draft.story.id, ready2.story.id, theirs.id] },
    });
    expect(del.results.map((r) => [r.ok, r.reason])).toEqual([
      [true, null],
      [false, "not a draft (published)"],
      [false, "no such story"],
    ]);
    expect(await db.story.count({ where: { id: draft.story.id } })).toBe(0);
    expect(await db.story.count({ where: { id: theirs.id } })).toBe(1);

    // Submit: only drafts.
    const fresh = await createStory(db, { ...ctx(13), input: { headline: "Fresh" } });
    const submit = await bulkStories(db, {
      ...ctx(14),
      input: { action: "submit", ids: [fresh.story.id, ready1.story.id] },
    });
    expect(submit.results.map((r) => r.reason)).toEqual([null, "not a draft (retracted)"]);
  });

  it("adds stories to the end of a manual collection once, and refuses another account's collection", async () => {
    const { db, ctx, actor } = await setup();
    const one = await createStory(db, { ...ctx(1), input: { headline: "One" } });
    const two = await createStory(db, { ...ctx(2), input: { headline: "Two" } });
    const { collection } = await createCollection(db, { actor, now: at(3), input: { name: "Front page" } });
    const first = await bulkStories(db, {
      ...ctx(4),
      input: { action: "add-to-collection", collectionId: collection.id, ids: [one.story.id] },
    });
    expect(first.results).toMatchObject([{ ok: true }]);
    const theirs = await insertStory(db, (await createTestPublisher(db)).id);
    const second = await bulkStories(db, {
      ...ctx(5),
      input: { action: "add-to-collection", collectionId: collection.id, ids: [two.story.id, one.story.id, theirs.id] },
    });
    expect(second.results.map((r) => [r.ok, r.reason])).toEqual([
      [true, null],
      [false, "already in the collection"],
      [false, "no such story"],
    ]);
    const items = await db.collectionItem.findMany({
      where: { collectionId: collection.id },
      orderBy: { position: "asc" },
    });
    expect(items.map((i) => i.storyId)).toEqual([one.story.id, two.story.id]);

    const stranger = await insertEditor(db, (await createTestPublisher(db)).id);
    await expect(
      bulkStories(db, {
        actor: stranger,
        now: at(6),
        appUrl: APP_URL,
        input: { action: "add-to-collection", collectionId: collection.id, ids: [theirs.id] },
      }),
    ).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect(await db.collectionItem.count({ where: { collectionId: collection.id } })).toBe(2);
  });

  it("is for editors: a moderator is FORBIDDEN and nothing changes; bad input is BAD_REQUEST", async () => {
    const db = await getDb();
    const account = await createTestPublisher(db);
    const { caller: editor } = await createTestStaff(db, { account: account.id, roles: ["EDITOR"] });
    const { caller: moderator } = await createTestStaff(db, { account: account.id, roles: ["MODERATOR"] });
    const { story } = await editor.stories.create({ headline: "Keep me" });
    expect(await trpcCodeOf(moderator.stories.bulk({ action: "delete", ids: [story.id] }))).toBe("FORBIDDEN");
    expect(await trpcCodeOf(moderator.stories.overview())).toBe("FORBIDDEN");
    expect(await db.story.count({ where: { id: story.id } })).toBe(1);
    expect(await trpcCodeOf(editor.stories.bulk({ action: "delete", ids: [] }))).toBe("BAD_REQUEST");
    expect(await trpcCodeOf(editor.stories.bulk({ action: "add-to-collection", ids: [story.id] }))).toBe("BAD_REQUEST");
    const done = await editor.stories.bulk({ action: "delete", ids: [story.id] });
    expect(done.results).toEqual([{ id: story.id, headline: "Keep me", ok: true, reason: null }]);
  });
});

describe("the overview", () => {
  it("shows awaiting approval, scheduled, published today (UTC) and the editor's own drafts", async () => {
    const { db, account, actor, ctx } = await setup();
    const waiting = await createStory(db, { ...ctx(1), input: { headline: "Waiting" } });
    await move(ctx(2), waiting.story, "submit");
    const mine = await createStory(db, { ...ctx(3), input: { headline: "My draft" } });
    const colleague = await insertEditor(db, account.id, { name: "Colleague" });
    await createStory(db, { actor: colleague, now: at(3), appUrl: APP_URL, input: { headline: "Their draft" } });
    const today = await insertStory(db, account.id, { headline: "Out today", publishedAt: at(-60) });
    await insertStory(db, account.id, { headline: "Out yesterday", publishedAt: at(-60 * 24) });
    const approved = await createStory(db, { ...ctx(4), input: { headline: "Later" } });
    await move(ctx(5), approved.story, "submit", "approve");
    await db.story.update({ where: { id: approved.story.id }, data: { publishAt: at(120) } });
    await insertStory(db, (await createTestPublisher(db)).id, { status: "SUBMITTED", headline: "Not ours" });

    const overview = await getEditorOverview(db, { actor, now: at(10) });
    expect(overview.today).toBe("2026-03-10");
    expect(overview.awaitingApproval).toEqual({
      total: 1,
      items: [{ id: waiting.story.id, headline: "Waiting", at: at(2) }],
    });
    expect(overview.scheduled).toEqual({
      total: 1,
      items: [{ id: approved.story.id, headline: "Later", at: at(120) }],
    });
    expect(overview.publishedToday).toMatchObject({ total: 1, items: [{ id: today.id, headline: "Out today" }] });
    expect(overview.myDrafts).toEqual({ total: 1, items: [{ id: mine.story.id, headline: "My draft", at: at(3) }] });
  });

  it("counts stories first published and votes per UTC day over 30 days, zero-filled, for this account only", async () => {
    const { db, account, actor } = await setup();
    const now = new Date("2026-03-10T12:00:00Z");
    const s1 = await insertStory(db, account.id, { publishedAt: new Date("2026-03-10T00:00:00Z") });
    await insertStory(db, account.id, { publishedAt: new Date("2026-03-09T23:59:59Z") });
    await insertStory(db, account.id, { publishedAt: new Date("2026-02-08T23:59:59Z") }); // 31 days ago: out
    await insertStory(db, account.id, { publishedAt: new Date("2026-02-09T00:00:00Z") }); // first day: in
    const reader1 = await insertMember(db, account.id);
    const reader2 = await insertMember(db, account.id);
    await db.storyVote.create({
      data: { storyId: s1.id, memberId: reader1.id, magnitude: 1, createdAt: new Date("2026-03-10T01:00:00Z") },
    });
    await db.storyVote.create({
      data: { storyId: s1.id, memberId: reader2.id, magnitude: -1, createdAt: new Date("2026-03-01T08:00:00Z") },
    });
    const elsewhere = await createTestPublisher(db);
    const theirs = await insertStory(db, elsewhere.id, { publishedAt: new Date("2026-03-10T01:00:00Z") });
    const theirReader = await insertMember(db, elsewhere.id);
    await db.storyVote.create({
      data: { storyId: theirs.id, memberId: theirReader.id, magnitude: 1, createdAt: new Date("2026-03-10T02:00:00Z") },
    });

    const activity = await getDailyActivity(db, { actor, now });
    expect(activity.days).toHaveLength(30);
    expect(activity.days[0]).toEqual({ day: "2026-02-09", published: 1, votes: 0 });
    expect(activity.days.at(-1)).toEqual({ day: "2026-03-10", published: 1, votes: 1 });
    expect(activity.days.find((d) => d.day === "2026-03-09")).toEqual({ day: "2026-03-09", published: 1, votes: 0 });
    expect(activity.days.find((d) => d.day === "2026-03-01")).toEqual({ day: "2026-03-01", published: 0, votes: 1 });
    expect(activity.days.filter((d) => d.published === 0 && d.votes === 0)).toHaveLength(26);
    expect(activity.totals).toEqual({ published: 3, votes: 2 });
  });
});
