/**
 * Concurrent dashboard writes that meet on one row (server/publishing/editorial/shared.ts
 * lockRows): two deletes of the same thing, a delete against a write that refers to it. Each pair
 * is sent at once (Promise.all), several rounds, on PGlite and PostgreSQL (TEST_DB=postgres),
 * where the two calls run on two connections. The loser gets NOT_FOUND or the "in use" /
 * "does not exist" answer; nobody gets a 500, and what is left is consistent.
 */
import { describe, expect, it } from "vitest";

import { getDb } from "../../db";
import { createTestStaff, trpcCodeOf } from "../../testing/staff";

const ROUNDS = 6;

async function editor() {
  const { caller, account } = await createTestStaff(await getDb(), { roles: ["EDITOR"] });
  return { caller, accountId: account.id };
}

const sorted = (codes: string[]) => [...codes].sort();

/** The same call sent twice at once: the two outcomes (trpcCodeOf). */
const twice = (call: () => Promise<unknown>) => Promise.all([trpcCodeOf(call()), trpcCodeOf(call())]);

describe("concurrent deletes and the writes they meet", () => {
  it("two deletes of the same draft: one succeeds, the other is NOT_FOUND", async () => {
    const { caller } = await editor();
    for (let round = 0; round < ROUNDS; round++) {
      const { story } = await caller.stories.create({ headline: `Draft ${round}` });
      const codes = await twice(() => caller.stories.delete({ id: story.id, version: story.version }));
      expect(sorted(codes), `round ${round}`).toEqual(["NOT_FOUND", "OK"]);
    }
    const db = await getDb();
    expect(await db.auditLog.count({ where: { action: "story.delete" } })).toBe(ROUNDS);
  });

  it("two deletes of the same collection, tag, section, author or entity: one succeeds, the other is NOT_FOUND", async () => {
    const { caller, accountId } = await editor();
    const db = await getDb();
    for (let round = 0; round < ROUNDS; round++) {
      const { collection } = await caller.organise.collections.create({ name: `Front ${round}` });
      const tag = await caller.organise.tags.create({ name: `Tag ${round}` });
      const { section } = await caller.organise.sections.create({ name: `Section ${round}` });
      const author = await caller.organise.authors.create({ name: `Author ${round}` });
      const entity = await caller.organise.entities.create({ name: `Entity ${round}`, type: "person" });
      const pairs = await Promise.all([
        twice(() => caller.organise.collections.delete({ id: collection.id })),
        twice(() => caller.organise.tags.delete({ id: tag.id })),
        twice(() => caller.organise.sections.delete({ id: section.id })),
        twice(() => caller.organise.authors.delete({ id: author.id })),
        twice(() => caller.organise.entities.delete({ id: entity.id })),
      ]);
      for (const [i, codes] of pairs.entries())
        expect(sorted(codes), `round ${round}, pair ${i}`).toEqual(["NOT_FOUND", "OK"]);
    }
    // Each was deleted once: one audit entry and one collection-update "delete" event each.
    for (const action of ["collection.delete", "tag.delete", "section.delete", "author.delete", "entity.delete"]) {
      // A section's delete deletes its collection too.
      const expected = action === "collection.delete" ? 2 * ROUNDS : ROUNDS;
      expect(await db.auditLog.count({ where: { action, accountId } }), action).toBe(expected);
    }
    const deletes = await db.webhookEvent.findMany({ where: { accountId, name: "collection-update" } });
    expect(deletes.filter((e) => (e.payload as { change?: string }).change === "delete")).toHaveLength(2 * ROUNDS);
  });

  it("a draft deleted while it is added to a collection: never a 500, and the collection does not keep it", async () => {
    const { caller, accountId } = await editor();
    const db = await getDb();
    const { collection } = await caller.organise.collections.create({ name: "Front page" });
    for (let round = 0; round < ROUNDS; round++) {
      const { story } = await caller.stories.create({ headline: `Draft ${round}` });
      const [deleted, added] = await Promise.all([
        trpcCodeOf(caller.stories.delete({ id: story.id, version: story.version })),
        trpcCodeOf(caller.organise.collections.setItems({ id: collection.id, items: [{ storyId: story.id }] })),
      ]);
      expect(deleted, `round ${round}`).toBe("OK");
      // The add came first (then the delete took the item away) or found the story gone.
      expect(["OK", "NOT_FOUND"], `round ${round}: ${added}`).toContain(added);
      expect(await db.story.count({ where: { id: story.id } })).toBe(0);
      expect(await db.collectionItem.count({ where: { storyId: story.id } })).toBe(0);
    }
    expect(await db.story.count({ where: { accountId } })).toBe(0);
  });

  it("a section deleted while a story is filed under it: one of them wins, never a 500, no story under a deleted section", async () => {
    const { caller } = await editor();
    const db = await getDb();
    for (let round = 0; round < ROUNDS; round++) {
      const { section } = await caller.organise.sections.create({ name: `Section ${round}` });
      const { story } = await caller.stories.create({ headline: `Story ${round}` });
      const [deleted, filed] = await Promise.all([
        trpcCodeOf(caller.organise.sections.delete({ id: section.id })),
        trpcCodeOf(caller.stories.update({ id: story.id, version: story.version, sectionIds: [section.id] })),
      ]);
      // Filed first: the delete sees the story (409). Deleted first: the section is gone (422).
      expect([
        ["OK", "UNPROCESSABLE_CONTENT"],
        ["CONFLICT", "OK"],
      ]).toContainEqual([deleted, filed]);
      const row = await db.section.findUniqueOrThrow({ where: { id: section.id } });
      const filedUnder = await db.storySection.count({ where: { sectionId: section.id } });
      expect(row.deletedAt === null ? 1 : 0, `round ${round}`).toBe(filedUnder);
    }
  });

  it("a tag deleted while a story is tagged with it: never a 500", async () => {
    const { caller } = await editor();
    const db = await getDb();
    for (let round = 0; round < ROUNDS; round++) {
      const tag = await caller.organise.tags.create({ name: `Tag ${round}` });
      const { story } = await caller.stories.create({ headline: `Story ${round}` });
      const [deleted, tagged] = await Promise.all([
        trpcCodeOf(caller.organise.tags.delete({ id: tag.id })),
        trpcCodeOf(caller.stories.update({ id: story.id, version: story.version, tags: [{ id: tag.id }] })),
      ]);
      expect(deleted).toBe("OK");
      expect(["OK", "UNPROCESSABLE_CONTENT"], `round ${round}: ${tagged}`).toContain(tagged);
      expect(await db.storyTag.count({ where: { tagId: tag.id } })).toBe(0);
    }
  });
});
