import { describe, expect, it } from "vitest";

import { getDb } from "@/server/db";
import { createMemberSession } from "@/server/members/sessions";
import { NO_PARAMS, readJson, seedNewsroom, withParams } from "@/server/testing/newsroom-fixture";

import * as storiesRssRoute from "../../stories.rss/route";
import * as instantArticlesRoute from "../instant-articles.rss/route";
import * as memberLoginRoute from "../member/login/route";
import * as memberMetadataRoute from "../member/metadata/route";
import * as memberResetRoute from "../member/password/reset/route";
import * as memberSignupRoute from "../member/route";
import * as advancedSearchRoute from "./advanced-search/route";
import * as ampStoryRoute from "./amp/story/route";
import * as authorsRoute from "./authors/route";
import * as bulkRoute from "./bulk/route";
import * as collectionRoute from "./collections/[slug]/route";
import * as entityRelationsRoute from "./entities/[id]/[...subentity]/route";
import * as entitiesRoute from "./entities/route";
import * as searchRoute from "./search/route";
import * as bySlugRoute from "./stories-by-slug/route";
import * as storiesRoute from "./stories/route";
import * as byExternalIdRoute from "./story-by-external-id/[externalId]/route";
import * as tagRoute from "./tags/[slug]/route";

type Handler = (
  req: Request,
  ctx: { params: Promise<Record<string, string | string[] | undefined>> },
) => Promise<Response>;
type ErrorBody = { error: { code: string; details?: { field: string; issue: string }[] } };

const NUL = "\u0000";
const get = (path: string) => new Request(`http://localhost${path}`);
const post = (path: string, body: unknown) =>
  new Request(`http://localhost${path}`, {
    method: "POST",
    body: JSON.stringify(body),
    headers: { "content-type": "application/json" },
  });

/** PostgreSQL text cannot hold U+0000: a NUL in any text a client sends is its mistake (400), never a database error (500). */
describe("a NUL character in client input", () => {
  const cases: [string, Handler, Request, Record<string, string | string[]>?][] = [
    ["stories section", storiesRoute.GET, get("/api/v1/stories?section=a%00")],
    ["stories tag", storiesRoute.GET, get("/api/v1/stories?tag=a%00")],
    ["stories template", storiesRoute.GET, get("/api/v1/stories?template=a%00")],
    ["story by slug", bySlugRoute.GET, get("/api/v1/stories-by-slug?slug=a%00")],
    [
      "story by external id",
      byExternalIdRoute.GET,
      get("/api/v1/story-by-external-id/a%00"),
      { externalId: `a${NUL}` },
    ],
    ["search q", searchRoute.GET, get("/api/v1/search?q=a%00")],
    ["search author", searchRoute.GET, get("/api/v1/search?author=a%00")],
    ["advanced search q", advancedSearchRoute.GET, get("/api/v1/advanced-search?q=a%00")],
    ["collection slug", collectionRoute.GET, get("/api/v1/collections/a%00"), { slug: `a${NUL}` }],
    ["tag slug", tagRoute.GET, get("/api/v1/tags/a%00"), { slug: `a${NUL}` }],
    ["authors q", authorsRoute.GET, get("/api/v1/authors?q=a%00")],
    ["entities q", entitiesRoute.GET, get("/api/v1/entities?q=a%00")],
    ["entities type", entitiesRoute.GET, get("/api/v1/entities?type=a%00")],
    ["entity relation", entityRelationsRoute.GET, get("/api/v1/entities/1/a%00"), { id: "1", subentity: [`a${NUL}`] }],
    ["amp story slug", ampStoryRoute.GET, get("/api/v1/amp/story?slug=a%00")],
    ["rss section", storiesRssRoute.GET, get("/stories.rss?section=a%00")],
    ["rss tag", storiesRssRoute.GET, get("/stories.rss?tag=a%00")],
    ["instant articles section", instantArticlesRoute.GET, get("/api/instant-articles.rss?section=a%00")],
    [
      "bulk collection slug",
      bulkRoute.POST,
      post("/api/v1/bulk", { requests: { a: { _type: "collection", slug: `a${NUL}` } } }),
    ],
    [
      "bulk stories section",
      bulkRoute.POST,
      post("/api/v1/bulk", { requests: { a: { _type: "stories", section: `a${NUL}` } } }),
    ],
    [
      "member login e-mail",
      memberLoginRoute.POST,
      post("/api/member/login", { email: `a${NUL}@example.com`, password: "password123" }),
    ],
    [
      "member login username",
      memberLoginRoute.POST,
      post("/api/member/login", { username: `a${NUL}`, password: "password123" }),
    ],
    [
      "member sign-up name",
      memberSignupRoute.POST,
      post("/api/member", { name: `A${NUL}`, email: "a@example.com", password: "password123" }),
    ],
    [
      "member reset token",
      memberResetRoute.POST,
      post("/api/member/password/reset", { token: `a${NUL}`, password: "password123" }),
    ],
  ];

  for (const [name, handler, req, params] of cases) {
    it(`${name}: 400 naming the field`, async () => {
      await seedNewsroom(await getDb());
      const res = await handler(req, params ? withParams(params as Record<string, string>) : NO_PARAMS);
      expect(res.status).toBe(400);
      const body = await readJson<ErrorBody>(res);
      expect(body.error.code).toBe("BAD_REQUEST");
      expect(body.error.details?.some((d) => d.issue.includes("NUL"))).toBe(true);
    });
  }

  it("member metadata: a NUL in a key or a nested value is a 400 for a member, and never reaches the database", async () => {
    const db = await getDb();
    const { account } = await seedNewsroom(db);
    const member = await db.member.create({
      data: { accountId: account.id, name: "Reader", email: "nul@example.com", passwordHash: "x", source: "email" },
    });
    const { token } = await createMemberSession(db, { memberId: member.id, now: new Date(), days: 1 });
    for (const metadata of [{ [`a${NUL}`]: 1 }, { a: { b: [`x${NUL}`] } }]) {
      const signedIn = post("/api/member/metadata", metadata);
      signedIn.headers.set("X-QT-AUTH", token);
      const res = await memberMetadataRoute.POST(signedIn, NO_PARAMS);
      expect(res.status).toBe(400);
      // Signed out, the session check answers first (401): still never a 500.
      expect((await memberMetadataRoute.POST(post("/api/member/metadata", metadata), NO_PARAMS)).status).toBe(401);
    }
    expect((await db.member.findUniqueOrThrow({ where: { id: member.id } })).metadata).toEqual({});
  });
});
