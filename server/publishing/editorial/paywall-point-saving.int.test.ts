/**
 * The paywall point saved from the story editor: `paywallAt` goes through the story's save like any
 * field (a new version, a revision, an audit entry naming it, story-update for a published story);
 * a point past the story's elements (with the cards sent or without) or below 0 is a 400 that
 * saves nothing; null goes back to the account's default, which the editor's options carry; a
 * restore brings back the revision's point; the preview shows both sides.
 */
import { randomUUID } from "node:crypto";

import { beforeEach, describe, expect, it } from "vitest";

import { EDITORIAL_APP_URL } from "../../testing/editorial-fixture";
import { at, storySetup, subscribeToStoryEvents } from "../../testing/editorial-stories";
import { textCards } from "../../testing/publishing-factories";
import type { TCard } from "../cards.schema";
import { forgetPublisherCache } from "../publisher";
import { renderPreview } from "./preview";
import { signPreviewToken } from "./preview-token";
import { listRevisions } from "./revisions";
import { transitionStory } from "./stories/moves";
import { getStory, listStoryFormOptions } from "./stories/read";
import { createStory, restoreRevision, updateStory } from "./stories/write";

beforeEach(() => forgetPublisherCache());

/** Two cards: "one", "two" in the first, "three" in the second. */
function twoCards(): TCard[] {
  const [first] = textCards("one", "two");
  const [second] = textCards("three");
  return [first!, { ...second!, id: randomUUID() }];
}

describe("the paywall point in the story editor's save", () => {
  it("saves a point within the story's elements like any edit: version, revision, audit, story-update", async () => {
    const { db, account, ctx } = await storySetup();
    await subscribeToStoryEvents(account.id);
    const { story } = await createStory(db, {
      ...ctx(),
      input: { headline: "Closed", access: "subscription", cards: twoCards() },
    });
    expect(story.paywallAt).toBeNull();
    const saved = await updateStory(db, { ...ctx(1), input: { id: story.id, version: 1, paywallAt: 2 } });
    expect(saved.story).toMatchObject({ paywallAt: 2, version: 2 });
    // With the cards in the same save: up to all of them (3), and 0 (nothing free).
    const all = await updateStory(db, {
      ...ctx(2),
      input: { id: story.id, version: 2, cards: saved.story.cards, paywallAt: 3 },
    });
    expect(all.story.paywallAt).toBe(3);
    const none = await updateStory(db, { ...ctx(3), input: { id: story.id, version: 3, paywallAt: 0 } });
    expect(none.story.paywallAt).toBe(0);

    let v = none.story.version;
    for (const action of ["submit", "approve", "publish"] as const)
      v = (await transitionStory(db, { ...ctx(4), input: { id: story.id, version: v, action } })).story.version;
    const live = await updateStory(db, { ...ctx(5), input: { id: story.id, version: v, paywallAt: 1 } });
    expect(live).toMatchObject({ event: "story-update", notified: 1 });

    const audits = await db.auditLog.findMany({
      where: { action: "story.update", targetId: story.id },
      orderBy: { createdAt: "asc" },
    });
    expect(audits.map((a) => (a.metadata as { fields: string[] }).fields)).toEqual([
      ["paywallAt"],
      ["paywallAt"],
      ["paywallAt"],
      ["paywallAt"],
    ]);
    const revisions = await listRevisions(db, { actor: ctx().actor, storyId: story.id });
    expect(revisions.total).toBe(5);

    // Restoring the revision of version 2 brings its point back; null means the account's default again.
    const second = revisions.items.find((r) => r.version === 2)!;
    const restored = await restoreRevision(db, {
      ...ctx(6),
      input: { storyId: story.id, revisionId: second.id, version: live.story.version },
    });
    expect(restored.story.paywallAt).toBe(2);
    const cleared = await updateStory(db, {
      ...ctx(7),
      input: { id: story.id, version: restored.story.version, paywallAt: null },
    });
    expect(cleared.story.paywallAt).toBeNull();
  });

  it("refuses a point past the elements or below 0 with a 400 that names it, and saves nothing", async () => {
    const { db, ctx } = await storySetup();
    const { story } = await createStory(db, {
      ...ctx(),
      input: { headline: "Closed", access: "subscription", cards: twoCards() },
    });
    const refusals = [
      // Without the cards: counted against the story's three elements.
      { id: story.id, version: 1, paywallAt: 4, headline: "Changed" },
      // With the cards: counted against those (one element here).
      { id: story.id, version: 1, paywallAt: 2, cards: textCards("only") },
      { id: story.id, version: 1, paywallAt: -1 },
      { id: story.id, version: 1, paywallAt: 1.5 },
    ];
    for (const input of refusals) {
      await expect(updateStory(db, { ...ctx(1), input })).rejects.toMatchObject({
        code: "BAD_REQUEST",
        details: [expect.objectContaining({ field: "paywallAt" })],
      });
    }
    await expect(
      updateStory(db, { ...ctx(1), input: { id: story.id, version: 1, paywallAt: 4 } }),
    ).rejects.toMatchObject({
      details: [{ field: "paywallAt", issue: "is after element 4, but the story has 3 elements: use 0 to 3" }],
    });
    await expect(
      createStory(db, { ...ctx(1), input: { headline: "New", cards: textCards("a"), paywallAt: 2 } }),
    ).rejects.toMatchObject({ code: "BAD_REQUEST" });
    const row = await db.story.findUniqueOrThrow({ where: { id: story.id } });
    expect(row).toMatchObject({ version: 1, paywallAt: null, headline: "Closed" });
    expect(await db.auditLog.count({ where: { action: "story.update", targetId: story.id } })).toBe(0);
    expect(await db.story.count({ where: { accountId: row.accountId, headline: "New" } })).toBe(0);
  });

  it("gives the editor the account's default, and previews both sides of the point", async () => {
    const { db, account, ctx } = await storySetup();
    await db.account.update({ where: { id: account.id }, data: { paywallDefaultElements: 2 } });
    const options = await listStoryFormOptions(db, { actor: ctx().actor, appUrl: EDITORIAL_APP_URL });
    expect(options.paywallDefaultElements).toBe(2);
    const { story } = await createStory(db, {
      ...ctx(),
      input: { headline: "Closed", access: "subscription", cards: twoCards() },
    });
    const token = signPreviewToken(story.id, at(60 * 24));
    const view = async (as?: "reader" | "subscriber") =>
      (await renderPreview(db, { token, format: "article", now: at(1), appUrl: EDITORIAL_APP_URL, as })).html;

    // The account's default (2): the reader sees "one" and "two", then where the rest is.
    const reader = await view("reader");
    expect(reader).toContain("<p>one</p>");
    expect(reader).toContain("<p>two</p>");
    expect(reader).not.toContain("<p>three</p>");
    expect(reader).toContain("The rest of this story is for subscribers");
    expect(reader).toContain("2 of 3 elements free (the account&#39;s default, 2)");
    const subscriber = await view();
    expect(subscriber).toMatch(/<p>two<\/p>[\s\S]*data-testid="paywall-line"[\s\S]*<p>three<\/p>/);
    expect(subscriber).toContain(`href="?as=subscriber" aria-current="page"`);

    // The story's own point (1) wins over the default.
    await updateStory(db, { ...ctx(1), input: { id: story.id, version: 1, paywallAt: 1 } });
    const own = await view("reader");
    expect(own).toContain("<p>one</p>");
    expect(own).not.toContain("<p>two</p>");
    // A public story: all of it, no switch.
    await updateStory(db, { ...ctx(2), input: { id: story.id, version: 2, access: "public" } });
    const open = await view("reader");
    expect(open).toContain("<p>three</p>");
    expect(open).not.toContain("preview-as-reader");
    expect((await getStory(db, { actor: ctx().actor, id: story.id, appUrl: EDITORIAL_APP_URL })).paywallAt).toBe(1);
  });
});
