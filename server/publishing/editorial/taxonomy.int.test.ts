import { describe, expect, it } from "vitest";

import type { StaffActor } from "../../auth/actor";
import { getDb } from "../../db";
import { isAppError } from "../../errors";
import { appErrorCodeOf as codeOf } from "../../testing/app-errors";
import { HOSTILE_HTML, HOSTILE_URLS, SAFE_HTML, unsafeStrings } from "../../testing/hostile-html";
import { createTestPublisher, insertStory } from "../../testing/publishing-factories";
import { insertEditor } from "../../testing/staff";
import { getAuthor as getPublicAuthor } from "../authors";
import { getPublicEntity } from "../entities";
import { createAuthor, deleteAuthor, listAuthors, updateAuthor } from "./taxonomy/authors";
import {
  addEntityRelationship,
  createEntity,
  deleteEntity,
  getEntity,
  listEntities,
  removeEntityRelationship,
  updateEntity,
} from "./taxonomy/entities";
import { createSection, deleteSection, listSections, updateSection } from "./taxonomy/sections";
import { createTag, deleteTag, listTags, updateTag } from "./taxonomy/tags";

const now = new Date("2026-05-01T10:00:00Z");

async function editor(slug?: string): Promise<StaffActor> {
  const db = await getDb();
  const account = await createTestPublisher(db, { slug, domain: null });
  return insertEditor(db, account.id);
}

describe("sections", () => {
  it("creates a section with its automated section collection, lists the tree, and records both", async () => {
    const db = await getDb();
    const actor = await editor();
    const { section: news } = await createSection(db, { actor, input: { name: "News" }, now });
    const { section: world } = await createSection(db, {
      actor,
      input: { name: "World", displayName: "World news", parentId: news.id },
      now,
    });
    expect(news).toMatchObject({
      name: "News",
      displayName: "News",
      slug: "news",
      parentId: null,
      depth: 0,
      collection: { slug: "section-news" },
    });
    expect(world).toMatchObject({ slug: "world", parentId: news.id, depth: 1 });

    const collection = await db.collection.findUniqueOrThrow({ where: { id: world.collection!.id } });
    expect(collection).toMatchObject({
      automated: true,
      slug: "section-world",
      name: "World news",
      rules: { "section-ids": [world.id] },
    });
    expect((await listSections(db, { actor })).map((s) => s.slug)).toEqual(["news", "world"]);
    const actions = (await db.auditLog.findMany({ orderBy: { createdAt: "asc" } })).map((e) => e.action);
    expect(actions).toEqual(["section.create", "section.create"]);
  });

  it("keeps slugs unique per account (409), refuses loops (422) and unknown parents (404)", async () => {
    const db = await getDb();
    const actor = await editor();
    const other = await editor();
    const { section: sport } = await createSection(db, { actor, input: { name: "Sport" }, now });
    const { section: cricket } = await createSection(db, {
      actor,
      input: { name: "Cricket", parentId: sport.id },
      now,
    });
    expect(await codeOf(createSection(db, { actor, input: { name: "Sports", slug: "sport" }, now }))).toBe("CONFLICT");
    expect(await codeOf(createSection(db, { actor: other, input: { name: "Sport" }, now }))).toBe("OK");
    expect(await codeOf(updateSection(db, { actor, input: { id: sport.id, parentId: cricket.id }, now }))).toBe(
      "UNPROCESSABLE",
    );
    expect(await codeOf(updateSection(db, { actor, input: { id: sport.id, parentId: sport.id }, now }))).toBe(
      "UNPROCESSABLE",
    );
    expect(await codeOf(createSection(db, { actor, input: { name: "X", parentId: 9999 }, now }))).toBe("NOT_FOUND");
    expect(await codeOf(updateSection(db, { actor: other, input: { id: sport.id, name: "Mine" }, now }))).toBe(
      "NOT_FOUND",
    );
    expect(await codeOf(createSection(db, { actor, input: { name: "!!!" }, now }))).toBe("BAD_REQUEST");
  });

  it("refuses the second of two concurrent moves that together would make a loop (A under B, B under A)", async () => {
    const db = await getDb();
    const actor = await editor();
    const { section: a } = await createSection(db, { actor, input: { name: "A" }, now });
    const { section: b } = await createSection(db, { actor, input: { name: "B" }, now });
    const codes = await Promise.all([
      codeOf(updateSection(db, { actor, input: { id: a.id, parentId: b.id }, now })),
      codeOf(updateSection(db, { actor, input: { id: b.id, parentId: a.id }, now })),
    ]);
    expect(codes.sort()).toEqual(["OK", "UNPROCESSABLE"]);
    // Both stay in the tree (a loop would drop them from it).
    expect((await listSections(db, { actor })).map((s) => s.id).sort()).toEqual([a.id, b.id].sort());
  });

  it("renames and moves a section; its collection follows the slug and name", async () => {
    const db = await getDb();
    const actor = await editor();
    const { section: a } = await createSection(db, { actor, input: { name: "A" }, now });
    const { section: b } = await createSection(db, { actor, input: { name: "B" }, now });
    const { section } = await updateSection(db, {
      actor,
      input: { id: b.id, slug: "bee", displayName: "Bee", parentId: a.id },
      now,
    });
    expect(section).toMatchObject({
      slug: "bee",
      displayName: "Bee",
      parentId: a.id,
      depth: 1,
      collection: { slug: "section-bee" },
    });
    expect((await db.collection.findUniqueOrThrow({ where: { id: section.collection!.id } })).name).toBe("Bee");
    // The rename changes config (sections list their collection), so its event names that key too.
    const renamed = await db.webhookEvent.findMany({
      where: { accountId: actor.accountId, name: "collection-update" },
      orderBy: { id: "desc" },
      take: 1,
    });
    expect((renamed[0]?.payload as { "purge-keys"?: string[] } | undefined)?.["purge-keys"]).toEqual([
      `c/${section.collection!.id}`,
      "collections",
      "config",
    ]);
    const { section: top } = await updateSection(db, { actor, input: { id: b.id, parentId: null }, now });
    expect(top.parentId).toBeNull();
  });

  it("deletes softly, frees the slug, and refuses while stories or subsections use it", async () => {
    const db = await getDb();
    const actor = await editor();
    const { section: parent } = await createSection(db, { actor, input: { name: "Parent" }, now });
    const { section: child } = await createSection(db, { actor, input: { name: "Child", parentId: parent.id }, now });
    const story = await insertStory(db, actor.accountId, { sectionIds: [child.id] });
    expect(await codeOf(deleteSection(db, { actor, id: parent.id, now }))).toBe("CONFLICT");
    expect(await codeOf(deleteSection(db, { actor, id: child.id, now }))).toBe("CONFLICT");
    await db.story.delete({ where: { id: story.id } });
    await deleteSection(db, { actor, id: child.id, now });
    expect((await listSections(db, { actor })).map((s) => s.slug)).toEqual(["parent"]);
    const row = await db.section.findUniqueOrThrow({ where: { id: child.id } });
    expect(row.deletedAt).toEqual(now);
    expect((await db.collection.findUniqueOrThrow({ where: { id: child.collection!.id } })).deletedAt).toEqual(now);
    // The slug is free again, for the section and its collection.
    expect(await codeOf(createSection(db, { actor, input: { name: "Child" }, now }))).toBe("OK");
  });
});

describe("authors", () => {
  it("creates, searches, updates and deletes; slugs unique (409); refuses to delete a byline in use (409)", async () => {
    const db = await getDb();
    const actor = await editor();
    const ada = await createAuthor(db, {
      actor,
      input: {
        name: "Ada Lovelace",
        bio: "Analyst.",
        twitterHandle: "@ada",
        avatarUrl: "https://cdn.example.com/ada.png",
      },
      now,
    });
    expect(ada).toMatchObject({ slug: "ada-lovelace", twitterHandle: "ada", bio: "Analyst.", storyCount: 0 });
    await createAuthor(db, { actor, input: { name: "Grace Hopper" }, now });
    expect(await codeOf(createAuthor(db, { actor, input: { name: "Another Ada", slug: "ada-lovelace" }, now }))).toBe(
      "CONFLICT",
    );
    expect((await listAuthors(db, { actor, q: "lovel" })).authors.map((a) => a.name)).toEqual(["Ada Lovelace"]);
    expect((await listAuthors(db, { actor })).total).toBe(2);

    const updated = await updateAuthor(db, { actor, input: { id: ada.id, bio: "", twitterHandle: "countess" }, now });
    expect(updated).toMatchObject({ bio: null, twitterHandle: "countess", name: "Ada Lovelace" });
    expect(
      await codeOf(
        updateAuthor(db, {
          actor,
          input: { id: ada.id, avatarS3Key: `${actor.accountId}/2026/05/7b2d1c0e-8a4f-4c55-9a61-0c2f3e4d5a6b.png` },
          now,
        }),
      ),
    ).toBe("BAD_REQUEST"); // not an upload of this account (image-refs.ts)

    const story = await insertStory(db, actor.accountId, { authorIds: [ada.id] });
    expect(await codeOf(deleteAuthor(db, { actor, id: ada.id, now }))).toBe("CONFLICT");
    await db.story.delete({ where: { id: story.id } });
    const other = await editor();
    expect(await codeOf(deleteAuthor(db, { actor: other, id: ada.id, now }))).toBe("NOT_FOUND");
    await deleteAuthor(db, { actor, id: ada.id, now });
    expect((await listAuthors(db, { actor })).authors.map((a) => a.name)).toEqual(["Grace Hopper"]);
  });
});

describe("tags", () => {
  it("creates, renames and deletes (taking the tag off its stories)", async () => {
    const db = await getDb();
    const actor = await editor();
    const tag = await createTag(db, { actor, input: { name: "Climate Change" }, now });
    expect(tag.slug).toBe("climate-change");
    expect(await codeOf(createTag(db, { actor, input: { name: "climate change" }, now }))).toBe("CONFLICT");
    const renamed = await updateTag(db, {
      actor,
      input: { id: tag.id, name: "Climate", slug: "climate", metaDescription: "Warming." },
      now,
    });
    expect(renamed).toMatchObject({ name: "Climate", slug: "climate", metaDescription: "Warming." });
    expect((await listTags(db, { actor, q: "clim" })).tags).toHaveLength(1);
    const story = await insertStory(db, actor.accountId, { tagIds: [tag.id] });
    expect(await deleteTag(db, { actor, id: tag.id, now })).toEqual({ deleted: true, untaggedStories: 1 });
    expect(await db.storyTag.count({ where: { storyId: story.id } })).toBe(0);
    expect(await codeOf(deleteTag(db, { actor, id: tag.id, now }))).toBe("NOT_FOUND");
  });
});

describe("entities", () => {
  it("creates by type, relates with rank, refuses self-links and duplicates, soft-deletes", async () => {
    const db = await getDb();
    const actor = await editor();
    const team = await createEntity(db, {
      actor,
      input: { name: "Chennai Super Kings", type: "team", metadata: { founded: 2008 } },
      now,
    });
    const dhoni = await createEntity(db, { actor, input: { name: "MS Dhoni", type: "person" }, now });
    const jadeja = await createEntity(db, { actor, input: { name: "Ravindra Jadeja", type: "person" }, now });
    expect(team).toMatchObject({ slug: "chennai-super-kings", metadata: { founded: 2008 } });

    const listed = await listEntities(db, { actor, type: "person" });
    expect(listed.entities.map((e) => e.name)).toEqual(["MS Dhoni", "Ravindra Jadeja"]);
    expect(listed.types).toEqual(["person", "team"]);

    await addEntityRelationship(db, {
      actor,
      input: { fromId: team.id, relation: "players", toId: jadeja.id, rank: 2 },
      now,
    });
    const captain = await addEntityRelationship(db, {
      actor,
      input: { fromId: team.id, relation: "players", toId: dhoni.id, rank: 1 },
      now,
    });
    expect(
      await codeOf(
        addEntityRelationship(db, { actor, input: { fromId: team.id, relation: "players", toId: dhoni.id }, now }),
      ),
    ).toBe("CONFLICT");
    expect(
      await codeOf(
        addEntityRelationship(db, { actor, input: { fromId: team.id, relation: "self", toId: team.id }, now }),
      ),
    ).toBe("UNPROCESSABLE");
    const other = await editor();
    const foreign = await createEntity(db, { actor: other, input: { name: "Elsewhere", type: "team" }, now });
    expect(
      await codeOf(
        addEntityRelationship(db, { actor, input: { fromId: team.id, relation: "rivals", toId: foreign.id }, now }),
      ),
    ).toBe("NOT_FOUND");

    const detail = await getEntity(db, { actor, id: team.id });
    expect(detail.relations.map((r) => [r.relation, r.entity.name, r.rank])).toEqual([
      ["players", "MS Dhoni", 1],
      ["players", "Ravindra Jadeja", 2],
    ]);
    expect((await getEntity(db, { actor, id: dhoni.id })).relatedBy.map((r) => r.entity.name)).toEqual([
      "Chennai Super Kings",
    ]);

    await removeEntityRelationship(db, { actor, id: captain.id, now });
    expect(await codeOf(removeEntityRelationship(db, { actor: other, id: captain.id, now }))).toBe("NOT_FOUND");
    expect((await getEntity(db, { actor, id: team.id })).relations).toHaveLength(1);

    const renamed = await updateEntity(db, {
      actor,
      input: { id: jadeja.id, name: "Sir Jadeja", metadata: { role: "all-rounder" } },
      now,
    });
    expect(renamed).toMatchObject({ name: "Sir Jadeja", metadata: { role: "all-rounder" }, type: "person" });
    expect((await db.entity.findUniqueOrThrow({ where: { id: jadeja.id } })).lastUpdatedBy).toBe(actor.id);

    await deleteEntity(db, { actor, id: jadeja.id, now });
    expect((await listEntities(db, { actor, type: "person" })).entities.map((e) => e.name)).toEqual(["MS Dhoni"]);
    expect((await getEntity(db, { actor, id: team.id })).relations).toHaveLength(0);
    expect(await codeOf(getEntity(db, { actor, id: jadeja.id }))).toBe("NOT_FOUND");
    expect((await db.entity.findUniqueOrThrow({ where: { id: jadeja.id } })).deletedAt).toEqual(now);
  });
});

describe("hostile HTML and links", () => {
  /** The URLs of HOSTILE_URLS that `save` did not refuse with BAD_REQUEST naming `field`. */
  async function acceptedUrls(save: (url: string) => Promise<unknown>, field: string): Promise<string[]> {
    const accepted: string[] = [];
    for (const url of HOSTILE_URLS) {
      const error = await save(url).then(
        () => null,
        (e: unknown) => e,
      );
      const refused =
        isAppError(error) && error.code === "BAD_REQUEST" && (error.details ?? []).some((d) => d.field === field);
      if (!refused) accepted.push(url);
    }
    return accepted;
  }

  it("sanitises an author's bio and refuses unsafe avatar URLs; the read API returns the author safe", async () => {
    const db = await getDb();
    const actor = await editor();
    const html = `${SAFE_HTML}\n${HOSTILE_HTML}`;
    const author = await createAuthor(db, {
      actor,
      input: { name: "Mallory", bio: html, avatarUrl: "HTTPS://CDN.Example.com/m.png" },
      now,
    });
    const wire = await getPublicAuthor(db, { accountId: actor.accountId, authorId: author.id });
    expect(unsafeStrings(wire)).toEqual([]);
    expect(wire.bio).toContain('<a href="https://example.org/ok">ok</a>');
    expect(wire["avatar-url"]).toBe("https://cdn.example.com/m.png");
    const updated = await updateAuthor(db, { actor, input: { id: author.id, bio: html }, now });
    expect(unsafeStrings(updated.bio)).toEqual([]);

    expect(
      await acceptedUrls(
        (url) => createAuthor(db, { actor, input: { name: "Eve", avatarUrl: url }, now }),
        "avatarUrl",
      ),
    ).toEqual([]);
    expect(
      await acceptedUrls(
        (url) => updateAuthor(db, { actor, input: { id: author.id, avatarUrl: url }, now }),
        "avatarUrl",
      ),
    ).toEqual([]);
  });

  it("sanitises HTML and refuses unsafe links in entity metadata; the read API returns the entity safe", async () => {
    const db = await getDb();
    const actor = await editor();
    const html = `${SAFE_HTML}\n${HOSTILE_HTML}`;
    const entity = await createEntity(db, {
      actor,
      input: {
        name: "City FC",
        type: "team",
        metadata: {
          description: html,
          photo: { url: "https://cdn.example.com/c.png", caption: html },
          "website-url": "https://cityfc.example/",
        },
      },
      now,
    });
    const wire = await getPublicEntity(db, { accountId: actor.accountId, id: entity.id });
    expect(unsafeStrings(wire)).toEqual([]);
    expect(wire.description).toContain('<a href="https://example.org/ok">ok</a>');

    expect(
      await acceptedUrls(
        (url) => createEntity(db, { actor, input: { name: "X", type: "team", metadata: { "website-url": url } }, now }),
        "metadata.website-url",
      ),
    ).toEqual([]);
    expect(
      await acceptedUrls(
        (url) => updateEntity(db, { actor, input: { id: entity.id, metadata: { photo: { url } } }, now }),
        "metadata.photo.url",
      ),
    ).toEqual([]);
  });
});
