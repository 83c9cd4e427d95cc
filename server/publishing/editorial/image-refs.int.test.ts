import { randomUUID } from "node:crypto";

import { beforeEach, describe, expect, it } from "vitest";

import { getDb } from "../../db";
import { AppError } from "../../errors";
import { createTestPublisher, insertImageAsset, insertStory } from "../../testing/publishing-factories";
import { insertEditor } from "../../testing/staff";
import type { TCard } from "../cards.schema";
import { forgetPublisherCache } from "../publisher";
import { setCollectionItems } from "./collections/items";
import { createCollection, updateCollection } from "./collections/write";
import { createStory, updateStory } from "./stories/write";
import { createAuthor, updateAuthor } from "./taxonomy/authors";
import { createEntity } from "./taxonomy/entities";

const APP_URL = "http://localhost:3000";
const now = new Date("2026-03-01T10:00:00.000Z");

beforeEach(() => forgetPublisherCache());

async function editor() {
  const db = await getDb();
  const account = await createTestPublisher(db);
  const actor = await insertEditor(db, account.id, { name: "Ed" });
  return { db, account, actor, ctx: { actor, now, appUrl: APP_URL } };
}

/** The error's code and the fields it names, or "OK". */
async function outcome(promise: Promise<unknown>): Promise<string | { code: string; fields: string[] }> {
  try {
    await promise;
    return "OK";
  } catch (error) {
    if (error instanceof AppError) return { code: error.code, fields: (error.details ?? []).map((d) => d.field) };
    throw error;
  }
}

const imageCard = (key: string): TCard[] => [
  {
    id: randomUUID(),
    status: "draft",
    version: 1,
    metadata: {},
    "story-elements": [{ id: randomUUID(), type: "image", subtype: null, "image-s3-key": key, metadata: {} }],
  },
];

describe("image keys editors may use", () => {
  it("takes a story's hero and card images only from the account's own uploads", async () => {
    const { db, account, ctx } = await editor();
    const other = await createTestPublisher(db);
    const own = await insertImageAsset(db, account.id);
    const theirs = await insertImageAsset(db, other.id);

    const bad = [
      [{ heroImage: { s3Key: theirs } }, "heroImage.s3Key"],
      [{ heroImage: { s3Key: "1/2026/01/made-up.png" } }, "heroImage.s3Key"],
      [{ heroImage: { s3Key: "../../etc/passwd" } }, "heroImage.s3Key"],
      [{ cards: imageCard(theirs) }, "cards.0.story-elements.0.image-s3-key"],
      [{ heroImage: { s3Key: "https://evil.test/x.png" } }, "heroImage.s3Key"],
    ] as const;
    for (const [fields, field] of bad) {
      expect(await outcome(createStory(db, { ...ctx, input: { headline: "Pic", ...fields } })), field).toEqual({
        code: "BAD_REQUEST",
        fields: [field],
      });
    }
    expect(await db.story.count({ where: { accountId: account.id } })).toBe(0);

    const { story } = await createStory(db, {
      ...ctx,
      input: { headline: "Pic", heroImage: { s3Key: own }, cards: imageCard(own) },
    });
    expect(story.heroImage?.s3Key).toBe(own);

    // Changing to another account's image is refused and changes nothing.
    expect(
      await outcome(
        updateStory(db, { ...ctx, input: { id: story.id, version: story.version, heroImage: { s3Key: theirs } } }),
      ),
    ).toEqual({ code: "BAD_REQUEST", fields: ["heroImage.s3Key"] });
    expect((await db.story.findUniqueOrThrow({ where: { id: story.id } })).heroImageS3Key).toBe(own);

    // The hero image's alt text is kept as plain text: markup is taken out once, at save.
    const { story: withAlt } = await updateStory(db, {
      ...ctx,
      input: {
        id: story.id,
        version: story.version,
        heroImage: { s3Key: own, metadata: { width: 10, alt: `Gulls <img src=x onerror=alert(1)>at <b>dawn</b>` } },
      },
    });
    expect(withAlt.heroImage?.metadata).toEqual({ width: 10, alt: "Gulls at dawn" });
    expect(
      await outcome(
        updateStory(db, {
          ...ctx,
          input: {
            id: story.id,
            version: withAlt.version,
            heroImage: { s3Key: own, metadata: { alt: "x".repeat(5000) } },
          },
        }),
      ),
    ).toEqual({ code: "BAD_REQUEST", fields: ["heroImage.metadata.alt"] });
  });

  it("accepts external image URLs only on the hosts the account allows", async () => {
    const { db, account, ctx } = await editor();
    const url = "https://images.partner.example/2026/photo.jpg";
    const input = {
      headline: "Partner",
      heroImage: { s3Key: url },
      cards: imageCard("https://cdn.partner.example/a.jpg"),
    };
    expect(await outcome(createStory(db, { ...ctx, input }))).toEqual({
      code: "BAD_REQUEST",
      fields: ["heroImage.s3Key", "cards.0.story-elements.0.image-s3-key"],
    });
    await db.publisherConfig.update({
      where: { accountId: account.id },
      data: { settings: { "external-image-hosts": ["images.partner.example", "*.partner.example"] } },
    });
    expect(await outcome(createStory(db, { ...ctx, input }))).toBe("OK");
  });

  it("keeps an image the story already had, even one from before the rule", async () => {
    const { db, account, ctx } = await editor();
    const legacy = await insertStory(db, account.id, {
      heroImageS3Key: "demo/hero.png",
      status: "DRAFT",
      cards: imageCard("demo/inline.png"),
    });
    const row = await db.story.findUniqueOrThrow({ where: { id: legacy.id } });
    const saved = await updateStory(db, {
      ...ctx,
      input: {
        id: legacy.id,
        version: row.version,
        headline: "Re-saved",
        heroImage: { s3Key: "demo/hero.png" },
        cards: row.cards as unknown as TCard[],
      },
    });
    expect(saved.story.heroImage?.s3Key).toBe("demo/hero.png");
    expect(
      await outcome(
        updateStory(db, {
          ...ctx,
          input: { id: legacy.id, version: saved.story.version, heroImage: { s3Key: "demo/other.png" } },
        }),
      ),
    ).toEqual({ code: "BAD_REQUEST", fields: ["heroImage.s3Key"] });
  });

  it("checks author avatars and image keys in collection and entity metadata", async () => {
    const { db, account, actor } = await editor();
    const other = await createTestPublisher(db);
    const own = await insertImageAsset(db, account.id);
    const theirs = await insertImageAsset(db, other.id);

    expect(await outcome(createAuthor(db, { actor, input: { name: "Ann", avatarS3Key: theirs }, now }))).toEqual({
      code: "BAD_REQUEST",
      fields: ["avatarS3Key"],
    });
    const author = await createAuthor(db, { actor, input: { name: "Ann", avatarS3Key: own }, now });
    expect(
      await outcome(updateAuthor(db, { actor, input: { id: author.id, avatarS3Key: "https://evil.test/a.png" }, now })),
    ).toEqual({ code: "BAD_REQUEST", fields: ["avatarS3Key"] });
    expect((await db.author.findUniqueOrThrow({ where: { id: author.id } })).avatarS3Key).toBe(own);

    const cover = (key: string) => ({ "cover-image": { "cover-image-s3-key": key } });
    expect(
      await outcome(createCollection(db, { actor, input: { name: "Front", metadata: cover(theirs) }, now })),
    ).toEqual({ code: "BAD_REQUEST", fields: ["metadata.cover-image.cover-image-s3-key"] });
    expect(await db.collection.count({ where: { accountId: account.id } })).toBe(0);
    const { collection } = await createCollection(db, { actor, input: { name: "Front", metadata: cover(own) }, now });
    expect(
      await outcome(updateCollection(db, { actor, input: { id: collection.id, metadata: cover(theirs) }, now })),
    ).toEqual({ code: "BAD_REQUEST", fields: ["metadata.cover-image.cover-image-s3-key"] });
    const story = await insertStory(db, account.id);
    expect(
      await outcome(
        setCollectionItems(db, {
          actor,
          input: { id: collection.id, items: [{ storyId: story.id, associatedMetadata: { "hero-s3-key": theirs } }] },
          now,
        }),
      ),
    ).toEqual({ code: "BAD_REQUEST", fields: ["items.0.associatedMetadata.hero-s3-key"] });

    expect(
      await outcome(
        createEntity(db, { actor, input: { name: "Bo", type: "person", metadata: { "photo-s3-key": theirs } }, now }),
      ),
    ).toEqual({ code: "BAD_REQUEST", fields: ["metadata.photo-s3-key"] });
  });
});
