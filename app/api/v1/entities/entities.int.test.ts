import { beforeEach, describe, expect, it } from "vitest";

import { getDb } from "@/server/db";
import type { Db } from "@/server/db/client";
import type { RelationshipEntry } from "@/server/publishing/entities";
import { forgetPublisherCache } from "@/server/publishing/publisher";
import {
  createTestPublisher,
  insertAuthor,
  insertSection,
  insertStory,
  insertTag,
} from "@/server/testing/publishing-factories";
import { callGet as call, readJson as json } from "@/server/testing/route-calls";

import { GET as getCollections } from "../entity/[id]/collections/route";
import { GET as getBare } from "../entity/[id]/route";
import { GET as getRelationships } from "./[id]/[...subentity]/route";
import { GET as getWrapped } from "./[id]/route";
import { GET as listEntities } from "./route";

type WireEntity = Record<string, unknown> & { id: number };
type EntityList = { entities: WireEntity[]; total: number };
type ErrorBody = { error: { code: string } };
type Relationships = { relationships: Record<string, RelationshipEntry[]> & { self: WireEntity } };
type CollectionList = { collections: (Record<string, unknown> & { id: number; slug: string })[]; total: number };
const ids = (list: { id: number }[] | undefined) => (list ?? []).map((e) => e.id);

beforeEach(() => forgetPublisherCache());

const entity = (
  db: Db,
  accountId: number,
  name: string,
  type: string,
  extra: { metadata?: object; deletedAt?: Date } = {},
) =>
  db.entity.create({
    data: {
      accountId,
      name,
      type,
      slug: name.toLowerCase().replace(/\W+/g, "-"),
      metadata: extra.metadata ?? {},
      deletedAt: extra.deletedAt ?? null,
    },
  });
const relate = (db: Db, from: number, relation: string, to: number, rank = 0) =>
  db.entityRelationship.create({ data: { fromEntityId: from, relation, toEntityId: to, rank } });

async function setup() {
  const db = await getDb();
  const publisher = await createTestPublisher(db);
  const other = await createTestPublisher(db, { domain: "other.test", siteUrl: "https://other.test" });
  const club = await entity(db, publisher.id, "Riverside FC", "team", {
    metadata: { founded: 1901, description: "A club", name: "ignored" },
  });
  const ana = await entity(db, publisher.id, "Ana Striker", "person");
  const bo = await entity(db, publisher.id, "Bo Keeper", "person");
  const gone = await entity(db, publisher.id, "Retired Player", "person", { deletedAt: new Date() });
  const city = await entity(db, publisher.id, "Rivertown", "city");
  const foreign = await entity(db, other.id, "Elsewhere United", "team");
  await relate(db, club.id, "players", bo.id, 2);
  await relate(db, club.id, "players", ana.id, 1);
  await relate(db, club.id, "players", gone.id, 0);
  await relate(db, club.id, "home-city", city.id);
  await relate(db, ana.id, "home-city", city.id);
  return { db, publisher, other, club, ana, bo, gone, city, foreign };
}

describe("GET /api/v1/entities", () => {
  it("matches q literally: % and _ are characters of the name, not wildcards", async () => {
    const { db, publisher } = await setup();
    const percent = await entity(db, publisher.id, "100% Fans", "group");
    const underscore = await entity(db, publisher.id, "team_b", "team");
    expect(ids((await json<EntityList>(await call(listEntities, "/api/v1/entities?q=%25"))).entities)).toEqual([
      percent.id,
    ]);
    expect(ids((await json<EntityList>(await call(listEntities, "/api/v1/entities?q=_"))).entities)).toEqual([
      underscore.id,
    ]);
  });

  it("lists live entities by name with total; filters q, type, id, ids; pages", async () => {
    const { club, ana, bo, city } = await setup();
    const res = await call(listEntities, "/api/v1/entities");
    expect(res.status).toBe(200);
    const body = await json<EntityList>(res);
    expect(body.total).toBe(4);
    expect(ids(body.entities)).toEqual([ana.id, bo.id, club.id, city.id]);

    expect(ids((await json<EntityList>(await call(listEntities, "/api/v1/entities?type=person"))).entities)).toEqual([
      ana.id,
      bo.id,
    ]);
    expect(ids((await json<EntityList>(await call(listEntities, "/api/v1/entities?q=river"))).entities)).toEqual([
      club.id,
      city.id,
    ]);
    expect(ids((await json<EntityList>(await call(listEntities, `/api/v1/entities?id=${club.id}`))).entities)).toEqual([
      club.id,
    ]);
    expect(
      ids((await json<EntityList>(await call(listEntities, `/api/v1/entities?ids=${city.id},${ana.id}`))).entities),
    ).toEqual([ana.id, city.id]);
    expect(
      ids(
        (await json<EntityList>(await call(listEntities, `/api/v1/entities?ids[]=${city.id}&ids[]=${bo.id}`))).entities,
      ),
    ).toEqual([bo.id, city.id]);
    const page = await json<EntityList>(await call(listEntities, "/api/v1/entities?limit=2&offset=1"));
    expect(page.total).toBe(4);
    expect(ids(page.entities)).toEqual([bo.id, club.id]);
  });

  it("refuses bad filters and paging with 400", async () => {
    await setup();
    for (const query of ["limit=0", "offset=10001", "offset=x", "id=abc", "ids=1,x", "ids=", "type="]) {
      const res = await call(listEntities, `/api/v1/entities?${query}`);
      expect(res.status, query).toBe(400);
      expect((await json<ErrorBody>(res)).error.code).toBe("BAD_REQUEST");
    }
  });
});

describe("GET /api/v1/entities/<id> and /api/v1/entity/<id>", () => {
  it("answers {entity} and the bare entity with every wire field; metadata also at the top level", async () => {
    const { publisher, club } = await setup();
    const wrapped = await json<{ entity: WireEntity }>(
      await call(getWrapped, `/api/v1/entities/${club.id}`, { id: String(club.id) }),
    );
    expect(wrapped.entity).toMatchObject({
      id: club.id,
      name: "Riverside FC",
      type: "team",
      slug: "riverside-fc",
      "entity-type-id": null,
      "publisher-id": publisher.id,
      "created-by": null,
      "last-updated-by": null,
      "created-at": club.createdAt.getTime(),
      "updated-at": club.updatedAt.getTime(),
      "deleted-at": null,
      founded: 1901,
      description: "A club",
      metadata: { founded: 1901, description: "A club", name: "ignored" },
    });
    const bare = await json<WireEntity>(await call(getBare, `/api/v1/entity/${club.id}`, { id: String(club.id) }));
    expect(bare).toEqual(wrapped.entity);
  });

  it("404 for unknown, deleted and other publishers' entities; 400 for non-integer ids", async () => {
    const { gone, foreign } = await setup();
    for (const handler of [getWrapped, getBare]) {
      for (const id of ["999999", String(gone.id), String(foreign.id)]) {
        const res = await call(handler, `/api/v1/entities/${id}`, { id });
        expect(res.status, id).toBe(404);
        expect((await json<ErrorBody>(res)).error.code).toBe("NOT_FOUND");
      }
      for (const id of ["abc", "1e", "-1"])
        expect((await call(handler, `/api/v1/entities/${id}`, { id })).status, id).toBe(400);
    }
  });
});

describe("GET /api/v1/entities/<id>/<relation>…", () => {
  it("lists a relation by rank, without deleted entities, with self", async () => {
    const { club, ana, bo } = await setup();
    const res = await call(getRelationships, `/api/v1/entities/${club.id}/players`, {
      id: String(club.id),
      subentity: ["players"],
    });
    expect(res.status).toBe(200);
    const body = await json<Relationships>(res);
    expect(body.relationships.self).toMatchObject({ id: club.id, name: "Riverside FC" });
    expect(body.relationships.players).toEqual([
      { id: ana.id, name: "Ana Striker", "entity-type": "person", rank: 1, relationship: "players" },
      { id: bo.id, name: "Bo Keeper", "entity-type": "person", rank: 2, relationship: "players" },
    ]);
    const none = await json<Relationships>(
      await call(getRelationships, "", { id: String(club.id), subentity: ["sponsors"] }),
    );
    expect(none.relationships.sponsors).toEqual([]);
  });

  it("walks nested segments: a relation after a relation, and an id picking one entity", async () => {
    const { club, ana, bo, city } = await setup();
    const chained = await json<Relationships>(
      await call(getRelationships, "", { id: String(club.id), subentity: ["players", "home-city"] }),
    );
    expect(chained.relationships.self.id).toBe(club.id);
    expect(ids(chained.relationships.players)).toEqual([ana.id, bo.id]);
    expect(chained.relationships["home-city"]).toEqual([
      { id: city.id, name: "Rivertown", "entity-type": "city", rank: 0, relationship: "home-city" },
    ]);

    const picked = await json<Relationships>(
      await call(getRelationships, "", { id: String(club.id), subentity: ["players", String(ana.id), "home-city"] }),
    );
    expect(picked.relationships.self.id).toBe(ana.id);
    expect(Object.keys(picked.relationships).sort()).toEqual(["home-city", "self"]);
    expect(ids(picked.relationships["home-city"])).toEqual([city.id]);

    // Bo is a player, but has no home city.
    const empty = await json<Relationships>(
      await call(getRelationships, "", { id: String(club.id), subentity: ["players", String(bo.id), "home-city"] }),
    );
    expect(empty.relationships["home-city"]).toEqual([]);
  });

  it("404 for an unknown start or an id the relation does not lead to; 400 for malformed paths", async () => {
    const { club, city, gone } = await setup();
    expect((await call(getRelationships, "", { id: "999999", subentity: ["players"] })).status).toBe(404);
    expect(
      (await call(getRelationships, "", { id: String(club.id), subentity: ["players", String(city.id)] })).status,
    ).toBe(404);
    expect(
      (await call(getRelationships, "", { id: String(club.id), subentity: ["players", String(gone.id)] })).status,
    ).toBe(404);
    for (const subentity of [
      ["self"],
      [String(city.id)],
      ["players", "1", "2"],
      Array.from({ length: 11 }, () => "players"),
    ]) {
      const res = await call(getRelationships, "", { id: String(club.id), subentity });
      expect(res.status, subentity.join("/")).toBe(400);
    }
    expect((await call(getRelationships, "", { id: "x", subentity: ["players"] })).status).toBe(400);
  });
});

describe("GET /api/v1/entity/<id>/collections", () => {
  it("lists manual collections holding the entity's published stories and automated ones whose rules select them", async () => {
    const { db, publisher, club, ana } = await setup();
    const sport = await insertSection(db, publisher.id, { name: "Sport", withCollection: true });
    const politics = await insertSection(db, publisher.id, { name: "Politics", withCollection: true });
    const tag = await insertTag(db, publisher.id, { name: "derby" });
    const writer = await insertAuthor(db, publisher.id);
    const published = await insertStory(db, publisher.id, {
      sectionIds: [sport.id],
      tagIds: [tag.id],
      authorIds: [writer.id],
    });
    const draft = await insertStory(db, publisher.id, { sectionIds: [politics.id], status: "DRAFT" });
    const unrelated = await insertStory(db, publisher.id, { sectionIds: [politics.id] });
    await db.storyEntity.createMany({
      data: [
        { storyId: published.id, entityId: club.id },
        { storyId: draft.id, entityId: club.id },
      ],
    });

    const mk = (slug: string, data: { automated?: boolean; rules?: object; deletedAt?: Date } = {}) =>
      db.collection.create({
        data: {
          accountId: publisher.id,
          slug,
          name: slug,
          automated: data.automated ?? false,
          rules: data.rules ?? {},
          deletedAt: data.deletedAt ?? null,
        },
      });
    const featured = await mk("featured");
    const draftsOnly = await mk("drafts-only");
    const removed = await mk("removed", { deletedAt: new Date() });
    const unrelatedManual = await mk("unrelated");
    const derby = await mk("derby-tag", { automated: true, rules: { "tag-slugs": ["derby"] } });
    const mismatch = await mk("sport-but-other-author", {
      automated: true,
      rules: { "section-ids": [sport.id], "author-ids": [writer.id + 1000] },
    });
    await db.collectionItem.createMany({
      data: [
        { collectionId: featured.id, position: 0, storyId: published.id },
        { collectionId: draftsOnly.id, position: 0, storyId: draft.id },
        { collectionId: removed.id, position: 0, storyId: published.id },
        { collectionId: unrelatedManual.id, position: 0, storyId: unrelated.id },
      ],
    });

    const res = await call(getCollections, `/api/v1/entity/${club.id}/collections?sort-by=created-at&order=asc`, {
      id: String(club.id),
    });
    expect(res.status).toBe(200);
    const body = await json<CollectionList>(res);
    const sportCollection = (await db.section.findUniqueOrThrow({ where: { id: sport.id } })).collectionId;
    expect(body.total).toBe(3);
    expect(body.collections.map((c: { slug: string }) => c.slug)).toEqual(["section-sport", "featured", "derby-tag"]);
    expect(ids(body.collections).sort()).toEqual([derby.id, featured.id, sportCollection].sort());
    expect(ids(body.collections)).not.toContain(mismatch.id);
    expect(body.collections[2]).toMatchObject({
      id: derby.id,
      slug: "derby-tag",
      automated: true,
      rules: { "tag-slugs": ["derby"] },
      template: "default",
    });

    const page = await json<CollectionList>(
      await call(
        getCollections,
        `/api/v1/entity/${club.id}/collections?sort-by=created-at&order=desc&limit=1&offset=1`,
        { id: String(club.id) },
      ),
    );
    expect(page.total).toBe(3);
    expect(page.collections.map((c: { slug: string }) => c.slug)).toEqual(["featured"]);

    // Ana has no stories at all.
    expect(await json<CollectionList>(await call(getCollections, "", { id: String(ana.id) }))).toEqual({
      collections: [],
      total: 0,
    });
  });

  it("404 for unknown entities, 400 for bad parameters", async () => {
    const { club } = await setup();
    expect((await call(getCollections, "", { id: "999999" })).status).toBe(404);
    expect((await call(getCollections, "/x?sort-by=popularity", { id: String(club.id) })).status).toBe(400);
    expect((await call(getCollections, "/x?order=up", { id: String(club.id) })).status).toBe(400);
    expect((await call(getCollections, "", { id: "abc" })).status).toBe(400);
  });
});
