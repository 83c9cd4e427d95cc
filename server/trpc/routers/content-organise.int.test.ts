import { describe, expect, it } from "vitest";

import type { AdminRole } from "../../auth/roles";
import { getDb } from "../../db";
import { insertStory } from "../../testing/publishing-factories";
import { createAnonymousCaller, createTestStaff, trpcCodeOf } from "../../testing/staff";

/** An admin user with `roles` on the account `slug` (shared by calls with the same slug). */
async function admin(slug: string, roles: AdminRole[]) {
  const { caller, account } = await createTestStaff(await getDb(), { account: slug, roles });
  return { caller, accountId: account.id };
}

const failure = trpcCodeOf;

describe("organise router", () => {
  it("lets an editor organise: section, author, tag, entity, and a manual collection ordered by hand", async () => {
    const { caller: editor, accountId } = await admin("alpha", ["EDITOR"]);
    const section = await editor.organise.sections.create({ name: "Politics" });
    expect(section.section.collection?.slug).toBe("section-politics");
    expect(section).not.toHaveProperty("deliveryIds");
    const author = await editor.organise.authors.create({ name: "Nellie Bly", twitterHandle: "@nellie" });
    const tag = await editor.organise.tags.create({ name: "Elections" });
    const entity = await editor.organise.entities.create({ name: "Parliament", type: "organisation" });
    expect([author.slug, tag.slug, entity.type]).toEqual(["nellie-bly", "elections", "organisation"]);

    const db = await getDb();
    const one = await insertStory(db, accountId, { headline: "Vote counted", sectionIds: [section.section.id] });
    const two = await insertStory(db, accountId, { headline: "Vote recounted" });
    const picked = await editor.organise.collections.pickStories({ q: "vote" });
    expect(picked.map((s) => s.id).sort()).toEqual([one.id, two.id].sort());

    const { collection } = await editor.organise.collections.create({ name: "Front page" });
    await editor.organise.collections.setItems({
      id: collection.id,
      items: [{ storyId: one.id }, { storyId: two.id }],
    });
    await editor.organise.collections.setItems({
      id: collection.id,
      items: [{ storyId: two.id }, { storyId: one.id }],
    });
    const saved = await editor.organise.collections.get({ id: collection.id });
    expect(saved.items.map((i) => (i.type === "story" ? i.headline : null))).toEqual([
      "Vote recounted",
      "Vote counted",
    ]);
    expect((await editor.organise.collections.list()).total).toBe(2);
    expect((await editor.organise.sections.list()).map((s) => s.slug)).toEqual(["politics"]);
    expect(await failure(editor.organise.sections.delete({ id: section.section.id }))).toBe("CONFLICT");

    // Owners pass every role check.
    const { caller: owner } = await admin("alpha", ["OWNER"]);
    expect((await owner.organise.tags.list({ q: "elect" })).tags.map((t) => t.name)).toEqual(["Elections"]);
  });

  it("is for editors and owners only", async () => {
    const { caller: moderator } = await admin("alpha", ["MODERATOR"]);
    expect(await failure(moderator.organise.sections.list())).toBe("FORBIDDEN");
    expect(await failure(moderator.organise.collections.create({ name: "x" }))).toBe("FORBIDDEN");
    const anonymous = createAnonymousCaller(await getDb());
    expect(await failure(anonymous.organise.tags.list())).toBe("UNAUTHORIZED");
  });

  it("answers bad input with BAD_REQUEST, duplicates with CONFLICT, loops with UNPROCESSABLE_CONTENT, others' ids with NOT_FOUND", async () => {
    const { caller: editor } = await admin("alpha", ["EDITOR"]);
    const { caller: stranger } = await admin("beta", ["EDITOR"]);
    expect(await failure(editor.organise.tags.create({ name: "" }))).toBe("BAD_REQUEST");
    expect(
      await failure(editor.organise.collections.create({ name: "x", rules: { "section-ids": ["1"] } as never })),
    ).toBe("BAD_REQUEST");
    expect(await failure(editor.organise.collections.setItems({ id: 1, items: [{ storyId: "not-a-uuid" }] }))).toBe(
      "BAD_REQUEST",
    );
    await editor.organise.authors.create({ name: "Same" });
    expect(await failure(editor.organise.authors.create({ name: "Same" }))).toBe("CONFLICT");
    const { collection } = await editor.organise.collections.create({ name: "Loop" });
    expect(
      await failure(
        editor.organise.collections.setItems({ id: collection.id, items: [{ collectionId: collection.id }] }),
      ),
    ).toBe("UNPROCESSABLE_CONTENT");
    const a = await editor.organise.entities.create({ name: "A", type: "thing" });
    expect(await failure(editor.organise.entities.relate({ fromId: a.id, relation: "self", toId: a.id }))).toBe(
      "UNPROCESSABLE_CONTENT",
    );
    expect(await failure(stranger.organise.collections.get({ id: collection.id }))).toBe("NOT_FOUND");
    expect(await failure(stranger.organise.entities.get({ id: a.id }))).toBe("NOT_FOUND");
    expect((await stranger.organise.collections.list()).collections).toEqual([]);
  });

  it("answers ids beyond the database's integers and text with NUL characters with BAD_REQUEST, not a server error", async () => {
    const { caller: editor } = await admin("alpha", ["EDITOR"]);
    const huge = 2 ** 40;
    expect(await failure(editor.organise.collections.get({ id: huge }))).toBe("BAD_REQUEST");
    expect(await failure(editor.organise.sections.create({ name: "X", parentId: huge }))).toBe("BAD_REQUEST");
    expect(await failure(editor.organise.entities.unrelate({ relationshipId: huge }))).toBe("BAD_REQUEST");
    expect(
      await failure(
        editor.organise.collections.create({ name: "Rules", automated: true, rules: { "author-ids": [huge] } }),
      ),
    ).toBe("BAD_REQUEST");
    const { collection } = await editor.organise.collections.create({ name: "Front" });
    expect(
      await failure(editor.organise.collections.setItems({ id: collection.id, items: [{ collectionId: huge }] })),
    ).toBe("BAD_REQUEST");
    expect(await failure(editor.organise.tags.create({ name: "a\u0000b" }))).toBe("BAD_REQUEST");
    expect(await failure(editor.organise.tags.list({ q: "\u0000" }))).toBe("BAD_REQUEST");
    expect(await failure(editor.organise.collections.create({ name: "Meta", metadata: { note: "a\u0000b" } }))).toBe(
      "BAD_REQUEST",
    );
    expect(
      await failure(editor.organise.entities.create({ name: "E", type: "person", metadata: { "k\u0000": 1 } })),
    ).toBe("BAD_REQUEST");
  });
});
