import { describe, expect, it } from "vitest";

import { appErrorCodeOf as codeOf } from "../../testing/app-errors";
import { editorialSetup, testClock } from "../../testing/editorial-fixture";
import {
  createTestPublisher,
  insertAuthor,
  insertSection,
  insertTag,
  textCards,
} from "../../testing/publishing-factories";
import { createTestStaff, insertEditor, trpcCodeOf } from "../../testing/staff";
import { STORY_INCLUDE, storyToWire } from "../story-view";
import { getRevision, listRevisions } from "./revisions";
import { transitionStory } from "./stories/moves";
import { createStory, restoreRevision, updateStory } from "./stories/write";

const at = testClock("2026-03-01T10:00:00.000Z");

async function setup() {
  const { editors, ...rest } = await editorialSetup(at, [{ name: "Ada" }, { name: "Bob" }]);
  return { ...rest, other: editors[1]! };
}

// eslint-disable-next-line max-lines-per-function -- a describe block of short cases that share its setup
describe("story revisions", () => {
  it("writes one revision per save with the saved snapshot, newest first, paged, named by editor", async () => {
    const { db, account, actor, ctx } = await setup();
    const section = await insertSection(db, account.id, { name: "Politics", slug: "politics" });
    const created = await createStory(db, {
      ...ctx(),
      input: { headline: "First", cards: textCards("One"), sectionIds: [section.id] },
    });
    const id = created.story.id;
    const saved = await updateStory(db, {
      ...ctx(1),
      input: { id, version: 1, headline: "Second", summary: "A summary" },
    });
    expect(saved.story.version).toBe(2);
    const page = await listRevisions(db, { actor, storyId: id });
    expect(page.total).toBe(2);
    expect(page.items.map((r) => [r.version, r.kind, r.headline, r.savedBy])).toEqual([
      [2, "save", "Second", "Ada"],
      [1, "save", "First", "Ada"],
    ]);
    const second = await listRevisions(db, { actor, storyId: id, offset: 1, limit: 1 });
    expect(second.items.map((r) => r.version)).toEqual([1]);

    const latest = await getRevision(db, { actor, storyId: id, revisionId: page.items[0]!.id });
    expect(latest.snapshot).toMatchObject({
      headline: "Second",
      summary: "A summary",
      sections: [{ id: section.id, name: "Politics" }],
      slug: "first",
    });
    // The snapshot is the story as saved: its cards are the stored (sanitised, versioned) ones.
    const story = await db.story.findUniqueOrThrow({ where: { id } });
    expect(latest.snapshot.cards).toEqual(story.cards);
    // With the save before it, to show what this save changed; the first save has none.
    expect(latest.previous).toMatchObject({ version: 1, snapshot: { headline: "First", summary: null } });
    const first = await getRevision(db, { actor, storyId: id, revisionId: page.items[1]!.id });
    expect(first.previous).toBeNull();
  });

  it("coalesces one editor's consecutive autosaves within ten minutes; a save, another editor or time starts a new one", async () => {
    const { db, actor, other, ctx } = await setup();
    const { story } = await createStory(db, { ...ctx(), input: { headline: "Draft" } });
    const id = story.id;
    let version = story.version;
    const autosave = async (minutes: number, headline: string, who = actor) => {
      const out = await updateStory(db, {
        ...ctx(minutes, who),
        input: { id, version, headline, saveKind: "autosave" },
      });
      version = out.story.version;
    };
    await autosave(1, "Draft a");
    await autosave(2, "Draft ab");
    await autosave(5, "Draft abc");
    let page = await listRevisions(db, { actor, storyId: id });
    expect(page.items.map((r) => [r.version, r.kind, r.headline])).toEqual([
      [4, "autosave", "Draft abc"],
      [1, "save", "Draft"],
    ]);
    await autosave(12, "Draft abcd"); // 11 minutes after the coalesced revision began: a new one
    await autosave(13, "Bob's turn", other); // another editor: a new one
    await autosave(14, "Ada again"); // Bob's is the latest: a new one
    await updateStory(db, { ...ctx(15), input: { id, version, headline: "Saved by hand" } });
    page = await listRevisions(db, { actor, storyId: id });
    expect(page.items.map((r) => [r.version, r.kind, r.headline, r.savedBy])).toEqual([
      [8, "save", "Saved by hand", "Ada"],
      [7, "autosave", "Ada again", "Ada"],
      [6, "autosave", "Bob's turn", "Bob"],
      [5, "autosave", "Draft abcd", "Ada"],
      [4, "autosave", "Draft abc", "Ada"],
      [1, "save", "Draft", "Ada"],
    ]);
  });

  it("refuses autosave of a story that is not a draft, and a stale version, changing nothing", async () => {
    const { db, actor, ctx } = await setup();
    const { story } = await createStory(db, { ...ctx(), input: { headline: "Going up" } });
    const submitted = await transitionStory(db, { ...ctx(1), input: { id: story.id, version: 1, action: "submit" } });
    expect(
      await codeOf(
        updateStory(db, {
          ...ctx(2),
          input: { id: story.id, version: submitted.story.version, headline: "Sneaky", saveKind: "autosave" },
        }),
      ),
    ).toBe("UNPROCESSABLE");
    expect(await codeOf(updateStory(db, { ...ctx(2), input: { id: story.id, version: 1, headline: "Stale" } }))).toBe(
      "CONFLICT",
    );
    const after = await db.story.findUniqueOrThrow({ where: { id: story.id } });
    expect(after).toMatchObject({ headline: "Going up", version: submitted.story.version });
    expect((await listRevisions(db, { actor, storyId: story.id })).total).toBe(1);
  });

  it("two editors: the second's stale save is refused and both texts stay in the history once they save on top", async () => {
    const { db, actor, other, ctx } = await setup();
    const { story } = await createStory(db, {
      ...ctx(),
      input: { headline: "Shared", cards: textCards("Base") },
    });
    const id = story.id;
    const ada = await updateStory(db, {
      ...ctx(1),
      input: { id, version: 1, cards: textCards("Ada's text"), saveKind: "autosave" },
    });
    // Bob loaded version 1 too: his save is refused.
    const bobCards = textCards("Bob's text");
    expect(await codeOf(updateStory(db, { ...ctx(2, other), input: { id, version: 1, cards: bobCards } }))).toBe(
      "CONFLICT",
    );
    // "Keep mine": he saves his text on top of Ada's version.
    const bob = await updateStory(db, { ...ctx(3, other), input: { id, version: ada.story.version, cards: bobCards } });
    expect(bob.story.version).toBe(3);
    const page = await listRevisions(db, { actor, storyId: id });
    const texts = await Promise.all(
      page.items.map(async (item) => {
        const revision = await getRevision(db, { actor, storyId: id, revisionId: item.id });
        return revision.snapshot.cards[0]!["story-elements"][0]!.text;
      }),
    );
    expect(texts).toEqual(["<p>Bob's text</p>", "<p>Ada's text</p>", "<p>Base</p>"]);
  });

  it("restores a revision as a new save on top of the current version, with the version check", async () => {
    const { db, account, actor, ctx } = await setup();
    const author = await insertAuthor(db, account.id, { name: "Gone Soon" });
    const tag = await insertTag(db, account.id, { name: "Keep Me", slug: "keep-me" });
    const { story } = await createStory(db, {
      ...ctx(),
      input: {
        headline: "Original",
        cards: textCards("Original text"),
        authorIds: [author.id],
        tags: [{ id: tag.id }],
        seo: { metaTitle: "Original title" },
      },
    });
    const id = story.id;
    const edited = await updateStory(db, {
      ...ctx(1),
      input: {
        id,
        version: 1,
        headline: "Edited",
        cards: textCards("Edited text"),
        authorIds: [],
        tags: [],
        seo: { metaTitle: "Edited title" },
      },
    });
    await db.author.delete({ where: { id: author.id } });
    await db.tag.delete({ where: { id: tag.id } });
    const [, first] = (await listRevisions(db, { actor, storyId: id })).items;
    expect(
      await codeOf(restoreRevision(db, { ...ctx(2), input: { storyId: id, revisionId: first!.id, version: 1 } })),
    ).toBe("CONFLICT");
    const restored = await restoreRevision(db, {
      ...ctx(2),
      input: { storyId: id, revisionId: first!.id, version: edited.story.version },
    });
    expect(restored.story).toMatchObject({
      version: 3,
      headline: "Original",
      seo: { metaTitle: "Original title" },
      authors: [], // deleted since: left out
    });
    expect(restored.story.cards[0]!["story-elements"][0]!.text).toBe("<p>Original text</p>");
    // The deleted tag comes back by name.
    expect(restored.story.tags.map((t) => t.name)).toEqual(["Keep Me"]);
    const page = await listRevisions(db, { actor, storyId: id });
    expect(page.items.map((r) => [r.version, r.kind, r.headline])).toEqual([
      [3, "restore", "Original"],
      [2, "save", "Edited"],
      [1, "save", "Original"],
    ]);
    const audits = await db.auditLog.findMany({ where: { targetId: id, action: "story.update" } });
    const kinds = audits
      .map((a) => a.metadata as { kind?: string; version: number })
      .sort((a, b) => a.version - b.version);
    expect(kinds.map((m) => [m.version, m.kind])).toEqual([
      [2, undefined],
      [3, "restore"],
    ]);
  });

  it("restoring a revision of a published story changes the live story at once (the editor's confirmation says so)", async () => {
    const { db, account, actor, ctx } = await setup();
    const { story } = await createStory(db, {
      ...ctx(),
      input: { headline: "Live original", cards: textCards("Old") },
    });
    const id = story.id;
    let version = story.version;
    for (const action of ["submit", "approve", "publish"] as const)
      ({
        story: { version },
      } = await transitionStory(db, { ...ctx(1), input: { id, version, action } }));
    const edited = await updateStory(db, {
      ...ctx(2),
      input: { id, version, headline: "Live edited", cards: textCards("New") },
    });
    expect(edited).toMatchObject({ event: "story-update", story: { status: "PUBLISHED" } });
    const original = (await listRevisions(db, { actor, storyId: id })).items.find(
      (r) => r.headline === "Live original",
    );
    const restored = await restoreRevision(db, {
      ...ctx(3),
      input: { storyId: id, revisionId: original!.id, version: edited.story.version },
    });
    // No draft in between: the published story itself now holds the restored content, and
    // the content API's receivers hear of it as an update.
    expect(restored).toMatchObject({
      event: "story-update",
      story: { status: "PUBLISHED", headline: "Live original" },
    });
    const loaded = await db.story.findUniqueOrThrow({ where: { id }, include: STORY_INCLUDE });
    const wire = storyToWire(loaded, { publisherId: account.id, siteUrl: "https://news.example.com" });
    expect(wire).toMatchObject({ headline: "Live original" });
    expect(wire).toMatchObject({ cards: [{ "story-elements": [{ text: "<p>Old</p>" }] }] });
  });

  it("keeps other accounts out: their story's revisions are NOT_FOUND", async () => {
    const { db, ctx } = await setup();
    const { story } = await createStory(db, { ...ctx(), input: { headline: "Mine" } });
    const stranger = await insertEditor(db, (await createTestPublisher(db)).id);
    expect(await codeOf(listRevisions(db, { actor: stranger, storyId: story.id }))).toBe("NOT_FOUND");
    const [rev] = (await listRevisions(db, { actor: ctx().actor, storyId: story.id })).items;
    expect(await codeOf(getRevision(db, { actor: stranger, storyId: story.id, revisionId: rev!.id }))).toBe(
      "NOT_FOUND",
    );
    expect(
      await codeOf(
        restoreRevision(db, {
          ...ctx(),
          actor: stranger,
          input: { storyId: story.id, revisionId: rev!.id, version: 1 },
        }),
      ),
    ).toBe("NOT_FOUND");
  });
});

describe("story entities", () => {
  it("are set by the story save (only the account's live entities), searched by name and served by the content API", async () => {
    const { db, account, actor, ctx } = await setup();
    const mk = (name: string, type: string, accountId = account.id) =>
      db.entity.create({ data: { accountId, name, type } });
    const ada = await mk("Ada Lovelace", "person");
    const club = await mk("Lovelace Rovers", "team");
    const gone = await db.entity.create({
      data: { accountId: account.id, name: "Gone", type: "person", deletedAt: at(0) },
    });
    const foreign = await mk("Elsewhere", "person", (await createTestPublisher(db)).id);
    const { story } = await createStory(db, { ...ctx(), input: { headline: "Profile", entityIds: [club.id, ada.id] } });
    expect(story.entities).toEqual([
      { id: ada.id, name: "Ada Lovelace", type: "person" },
      { id: club.id, name: "Lovelace Rovers", type: "team" },
    ]);
    for (const bad of [gone.id, foreign.id]) {
      expect(await codeOf(updateStory(db, { ...ctx(1), input: { id: story.id, version: 1, entityIds: [bad] } }))).toBe(
        "UNPROCESSABLE",
      );
    }
    const saved = await updateStory(db, { ...ctx(1), input: { id: story.id, version: 1, entityIds: [ada.id] } });
    expect(saved.story.entities.map((e) => e.id)).toEqual([ada.id]);
    const audit = await db.auditLog.findFirst({ where: { targetId: story.id, action: "story.update" } });
    expect(audit?.metadata).toMatchObject({ fields: ["entities"] });
    const loaded = await db.story.findUniqueOrThrow({ where: { id: story.id }, include: STORY_INCLUDE });
    expect(storyToWire(loaded, { publisherId: account.id, siteUrl: "https://news.example.com" }).entities).toEqual([
      { id: ada.id, name: "Ada Lovelace", type: "person", slug: null },
    ]);

    const staff = await createTestStaff(db, { account: account.id, roles: ["EDITOR"] });
    expect((await staff.caller.stories.entities({ search: "lovel" })).map((e) => e.name)).toEqual([
      "Ada Lovelace",
      "Lovelace Rovers",
    ]);
    expect((await staff.caller.stories.entities({ search: "ada love" })).map((e) => e.id)).toEqual([ada.id]);
    expect(await staff.caller.stories.entities({ search: "gone" })).toEqual([]);
    expect(await trpcCodeOf(staff.caller.stories.entities({ search: "x".repeat(201) }))).toBe("BAD_REQUEST");
    const revisions = await staff.caller.stories.revisions({ storyId: story.id });
    expect(revisions.items[0]).toMatchObject({ version: 2, kind: "save" });
    void actor;
  });
});
