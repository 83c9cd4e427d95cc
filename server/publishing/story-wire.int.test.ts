/**
 * The wire forms kept beside stories (story-wire.ts): kept at the first read, read from then on, and
 * never read again once the story or anything the form shows has changed, whoever changed it.
 * A kept form is marked by writing its headline straight into story_wires: a read that answers
 * the mark read the kept form; one that answers the story's own headline built it afresh.
 */
import { describe, expect, it } from "vitest";

import { getDb } from "@/server/db";
import type { Db } from "@/server/db/client";
import { toJsonText } from "@/server/json-text";
import {
  createTestPublisher,
  insertAuthor,
  insertSection,
  insertStory,
  insertTag,
} from "@/server/testing/publishing-factories";

import { formBuiltFor, keepWireForms, readWireStories, readWireStoriesByIds, readWireStoryBy } from "./story-wire";

const SITE = "https://news.example.com";
const MARK = "(read from the kept form)";

async function setup() {
  const db = await getDb();
  const account = await createTestPublisher(db, { siteUrl: SITE });
  const view = { publisherId: account.id, siteUrl: SITE };
  const section = await insertSection(db, account.id, { withCollection: true });
  const [first, second] = [await insertAuthor(db, account.id), await insertAuthor(db, account.id)];
  const tag = await insertTag(db, account.id);
  const entity = await db.entity.create({ data: { accountId: account.id, name: "Ada Lovelace", type: "person" } });
  const story = await insertStory(db, account.id, {
    sectionIds: [section.id],
    authorIds: [first.id, second.id],
    tagIds: [tag.id],
  });
  await db.storyEntity.create({ data: { storyId: story.id, entityId: entity.id } });
  const other = await insertStory(db, account.id);
  const read = async (id = story.id) => (await readWireStoriesByIds(db, view, [id]))[0]!;
  /** Reads the story (keeping its form) and marks the kept form. */
  const readAndMark = async (id = story.id) => {
    await read(id);
    const marked = await db.$executeRaw`
      UPDATE story_wires SET body = jsonb_set(body::jsonb, '{headline}', to_jsonb(${MARK}::text))::text
       WHERE story_id = ${id}::uuid`;
    expect(marked).toBe(1);
    expect((await read(id)).headline).toBe(MARK);
  };
  return { db, account, view, section, first, second, tag, entity, story, other, read, readAndMark };
}

const kept = async (db: Db, storyId: string) =>
  db.storyWire.findUnique({ where: { storyId }, select: { formSeq: true, builtFor: true } });
const versionOf = async (db: Db, storyId: string) =>
  (await db.storyWire.findUnique({ where: { storyId }, select: { currentSeq: true } }))?.currentSeq ?? 0;

// eslint-disable-next-line max-lines-per-function -- a describe block of short cases that share its setup
describe("story wire forms", () => {
  it("are kept at the first read and read from then on, with the votes merged at each read", async () => {
    const { db, story, read, readAndMark } = await setup();
    expect((await kept(db, story.id))?.formSeq ?? null).toBeNull();
    const built = await read();
    expect(await kept(db, story.id)).toEqual({ formSeq: await versionOf(db, story.id), builtFor: formBuiltFor(SITE) });
    expect(built).toMatchObject({ id: story.id, headline: story.headline, votes: 0 });

    await readAndMark();
    await db.storyVoteTotal.create({ data: { storyId: story.id, up: 3, down: 1 } });
    expect(await read()).toMatchObject({ headline: MARK, votes: 2 });
  });

  it("answer the same story whether kept or built, projected to the fields asked for", async () => {
    const { db, view, story } = await setup();
    const built = (await readWireStoriesByIds(db, view, [story.id]))[0];
    const fromKept = (await readWireStoriesByIds(db, view, [story.id]))[0];
    expect(fromKept).toEqual(built);
    // Sent as the kept text, exactly what serialising the story gives, votes last.
    const text = toJsonText({ story: fromKept });
    expect(text).toBe(JSON.stringify({ story: { ...fromKept } }));
    expect(text).toBe(toJsonText({ story: built }));
    expect(text.endsWith(',"votes":0}}')).toBe(true);
    expect((await readWireStoriesByIds(db, view, [story.id], ["headline", "votes"]))[0]).toEqual({
      id: story.id,
      headline: story.headline,
      votes: 0,
    });
    expect(await readWireStoryBy(db, view, { slug: story.slug })).toEqual(built);
  });

  it("are kept as ASCII JSON text that reads back every character of the story", async () => {
    const { db, account, view } = await setup();
    const headline = "Café — “quoted” 日本 😀 \u2028 end";
    const story = await insertStory(db, account.id, { headline, slug: "non-ascii-story" });
    const built = (await readWireStoriesByIds(db, view, [story.id]))[0]!;
    const row = await db.storyWire.findUnique({ where: { storyId: story.id }, select: { body: true } });
    expect(row?.body).toMatch(/^[\x00-\x7e]+$/);
    expect((JSON.parse(row!.body!) as { headline: string }).headline).toBe(headline);
    const fromKept = (await readWireStoriesByIds(db, view, [story.id]))[0]!;
    expect(fromKept.headline).toBe(headline);
    expect(built).toEqual(fromKept);
    const text = toJsonText({ story: fromKept, note: "ß→" });
    expect(text).toMatch(/^[\x00-\x7e]+$/);
    expect(JSON.parse(text)).toEqual({ story: JSON.parse(JSON.stringify({ ...fromKept })) as unknown, note: "ß→" });
  });

  it("are built again after any change to the story's row or its links", async () => {
    const { db, account, story, first, second, tag, section, entity, read, readAndMark } = await setup();
    const otherTag = await insertTag(db, account.id);
    const changes: [string, () => Promise<unknown>, (wire: Record<string, unknown>) => void][] = [
      [
        "its row",
        () => db.story.update({ where: { id: story.id }, data: { summary: "Now with a summary" } }),
        (w) => expect(w.summary).toBe("Now with a summary"),
      ],
      [
        "a tag added",
        () => db.storyTag.create({ data: { storyId: story.id, tagId: otherTag.id, position: 1 } }),
        (w) => expect((w.tags as { id: number }[]).map((t) => t.id)).toEqual([tag.id, otherTag.id]),
      ],
      [
        "its authors reordered",
        () =>
          db.storyAuthor.update({
            where: { storyId_authorId: { storyId: story.id, authorId: first.id } },
            data: { position: 5 },
          }),
        (w) => expect(w["author-id"]).toBe(second.id),
      ],
      [
        "a section removed",
        () => db.storySection.deleteMany({ where: { storyId: story.id, sectionId: section.id } }),
        (w) => expect(w.sections).toEqual([]),
      ],
      [
        "an entity removed",
        () => db.storyEntity.deleteMany({ where: { storyId: story.id, entityId: entity.id } }),
        (w) => expect(w.entities).toEqual([]),
      ],
    ];
    for (const [what, change, check] of changes) {
      await readAndMark();
      await change();
      const wire = await read();
      expect(wire.headline, what).toBe(story.headline);
      check(wire);
    }
  });

  it("are built again for the stories that show a renamed author, section, collection, tag or entity, and only those", async () => {
    const { db, story, other, first, section, tag, entity, read, readAndMark } = await setup();
    const collectionId = section.collectionId!;
    const renames: [string, () => Promise<unknown>, (wire: Record<string, unknown>) => unknown, unknown][] = [
      [
        "author",
        () => db.author.update({ where: { id: first.id }, data: { name: "Renamed Author" } }),
        (w) => w["author-name"],
        "Renamed Author",
      ],
      [
        "section",
        () => db.section.update({ where: { id: section.id }, data: { displayName: "Renamed Section" } }),
        (w) => (w.sections as { "display-name": string }[])[0]!["display-name"],
        "Renamed Section",
      ],
      [
        "collection",
        () => db.collection.update({ where: { id: collectionId }, data: { name: "Renamed Collection" } }),
        (w) => (w.sections as { collection: { name: string } }[])[0]!.collection.name,
        "Renamed Collection",
      ],
      [
        "tag",
        () => db.tag.update({ where: { id: tag.id }, data: { slug: "renamed-tag" } }),
        (w) => (w.tags as { slug: string }[])[0]!.slug,
        "renamed-tag",
      ],
      [
        "entity",
        () => db.entity.update({ where: { id: entity.id }, data: { name: "Renamed Entity" } }),
        (w) => (w.entities as { name: string }[])[0]!.name,
        "Renamed Entity",
      ],
    ];
    for (const [what, rename, shown, expected] of renames) {
      await readAndMark();
      await readAndMark(other.id);
      await rename();
      const wire = await read();
      expect(wire.headline, what).toBe(story.headline);
      expect(shown(wire), what).toBe(expected);
      expect((await read(other.id)).headline, `${what}: a story that does not show it`).toBe(MARK);
    }

    // What the form does not show changes nothing: an author's e-mail, a collection's summary.
    await readAndMark();
    await db.author.update({ where: { id: first.id }, data: { email: "author@example.com" } });
    await db.collection.update({ where: { id: collectionId }, data: { summary: "Not in the story" } });
    expect((await read()).headline).toBe(MARK);
  });

  it("are built again for another site URL or in another wire shape, and dropped with their story", async () => {
    const { db, view, story, readAndMark } = await setup();
    await readAndMark();
    const moved = (await readWireStoriesByIds(db, { ...view, siteUrl: "https://moved.example.com" }, [story.id]))[0]!;
    expect(moved.headline).toBe(story.headline);
    expect(moved.url).toBe(`https://moved.example.com/${story.slug}`);
    expect(await kept(db, story.id)).toMatchObject({ builtFor: formBuiltFor("https://moved.example.com") });
    // A form of another version of the wire shape is built again too.
    await readAndMark();
    await db.storyWire.update({ where: { storyId: story.id }, data: { builtFor: `v0 ${SITE}` } });
    expect((await readWireStoriesByIds(db, view, [story.id]))[0]!.headline).toBe(story.headline);
    expect(await kept(db, story.id)).toMatchObject({ builtFor: formBuiltFor(SITE) });
    await db.story.delete({ where: { id: story.id } });
    expect(await kept(db, story.id)).toBeNull();
    expect(await db.storyWire.count({ where: { storyId: story.id } })).toBe(0);
  });

  it("are never kept from an older state of the story, nor over a newer form", async () => {
    const { db, view, story, read } = await setup();
    const before = await versionOf(db, story.id);
    await db.story.update({ where: { id: story.id }, data: { headline: "Newer headline" } });
    expect(await versionOf(db, story.id)).toBeGreaterThan(before);
    // A form built before the update, kept after it: not kept.
    await keepWireForms(db, formBuiltFor(SITE), [
      { id: story.id, seq: before, body: JSON.stringify({ id: story.id, headline: "stale" }) },
    ]);
    expect(await kept(db, story.id)).toMatchObject({ formSeq: null });

    expect((await read()).headline).toBe("Newer headline");
    const current = await kept(db, story.id);
    // An older form arriving after the newer one was kept replaces nothing.
    await keepWireForms(db, formBuiltFor(SITE), [
      { id: story.id, seq: before, body: JSON.stringify({ id: story.id, headline: "stale" }) },
    ]);
    expect(await kept(db, story.id)).toEqual(current);
    expect((await read()).headline).toBe("Newer headline");
    expect((await readWireStories(db, view, { where: { id: story.id } }))[0]!.headline).toBe("Newer headline");
  });

  it("leave out stories that are not the publisher's published ones", async () => {
    const { db, view, account, story } = await setup();
    const draft = await insertStory(db, account.id, { status: "DRAFT" });
    const elsewhere = await insertStory(db, (await createTestPublisher(db)).id);
    const read = await readWireStoriesByIds(db, view, [draft.id, story.id, elsewhere.id]);
    expect(read.map((s) => s.id)).toEqual([story.id]);
    expect((await kept(db, draft.id))?.formSeq ?? null).toBeNull();
  });
});
