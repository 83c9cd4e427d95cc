/**
 * Editorial stories saved, deleted and listed: a stale version refused with CONFLICT (of two saves
 * at once, one wins); a save makes a new version id and recomputes text and read time, an
 * unchanged card keeps its version, each audit entry names the fields changed, and story-update is
 * emitted for a published story only; drafts only are deleted; each account's stories are its own;
 * the list by status, section and headline words, most recently changed first, with paging.
 */
import { beforeEach, describe, expect, it } from "vitest";

import type { AppError } from "../../errors";
import { appErrorCodeOf as codeOf } from "../../testing/app-errors";
import { EDITORIAL_APP_URL } from "../../testing/editorial-fixture";
import { at, payloadOf, storySetup, subscribeToStoryEvents } from "../../testing/editorial-stories";
import { insertSection, textCards } from "../../testing/publishing-factories";
import { forgetPublisherCache } from "../publisher";
import { deleteStory, transitionStory } from "./stories/moves";
import { getStory } from "./stories/read";
import { createStory, updateStory } from "./stories/write";
import { listStories } from "./story-finding";

const APP_URL = EDITORIAL_APP_URL;

beforeEach(() => forgetPublisherCache());

describe("editorial stories", () => {
  it("refuses a stale version with CONFLICT: two editors saving at once never overwrite each other", async () => {
    const { db, ctx } = await storySetup();
    const { story } = await createStory(db, { ...ctx(), input: { headline: "Shared" } });
    const first = await updateStory(db, { ...ctx(1), input: { id: story.id, version: 1, headline: "First editor" } });
    expect(first.story.version).toBe(2);
    await expect(
      updateStory(db, { ...ctx(2), input: { id: story.id, version: 1, headline: "Second editor" } }),
    ).rejects.toMatchObject({
      code: "CONFLICT",
      details: [{ field: "version" }],
    });
    expect(
      await codeOf(transitionStory(db, { ...ctx(2), input: { id: story.id, version: 1, action: "submit" } })),
    ).toBe("CONFLICT");
    expect(await codeOf(deleteStory(db, { actor: ctx().actor, id: story.id, version: 1, now: at(2) }))).toBe(
      "CONFLICT",
    );
    expect((await getStory(db, { actor: ctx().actor, id: story.id, appUrl: APP_URL })).headline).toBe("First editor");

    // At the same moment: exactly one of two saves of version 2 wins.
    const results = await Promise.allSettled([
      updateStory(db, { ...ctx(3), input: { id: story.id, version: 2, headline: "A" } }),
      updateStory(db, { ...ctx(3), input: { id: story.id, version: 2, headline: "B" } }),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const loser = results.find((r) => r.status === "rejected");
    expect((loser!.reason as AppError).code).toBe("CONFLICT");
    const row = await db.story.findUniqueOrThrow({ where: { id: story.id } });
    expect(row.version).toBe(3);
  });

  it("saves: new version id, recomputed text and read time; story-update only for a published story", async () => {
    const { db, account, ctx } = await storySetup();
    await subscribeToStoryEvents(account.id);
    const { story } = await createStory(db, { ...ctx(), input: { headline: "Saved", cards: textCards("one two") } });
    const long = Array.from({ length: 1000 }, (_, i) => `word${i}`).join(" ");
    const saved = await updateStory(db, {
      ...ctx(1),
      input: { id: story.id, version: 1, cards: textCards(long), seo: { metaTitle: "T", metaKeywords: ["a", "b"] } },
    });
    expect(saved).toMatchObject({ event: null, notified: 0 });
    expect(saved.story.readTime).toBe(5);
    expect(saved.story.storyVersionId).not.toBe(story.storyVersionId);
    expect(saved.story.seo).toEqual({ metaTitle: "T", metaDescription: null, metaKeywords: ["a", "b"] });
    expect(saved.story.headline).toBe("Saved");
    expect(await db.webhookEvent.count()).toBe(0);
    // The card's content did not change on the next save: it keeps its version and times.
    const resaved = await updateStory(db, {
      ...ctx(2),
      input: { id: story.id, version: 2, cards: saved.story.cards, summary: "Short" },
    });
    expect(resaved.story.cards[0]).toMatchObject({
      version: saved.story.cards[0]!.version,
      "card-updated-at": at(1).getTime(),
    });

    let v = resaved.story.version;
    for (const action of ["submit", "approve", "publish"] as const)
      v = (await transitionStory(db, { ...ctx(3), input: { id: story.id, version: v, action } })).story.version;
    const beforeEdit = await db.webhookDelivery.count();
    const edit = await updateStory(db, {
      ...ctx(10),
      input: { id: story.id, version: v, headline: "Saved, corrected" },
    });
    expect(edit.event).toBe("story-update");
    expect(edit.notified).toBe(1);
    expect(await db.webhookDelivery.count()).toBe(beforeEdit + 1);
    // Each save's audit entry names the fields it changed, and only those: the cards sent back
    // unchanged with a new summary are not a change of the cards.
    const audits = await db.auditLog.findMany({
      where: { action: "story.update", targetId: story.id },
      orderBy: { createdAt: "asc" },
    });
    expect(audits.map((a) => (a.metadata as { fields: string[] }).fields)).toEqual([
      ["cards", "seo"],
      ["summary"],
      ["headline"],
    ]);
    expect(edit.story).toMatchObject({
      status: "PUBLISHED",
      publishedAt: at(3),
      lastPublishedAt: at(10),
      headline: "Saved, corrected",
    });
    const last = await db.webhookEvent.findFirstOrThrow({ orderBy: { id: "desc" } });
    expect(last.name).toBe("story-update");
    expect(payloadOf(last)).toMatchObject({
      "previous-status": "published",
      status: "published",
      story: { headline: "Saved, corrected" },
    });
  });

  it("deletes drafts only, and keeps every account's stories to itself", async () => {
    const { db, ctx } = await storySetup();
    const other = await storySetup();
    const { story } = await createStory(db, { ...ctx(), input: { headline: "Mine" } });
    expect(await codeOf(getStory(db, { actor: other.actor, id: story.id, appUrl: APP_URL }))).toBe("NOT_FOUND");
    expect(
      await codeOf(updateStory(db, { ...other.ctx(), input: { id: story.id, version: 1, headline: "Theirs" } })),
    ).toBe("NOT_FOUND");
    expect(
      await codeOf(transitionStory(db, { ...other.ctx(), input: { id: story.id, version: 1, action: "submit" } })),
    ).toBe("NOT_FOUND");
    expect(await codeOf(deleteStory(db, { actor: other.actor, id: story.id, version: 1, now: at(1) }))).toBe(
      "NOT_FOUND",
    );
    expect((await listStories(db, { actor: other.actor })).total).toBe(0);

    await transitionStory(db, { ...ctx(1), input: { id: story.id, version: 1, action: "submit" } });
    expect(await codeOf(deleteStory(db, { actor: ctx().actor, id: story.id, version: 2, now: at(2) }))).toBe(
      "UNPROCESSABLE",
    );
    await transitionStory(db, { ...ctx(2), input: { id: story.id, version: 2, action: "reject" } });
    await deleteStory(db, { actor: ctx().actor, id: story.id, version: 3, now: at(3) });
    expect(await db.story.count()).toBe(0);
    expect(await db.auditLog.count({ where: { action: "story.delete", targetId: story.id } })).toBe(1);
  });

  it("lists by status, section and headline words, most recently changed first, with paging", async () => {
    const { db, account, ctx } = await storySetup();
    const sport = await insertSection(db, account.id, { name: "Sport", slug: "sport" });
    const a = await createStory(db, { ...ctx(1), input: { headline: "Cup final tonight", sectionIds: [sport.id] } });
    await createStory(db, { ...ctx(2), input: { headline: "Budget vote" } });
    const c = await createStory(db, { ...ctx(3), input: { headline: "Final budget figures" } });
    await transitionStory(db, { ...ctx(4), input: { id: c.story.id, version: 1, action: "submit" } });

    const all = await listStories(db, { actor: ctx().actor });
    expect(all.total).toBe(3);
    expect(all.items.map((s) => s.headline)).toEqual(["Final budget figures", "Budget vote", "Cup final tonight"]);
    expect((await listStories(db, { actor: ctx().actor, status: "SUBMITTED" })).items.map((s) => s.id)).toEqual([
      c.story.id,
    ]);
    expect((await listStories(db, { actor: ctx().actor, sectionId: sport.id })).items).toMatchObject([
      { id: a.story.id, section: "Sport" },
    ]);
    expect((await listStories(db, { actor: ctx().actor, search: "FINAL" })).total).toBe(2);
    expect((await listStories(db, { actor: ctx().actor, search: "final budget" })).items.map((s) => s.id)).toEqual([
      c.story.id,
    ]);
    const page = await listStories(db, { actor: ctx().actor, limit: 2, offset: 2 });
    expect(page).toMatchObject({ total: 3, offset: 2, limit: 2 });
    expect(page.items.map((s) => s.id)).toEqual([a.story.id]);
  });
});
