import { describe, expect, it } from "vitest";

import { getDb } from "../../db";
import { AppError } from "../../errors";
import { createTestPublisher, insertStory } from "../../testing/publishing-factories";
import { insertEditor } from "../../testing/staff";
import { createAuthor, deleteAuthor, updateAuthor } from "./taxonomy/authors";
import { createEntity, deleteEntity, updateEntity } from "./taxonomy/entities";
import { createSection, deleteSection, updateSection } from "./taxonomy/sections";
import { createTag, deleteTag, updateTag } from "./taxonomy/tags";

const now = new Date("2026-03-01T10:00:00.000Z");

async function setup() {
  const db = await getDb();
  const account = await createTestPublisher(db);
  const actor = await insertEditor(db, account.id, { name: "Ed" });
  // A subscribed endpoint: events are recorded with one delivery each.
  await db.webhookEndpoint.create({
    data: {
      accountId: account.id,
      kind: "CONTENT",
      url: "http://127.0.0.1:9/hook",
      events: ["section-update", "tag-update", "author-update", "entity-update"],
    },
  });
  return { db, accountId: account.id, actor };
}

type Payload = Record<string, unknown> & { change: string; "purge-keys": string[]; previous: unknown };

/** The events `name` recorded for the account since `after`, oldest first. */
async function eventsOf(accountId: number, name: string) {
  const db = await getDb();
  const rows = await db.webhookEvent.findMany({
    where: { accountId, name },
    orderBy: { id: "asc" },
    include: { deliveries: true },
  });
  for (const row of rows) expect(row.deliveries, name).toHaveLength(1);
  return rows.map((row) => row.payload as Payload);
}

describe("section, tag, author and entity events", () => {
  it("renaming sends <kind>-update with the keys of every response that showed it: its own, the lists, its published stories", async () => {
    const { db, accountId, actor } = await setup();
    const { section } = await createSection(db, { actor, input: { name: "City" }, now });
    const tag = await createTag(db, { actor, input: { name: "Trams" }, now });
    const author = await createAuthor(db, { actor, input: { name: "Ann Lee" }, now });
    const entity = await createEntity(db, { actor, input: { name: "Tram Co", type: "company" }, now });
    const published = await insertStory(db, accountId, {
      sectionIds: [section.id],
      tagIds: [tag.id],
      authorIds: [author.id],
    });
    await db.storyEntity.create({ data: { storyId: published.id, entityId: entity.id } });
    // A draft is in no public response: not among the keys.
    const draft = await insertStory(db, accountId, {
      status: "DRAFT",
      sectionIds: [section.id],
      tagIds: [tag.id],
      authorIds: [author.id],
    });
    await db.storyEntity.create({ data: { storyId: draft.id, entityId: entity.id } });
    // Creating sends none of these.
    expect(await db.webhookEvent.count({ where: { accountId, name: { in: ["section-update", "tag-update"] } } })).toBe(
      0,
    );

    await updateSection(db, { actor, input: { id: section.id, name: "Metro", slug: "metro" }, now });
    await updateTag(db, { actor, input: { id: tag.id, name: "Light rail" }, now });
    await updateAuthor(db, { actor, input: { id: author.id, name: "Ann Leigh" }, now });
    await updateEntity(db, { actor, input: { id: entity.id, name: "Metro Co" }, now });

    const s = `s/${published.id}`;
    const [sectionEvent] = await eventsOf(accountId, "section-update");
    expect(sectionEvent).toMatchObject({
      change: "update",
      section: {
        id: section.id,
        name: "Metro",
        slug: "metro",
        "collection-id": section.collection!.id,
        "deleted-at": null,
      },
      previous: { name: "City", slug: "city" },
      "changed-by": { id: actor.id, name: "Ed" },
    });
    expect(sectionEvent!["purge-keys"]).toEqual(["config", `c/${section.collection!.id}`, "stories", s]);
    const [tagEvent] = await eventsOf(accountId, "tag-update");
    expect(tagEvent).toMatchObject({
      change: "update",
      tag: { id: tag.id, name: "Light rail" },
      previous: { name: "Trams" },
    });
    expect(tagEvent!["purge-keys"]).toEqual([`t/${tag.id}`, "stories", s]);
    const [authorEvent] = await eventsOf(accountId, "author-update");
    expect(authorEvent).toMatchObject({ change: "update", author: { id: author.id, name: "Ann Leigh" } });
    expect(authorEvent!["purge-keys"]).toEqual([`a/${author.id}`, "authors", "stories", s]);
    const [entityEvent] = await eventsOf(accountId, "entity-update");
    expect(entityEvent).toMatchObject({
      change: "update",
      entity: { id: entity.id, name: "Metro Co", type: "company" },
    });
    expect(entityEvent!["purge-keys"]).toEqual([`e/${entity.id}`, "entities", s]);
  });

  it("deleting sends <kind>-update with change delete; a refused delete sends nothing", async () => {
    const { db, accountId, actor } = await setup();
    const { section } = await createSection(db, { actor, input: { name: "City" }, now });
    const tag = await createTag(db, { actor, input: { name: "Trams" }, now });
    const author = await createAuthor(db, { actor, input: { name: "Ann Lee" }, now });
    const entity = await createEntity(db, { actor, input: { name: "Tram Co", type: "company" }, now });
    const story = await insertStory(db, accountId, {
      sectionIds: [section.id],
      tagIds: [tag.id],
      authorIds: [author.id],
    });
    await db.storyEntity.create({ data: { storyId: story.id, entityId: entity.id } });
    const s = `s/${story.id}`;

    // Refused while in use (409): rolled back, no event.
    await expect(deleteSection(db, { actor, id: section.id, now })).rejects.toBeInstanceOf(AppError);
    await expect(deleteAuthor(db, { actor, id: author.id, now })).rejects.toBeInstanceOf(AppError);
    expect(await eventsOf(accountId, "section-update")).toEqual([]);
    expect(await eventsOf(accountId, "author-update")).toEqual([]);

    // The tag is taken off the story: the story's key is among them.
    await deleteTag(db, { actor, id: tag.id, now });
    const [tagEvent] = await eventsOf(accountId, "tag-update");
    expect(tagEvent).toMatchObject({ change: "delete", previous: null, tag: { id: tag.id, slug: "trams" } });
    expect(tagEvent!["purge-keys"]).toEqual([`t/${tag.id}`, "stories", s]);

    await deleteEntity(db, { actor, id: entity.id, now });
    const [entityEvent] = await eventsOf(accountId, "entity-update");
    expect(entityEvent).toMatchObject({ change: "delete", entity: { id: entity.id, "deleted-at": now.getTime() } });
    expect(entityEvent!["purge-keys"]).toEqual([`e/${entity.id}`, "entities", s]);

    await db.story.delete({ where: { id: story.id } });
    await deleteSection(db, { actor, id: section.id, now });
    await deleteAuthor(db, { actor, id: author.id, now });
    const [sectionEvent] = await eventsOf(accountId, "section-update");
    // The slug it was served under, not the freed one.
    expect(sectionEvent).toMatchObject({
      change: "delete",
      section: { id: section.id, slug: "city", "deleted-at": now.getTime() },
    });
    expect(sectionEvent!["purge-keys"]).toEqual(["config", `c/${section.collection!.id}`, "stories"]);
    const [authorEvent] = await eventsOf(accountId, "author-update");
    expect(authorEvent).toMatchObject({ change: "delete", author: { id: author.id, name: "Ann Lee" } });
    expect(authorEvent!["purge-keys"]).toEqual([`a/${author.id}`, "authors", "stories"]);
  });
});
