// The real @quintype/backend client against the reference reads (authors, entities, tags, config,
// AMP config, menu groups, custom URLs), over real HTTP (server/testing/content-server.ts).
import * as backend from "@quintype/backend";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";

import { getDb } from "@/server/db";
import { forgetPublisherCache } from "@/server/publishing/publisher";
import {
  CONTENT_ROUTES,
  startContentServer,
  type ContentRoute,
  type ContentServer,
} from "@/server/testing/content-server";
import {
  createTestPublisher,
  insertAuthor,
  insertSection,
  insertStory,
  insertTag,
} from "@/server/testing/publishing-factories";

import * as authorsBare from "../authors/route";
import * as ampConfig from "./amp/config/route";
import * as authorCollection from "./authors/[authorId]/collection/route";
import * as author from "./authors/[authorId]/route";
import * as authors from "./authors/route";
import * as customUrls from "./custom-urls/[...path]/route";
import * as entityRelationships from "./entities/[id]/[...subentity]/route";
import * as entityWrapped from "./entities/[id]/route";
import * as entities from "./entities/route";
import * as entityCollections from "./entity/[id]/collections/route";
import * as entity from "./entity/[id]/route";
import * as menuGroups from "./menu-groups/route";
import * as tags from "./tags/[slug]/route";

// The wrappers of @quintype/backend 2.7.0 these endpoints serve (untyped JavaScript).
type Json = Record<string, unknown>;
type Wrapped = Json & { asJson(): Json };
type EntityObject = Wrapped & { getCollections(client: backend.Client, params?: Json): Promise<Wrapped[]> };
type ReferenceApi = {
  Author: {
    getAuthors(client: backend.Client, params?: Json): Promise<Wrapped[]>;
    getAuthor(client: backend.Client, id: number | string): Promise<Wrapped | null>;
    getAuthorCollection(
      client: backend.Client,
      id: number | string,
      params?: Json,
    ): Promise<(Json & { items: { type: string; story: Json }[] }) | null>;
  };
  Entity: {
    getEntities(client: backend.Client, params?: Json): Promise<Wrapped[]>;
    getEntity(client: backend.Client, id: number): Promise<EntityObject>;
  };
  CustomPath: { getCustomPathData(client: backend.Client, path: string): Promise<Wrapped | undefined> };
  MenuGroups: {
    getMenuGroups(
      client: backend.Client,
    ): Promise<{ getMenuGroup(slug: string): (Json & { items: Json[] }) | undefined }>;
  };
  AmpConfig: { getAmpConfig(client: backend.Client): Promise<Wrapped> };
};
type ConfigObject = Wrapped & {
  getDomainSections(domain?: string): Json[];
  getHomeCollectionSlug(domain?: string): string;
};
type RawClient = backend.Client & { getTags(slug: string): Promise<Json>; getEntity(id: number): Promise<Json> };
const { Author, Entity, CustomPath, MenuGroups, AmpConfig } = backend as unknown as ReferenceApi;

const ROUTES: ContentRoute[] = [
  { pattern: /^\/api\/authors$/, module: authorsBare },
  { pattern: /^\/api\/v1\/authors$/, module: authors },
  { pattern: /^\/api\/v1\/authors\/(?<authorId>[^/]+)\/collection$/, module: authorCollection },
  { pattern: /^\/api\/v1\/authors\/(?<authorId>[^/]+)$/, module: author },
  { pattern: /^\/api\/v1\/entities$/, module: entities },
  { pattern: /^\/api\/v1\/entities\/(?<id>[^/]+)$/, module: entityWrapped },
  { pattern: /^\/api\/v1\/entities\/(?<id>[^/]+)\/(?<subentity>.+)$/, module: entityRelationships },
  { pattern: /^\/api\/v1\/entity\/(?<id>[^/]+)\/collections$/, module: entityCollections },
  { pattern: /^\/api\/v1\/entity\/(?<id>[^/]+)$/, module: entity },
  { pattern: /^\/api\/v1\/tags\/(?<slug>[^/]+)$/, module: tags },
  { pattern: /^\/api\/v1\/amp\/config$/, module: ampConfig },
  { pattern: /^\/api\/v1\/menu-groups$/, module: menuGroups },
  { pattern: /^\/api\/v1\/custom-urls\/(?<path>.+)$/, module: customUrls },
  ...CONTENT_ROUTES,
];

let server: ContentServer;

beforeAll(async () => {
  server = await startContentServer(ROUTES);
  // The client logs every non-2xx ("Error in API …") before its 404 handling turns it into null.
  vi.spyOn(console, "error").mockImplementation(() => undefined);
});
afterAll(async () => {
  vi.restoreAllMocks();
  await server.close();
});
beforeEach(() => forgetPublisherCache());

async function setup() {
  const db = await getDb();
  // The test server is reached as 127.0.0.1: make that the publisher's domain.
  const publisher = await createTestPublisher(db, { domain: "127.0.0.1" });
  const section = await insertSection(db, publisher.id, { name: "Politics", slug: "politics", withCollection: true });
  const ada = await insertAuthor(db, publisher.id, { name: "Ada Lovelace" });
  const bob = await insertAuthor(db, publisher.id, { name: "Bob Writer" });
  const story = await insertStory(db, publisher.id, {
    headline: "Budget passes",
    sectionIds: [section.id],
    authorIds: [ada.id],
  });
  await insertStory(db, publisher.id, { headline: "Draft budget", authorIds: [ada.id], status: "DRAFT" });
  await insertTag(db, publisher.id, { name: "Budget", slug: "budget" });
  const party = await db.entity.create({
    data: { accountId: publisher.id, name: "Green Party", type: "party", metadata: { colour: "green" } },
  });
  const leader = await db.entity.create({ data: { accountId: publisher.id, name: "Pat Leader", type: "person" } });
  await db.entityRelationship.create({ data: { fromEntityId: party.id, relation: "leaders", toEntityId: leader.id } });
  await db.storyEntity.create({ data: { storyId: story.id, entityId: party.id } });
  await db.customUrl.create({
    data: {
      accountId: publisher.id,
      sourcePath: "/old-budget",
      type: "redirect",
      statusCode: 301,
      destinationPath: "/politics/budget-passes",
    },
  });
  return {
    publisher,
    section,
    ada,
    bob,
    story,
    party,
    leader,
    client: new backend.Client(server.baseUrl, true) as RawClient,
  };
}

describe("@quintype/backend against the reference reads", () => {
  it("reads the config, its sections and home collection slug", async () => {
    const { publisher, section, client } = await setup();
    const config = (await client.getConfig()) as ConfigObject;
    expect(config["publisher-id"]).toBe(publisher.id);
    expect(config["sketches-host"]).toBe("https://news.example.com");
    expect(config.getDomainSections(undefined).map((s) => s.id)).toEqual([section.id]);
    expect(config.getHomeCollectionSlug(undefined)).toBe("home");
  });

  it("lists authors (bare array), reads one (404 → null) and an author's collection of published stories", async () => {
    const { ada, bob, story, client } = await setup();
    const list = await Author.getAuthors(client, { limit: 10 });
    expect(list.map((a) => a.asJson().id)).toEqual([ada.id, bob.id]);
    expect((await Author.getAuthor(client, ada.id))!.name).toBe("Ada Lovelace");
    expect(await Author.getAuthor(client, 999999)).toBeNull();
    const collection = await Author.getAuthorCollection(client, ada.id, { limit: 5 });
    expect(collection!.items.map((i) => i.story.id)).toEqual([story.id]);
    expect(await Author.getAuthorCollection(client, 999999)).toBeNull();
  });

  it("lists entities, reads one from /api/v1/entity/<id> and its collections", async () => {
    const { party, leader, section, client } = await setup();
    const list = await Entity.getEntities(client, { type: "party" });
    expect(list.map((e) => e.asJson().name)).toEqual(["Green Party"]);
    const one = await Entity.getEntity(client, party.id);
    expect(one.name).toBe("Green Party");
    expect(one.colour).toBe("green");
    const collections = await one.getCollections(client, { limit: 10 });
    expect(collections.map((c) => c.slug)).toEqual(["section-politics"]);
    expect(collections[0]!.id).toBe(section.collectionId);
    const relationships = (await client.request(`/api/v1/entities/${party.id}/leaders`)) as {
      relationships: { leaders: Json[] };
    };
    expect(relationships.relationships.leaders).toEqual([
      { id: leader.id, name: "Pat Leader", "entity-type": "person", rank: 0, relationship: "leaders" },
    ]);
  });

  it("reads tags, menu groups, the AMP config and custom URLs (404 → undefined)", async () => {
    const { section, client } = await setup();
    expect(await client.getTags("budget")).toMatchObject({ tags: [{ slug: "budget", name: "Budget" }] });
    const groups = await MenuGroups.getMenuGroups(client);
    expect(groups.getMenuGroup("default")!.items.map((i) => i["section-id"])).toEqual([section.id]);
    const amp = await AmpConfig.getAmpConfig(client);
    expect(amp.asJson()).toMatchObject({
      fonts: { primary: { family: expect.any(String) as string }, secondary: { family: expect.any(String) as string } },
    });
    const page = await CustomPath.getCustomPathData(client, "/old-budget");
    expect(page!.asJson()).toMatchObject({
      type: "redirect",
      "status-code": 301,
      "destination-path": "/politics/budget-passes",
    });
    expect((await CustomPath.getCustomPathData(client, "old-budget"))!.asJson().type).toBe("redirect");
    expect(await CustomPath.getCustomPathData(client, "/nowhere")).toBeUndefined();
    expect(server.requests.some((r) => r.path === "/api/v1/custom-urls/%2Fold-budget")).toBe(true);
  });
});
