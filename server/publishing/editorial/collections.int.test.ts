import { describe, expect, it } from "vitest";

import type { StaffActor } from "../../auth/actor";
import { getDb } from "../../db";
import { isAppError } from "../../errors";
import { appErrorCodeOf as codeOf } from "../../testing/app-errors";
import { HOSTILE_HTML, HOSTILE_URLS, SAFE_HTML, unsafeStrings } from "../../testing/hostile-html";
import { createTestPublisher, insertStory } from "../../testing/publishing-factories";
import { insertEditor } from "../../testing/staff";
import { setCollectionItems } from "./collections/items";
import { getCollection, listCollections, pickStories } from "./collections/read";
import { createCollection, deleteCollection, updateCollection } from "./collections/write";
import { createSection, deleteSection } from "./taxonomy/sections";

const now = new Date("2026-05-01T10:00:00Z");

async function editor(): Promise<StaffActor> {
  const db = await getDb();
  const account = await createTestPublisher(db, { domain: null });
  return insertEditor(db, account.id);
}

/** A content webhook on the account, subscribed to collection-update. */
async function subscribe(actor: StaffActor) {
  const db = await getDb();
  return db.webhookEndpoint.create({
    data: {
      accountId: actor.accountId,
      kind: "CONTENT",
      url: "https://hooks.example.com/c",
      events: ["collection-update"],
    },
  });
}

async function collectionEvents() {
  const db = await getDb();
  const events = await db.webhookEvent.findMany({
    where: { name: "collection-update" },
    orderBy: { id: "asc" },
    include: { deliveries: true },
  });
  return events.map((e) => ({
    payload: e.payload as {
      collection: Record<string, unknown>;
      change: string;
      "changed-by": Record<string, unknown>;
    },
    deliveries: e.deliveries.length,
  }));
}

// eslint-disable-next-line max-lines-per-function -- a describe block of short cases that share its setup
describe("collections", () => {
  it("creates a manual collection, orders stories and a child collection, and emits collection-update each time", async () => {
    const db = await getDb();
    const actor = await editor();
    await subscribe(actor);
    const first = await insertStory(db, actor.accountId, { headline: "First light" });
    const second = await insertStory(db, actor.accountId, { headline: "Second wind" });

    const deliveriesBefore = await db.webhookDelivery.count();
    const created = await createCollection(db, {
      actor,
      input: { name: "Home Page", summary: "Top of the site" },
      now,
    });
    expect(created.collection).toMatchObject({ slug: "home-page", automated: false, rules: {}, items: [] });
    expect(await db.webhookDelivery.count()).toBe(deliveriesBefore + 1);
    const { collection: child } = await createCollection(db, { actor, input: { name: "Opinion" }, now });
    const beforeItems = await db.webhookDelivery.count();

    const set = await setCollectionItems(db, {
      actor,
      input: {
        id: created.collection.id,
        items: [
          { storyId: second.id, associatedMetadata: { layout: "hero" } },
          { collectionId: child.id },
          { storyId: first.id },
        ],
      },
      now,
    });
    expect(set.collection.items.map((i) => (i.type === "story" ? i.headline : i.name))).toEqual([
      "Second wind",
      "Opinion",
      "First light",
    ]);
    expect(set.collection.items[0]!.associatedMetadata).toEqual({ layout: "hero" });
    expect(await db.webhookDelivery.count()).toBe(beforeItems + 1);

    // Reordered: the new order replaces the old one.
    const reordered = await setCollectionItems(db, {
      actor,
      input: { id: created.collection.id, items: [{ storyId: first.id }, { storyId: second.id }] },
      now,
    });
    expect(reordered.collection.items.map((i) => i.type === "story" && i.storyId)).toEqual([first.id, second.id]);
    expect((await getCollection(db, { actor, id: created.collection.id })).itemCount).toBe(2);

    const events = await collectionEvents();
    expect(events.map((e) => e.payload.change)).toEqual(["create", "create", "items", "items"]);
    expect(events.every((e) => e.deliveries === 1)).toBe(true);
    expect(events[3]!.payload).toEqual({
      collection: {
        id: created.collection.id,
        slug: "home-page",
        name: "Home Page",
        automated: false,
        rules: {},
        items: [
          { type: "story", id: first.id },
          { type: "story", id: second.id },
        ],
        "updated-at": now.getTime(),
        "deleted-at": null,
      },
      change: "items",
      "changed-by": { id: actor.id, name: "Eddie Editor", email: expect.stringContaining("editor@") as unknown },
      "purge-keys": [`c/${created.collection.id}`, "collections"],
    });
    const actions = (await db.auditLog.findMany({ orderBy: { createdAt: "asc" } })).map((e) => e.action);
    expect(actions).toEqual(["collection.create", "collection.create", "collection.set_items", "collection.set_items"]);
  });

  it("refuses a collection inside itself, directly or through nesting (422), and changes nothing", async () => {
    const db = await getDb();
    const actor = await editor();
    const { collection: a } = await createCollection(db, { actor, input: { name: "A" }, now });
    const { collection: b } = await createCollection(db, { actor, input: { name: "B" }, now });
    const { collection: c } = await createCollection(db, { actor, input: { name: "C" }, now });
    await setCollectionItems(db, { actor, input: { id: a.id, items: [{ collectionId: b.id }] }, now });
    await setCollectionItems(db, { actor, input: { id: b.id, items: [{ collectionId: c.id }] }, now });
    expect(
      await codeOf(setCollectionItems(db, { actor, input: { id: a.id, items: [{ collectionId: a.id }] }, now })),
    ).toBe("UNPROCESSABLE");
    expect(
      await codeOf(setCollectionItems(db, { actor, input: { id: c.id, items: [{ collectionId: a.id }] }, now })),
    ).toBe("UNPROCESSABLE");
    expect((await getCollection(db, { actor, id: c.id })).items).toEqual([]);
    expect(
      (await getCollection(db, { actor, id: a.id })).items.map((i) => i.type === "collection" && i.collectionId),
    ).toEqual([b.id]);
  });

  it("refuses the second of two concurrent nestings that together would make a loop (A into B, B into A)", async () => {
    const db = await getDb();
    const actor = await editor();
    const { collection: a } = await createCollection(db, { actor, input: { name: "A" }, now });
    const { collection: b } = await createCollection(db, { actor, input: { name: "B" }, now });
    const codes = await Promise.all([
      codeOf(setCollectionItems(db, { actor, input: { id: a.id, items: [{ collectionId: b.id }] }, now })),
      codeOf(setCollectionItems(db, { actor, input: { id: b.id, items: [{ collectionId: a.id }] }, now })),
    ]);
    expect(codes.sort()).toEqual(["OK", "UNPROCESSABLE"]);
    expect(await db.collectionItem.count({ where: { childCollectionId: { in: [a.id, b.id] } } })).toBe(1);
  });

  it("keeps one of two concurrent orderings of the same collection whole, never a mix of both", async () => {
    const db = await getDb();
    const actor = await editor();
    const stories = await Promise.all([1, 2, 3, 4].map(() => insertStory(db, actor.accountId)));
    const { collection } = await createCollection(db, { actor, input: { name: "Front" }, now });
    const lists = [stories.slice(0, 2), stories.slice(2)].map((pair) => pair.map((s) => s.id));
    await Promise.all(
      lists.map((ids) =>
        setCollectionItems(db, {
          actor,
          input: { id: collection.id, items: ids.map((storyId) => ({ storyId })) },
          now,
        }),
      ),
    );
    const items = await db.collectionItem.findMany({
      where: { collectionId: collection.id },
      orderBy: { position: "asc" },
    });
    expect([lists[0], lists[1]]).toContainEqual(items.map((i) => i.storyId));
  });

  it("keeps to the account: other accounts' collections, stories and children are NOT_FOUND", async () => {
    const db = await getDb();
    const actor = await editor();
    const other = await editor();
    const { collection } = await createCollection(db, { actor, input: { name: "Mine" }, now });
    const { collection: theirs } = await createCollection(db, { actor: other, input: { name: "Theirs" }, now });
    const theirStory = await insertStory(db, other.accountId);
    expect(await codeOf(getCollection(db, { actor: other, id: collection.id }))).toBe("NOT_FOUND");
    expect(await codeOf(updateCollection(db, { actor: other, input: { id: collection.id, name: "x" }, now }))).toBe(
      "NOT_FOUND",
    );
    expect(await codeOf(deleteCollection(db, { actor: other, id: collection.id, now }))).toBe("NOT_FOUND");
    expect(
      await codeOf(
        setCollectionItems(db, { actor, input: { id: collection.id, items: [{ storyId: theirStory.id }] }, now }),
      ),
    ).toBe("NOT_FOUND");
    expect(
      await codeOf(
        setCollectionItems(db, { actor, input: { id: collection.id, items: [{ collectionId: theirs.id }] }, now }),
      ),
    ).toBe("NOT_FOUND");
    expect((await listCollections(db, { actor: other })).collections.map((c) => c.name)).toEqual(["Theirs"]);
    expect(await pickStories(db, { actor })).toEqual([]);
  });

  it("switches to automated with validated rules; automated collections take no items (422)", async () => {
    const db = await getDb();
    const actor = await editor();
    const { collection } = await createCollection(db, { actor, input: { name: "Latest" }, now });
    const { collection: updated } = await updateCollection(db, {
      actor,
      input: {
        id: collection.id,
        automated: true,
        rules: { "tag-slugs": ["cricket"], "author-ids": [1], sort: "last-published-at" },
        template: "list",
        metadata: { color: "red" },
      },
      now,
    });
    expect(updated).toMatchObject({
      automated: true,
      template: "list",
      metadata: { color: "red" },
      rules: { "tag-slugs": ["cricket"], "author-ids": [1], sort: "last-published-at" },
    });
    expect(
      await codeOf(
        updateCollection(db, { actor, input: { id: collection.id, rules: { sort: "random" } as never }, now }),
      ),
    ).toBe("BAD_REQUEST");
    const story = await insertStory(db, actor.accountId);
    expect(
      await codeOf(
        setCollectionItems(db, { actor, input: { id: collection.id, items: [{ storyId: story.id }] }, now }),
      ),
    ).toBe("UNPROCESSABLE");
    expect(await codeOf(createCollection(db, { actor, input: { name: "latest" }, now }))).toBe("CONFLICT");
    expect(await codeOf(updateCollection(db, { actor, input: { id: collection.id, slug: "Not A Slug" }, now }))).toBe(
      "BAD_REQUEST",
    );
  });

  it("deletes softly: frees the slug, leaves its parents (which change too); a section's collection goes only with the section", async () => {
    const db = await getDb();
    const actor = await editor();
    await subscribe(actor);
    const { collection: home } = await createCollection(db, { actor, input: { name: "Home" }, now });
    const { collection: nested } = await createCollection(db, { actor, input: { name: "Nested" }, now });
    await setCollectionItems(db, { actor, input: { id: home.id, items: [{ collectionId: nested.id }] }, now });
    const beforeDelete = await db.webhookDelivery.count();
    await deleteCollection(db, { actor, id: nested.id, now });
    expect(await db.webhookDelivery.count()).toBe(beforeDelete + 2);
    expect((await getCollection(db, { actor, id: home.id })).items).toEqual([]);
    expect(await codeOf(getCollection(db, { actor, id: nested.id }))).toBe("NOT_FOUND");
    const events = await collectionEvents();
    expect(events.slice(-2).map((e) => [e.payload.change, e.payload.collection.slug])).toEqual([
      ["delete", "nested"],
      ["items", "home"],
    ]);
    expect(await codeOf(createCollection(db, { actor, input: { name: "Nested" }, now }))).toBe("OK");

    const { section } = await createSection(db, { actor, input: { name: "Business" }, now });
    expect(await codeOf(deleteCollection(db, { actor, id: section.collection!.id, now }))).toBe("CONFLICT");
    await deleteSection(db, { actor, id: section.id, now });
    expect(await codeOf(getCollection(db, { actor, id: section.collection!.id }))).toBe("NOT_FOUND");
  });

  it("picks published stories by headline words for the editor", async () => {
    const db = await getDb();
    const actor = await editor();
    await insertStory(db, actor.accountId, {
      headline: "Rain stops play at Lord's",
      publishedAt: new Date("2026-04-01"),
    });
    await insertStory(db, actor.accountId, { headline: "Rain returns", publishedAt: new Date("2026-04-02") });
    await insertStory(db, actor.accountId, { headline: "Rain draft", status: "DRAFT" });
    expect((await pickStories(db, { actor, q: "rain" })).map((s) => s.headline)).toEqual([
      "Rain returns",
      "Rain stops play at Lord's",
    ]);
    expect((await pickStories(db, { actor, q: "RAIN play" })).map((s) => s.headline)).toEqual([
      "Rain stops play at Lord's",
    ]);
    expect(await pickStories(db, { actor, q: "rain", status: "any" })).toHaveLength(3);
  });
});

describe("hostile HTML and links", () => {
  it("sanitises HTML and refuses unsafe links in collection metadata and item metadata", async () => {
    const db = await getDb();
    const actor = await editor();
    const story = await insertStory(db, actor.accountId, { headline: "Linked" });
    const html = `${SAFE_HTML}\n${HOSTILE_HTML}`;
    const { collection } = await createCollection(db, {
      actor,
      input: {
        name: "Picks",
        metadata: { description: html, "cover-image": { url: "https://cdn.example.com/p.png" } },
      },
      now,
    });
    const items = await setCollectionItems(db, {
      actor,
      input: {
        id: collection.id,
        items: [{ storyId: story.id, associatedMetadata: { layout: "hero", teaser: html } }],
      },
      now,
    });
    expect(unsafeStrings(await getCollection(db, { actor, id: collection.id }))).toEqual([]);
    expect(unsafeStrings(items.collection)).toEqual([]);
    expect(collection.metadata.description).toContain('<a href="https://example.org/ok">ok</a>');

    const accepted: string[] = [];
    for (const url of HOSTILE_URLS) {
      const attempts: [string, () => Promise<unknown>][] = [
        ["metadata.link", () => createCollection(db, { actor, input: { name: "X", metadata: { link: url } }, now })],
        [
          "metadata.cover-image.url",
          () =>
            updateCollection(db, { actor, input: { id: collection.id, metadata: { "cover-image": { url } } }, now }),
        ],
        [
          "items.0.associatedMetadata.cta-url",
          () =>
            setCollectionItems(db, {
              actor,
              input: { id: collection.id, items: [{ storyId: story.id, associatedMetadata: { "cta-url": url } }] },
              now,
            }),
        ],
      ];
      for (const [field, attempt] of attempts) {
        const error = await attempt().then(
          () => null,
          (e: unknown) => e,
        );
        const refused =
          isAppError(error) && error.code === "BAD_REQUEST" && (error.details ?? []).some((d) => d.field === field);
        if (!refused) accepted.push(`${field} = ${JSON.stringify(url)}`);
      }
    }
    expect(accepted).toEqual([]);
  });
});
