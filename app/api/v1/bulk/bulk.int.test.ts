import { randomBytes } from "node:crypto";
import { deflateRawSync } from "node:zlib";

import { describe, expect, it } from "vitest";

import { getDb } from "@/server/db";
import { NO_PARAMS, readJson, seedCollections, seedNewsroom, withParams } from "@/server/testing/newsroom-fixture";

import * as bulkRequestKeyRoute from "../bulk-request/[key]/route";
import * as bulkRequestRoute from "../bulk-request/route";
import * as bulkRoute from "./route";

type Results = {
  results: Record<
    string,
    {
      stories?: { id: string }[];
      items?: { id: string | number; type: string; slug?: string; story?: Record<string, unknown> }[];
    } | null
  >;
};
type ErrorBody = { error: { code: string; details?: { field: string; issue: string }[] } };

const post = (handler: typeof bulkRoute.POST, body: string, contentType = "application/json") =>
  handler(
    new Request("http://localhost/api/v1/bulk", { method: "POST", headers: { "Content-Type": contentType }, body }),
    NO_PARAMS,
  );
const getKey = (location: string, headers: Record<string, string> = {}) => {
  const key = location.replace("/api/v1/bulk-request/", "");
  return bulkRequestKeyRoute.GET(new Request(`http://localhost${location}`, { headers }), withParams({ key }));
};

function requestsFor(sportId: number) {
  return {
    home: { _type: "collection", slug: "home", limit: 3, "story-fields": "headline,slug" },
    latest: { _type: "stories", limit: "2", fields: "headline" },
    sport: { "story-group": "top", "section-id": sportId },
    budget: { _type: "stories", tag: "budget" },
    missing: { _type: "collection", slug: "no-such-collection" },
  };
}

describe("POST /api/v1/bulk", () => {
  it("answers every named request: collections and story lists, published stories only", async () => {
    const db = await getDb();
    const n = await seedNewsroom(db);
    await seedCollections(db, n);
    const res = await post(bulkRoute.POST, JSON.stringify({ requests: requestsFor(n.sections.sport.id) }));
    expect(res.status).toBe(200);
    const { results } = await readJson<Results>(res);
    expect(Object.keys(results).sort()).toEqual(["budget", "home", "latest", "missing", "sport"]);
    expect(results.home!.items!.map((i) => i.id)).toEqual([
      n.stories.budgetVote.id,
      expect.any(Number),
      n.stories.cupFinal.id,
    ]);
    expect(results.home!.items![0]!.story).toEqual({
      id: n.stories.budgetVote.id,
      headline: "Parliament passes the budget",
      slug: "politics/2026/parliament-passes-the-budget",
    });
    expect(results.latest!.stories).toEqual([
      { id: n.stories.budgetVote.id, headline: "Parliament passes the budget" },
      { id: n.stories.pollsOpen.id, headline: "Polls open across the country" },
    ]);
    expect(results.sport!.stories!.map((s) => s.id)).toEqual([n.stories.cupFinal.id]);
    expect(results.budget!.stories!.map((s) => s.id)).toEqual([n.stories.budgetVote.id, n.stories.cupFinal.id]);
    expect(results.missing).toBeNull();
    const text = JSON.stringify(results);
    for (const hidden of n.unpublished) expect(text).not.toContain(hidden.id);
  });

  it("takes JSON sent as text/plain; refuses other types, bad JSON and bad requests with details", async () => {
    const db = await getDb();
    const n = await seedNewsroom(db);
    const body = JSON.stringify({ requests: { latest: { limit: 1 } } });
    const plain = await post(bulkRoute.POST, body, "text/plain");
    expect(plain.status).toBe(200);
    expect((await readJson<Results>(plain)).results.latest!.stories!.map((s) => s.id)).toEqual([
      n.stories.budgetVote.id,
    ]);
    expect((await post(bulkRoute.POST, body, "application/xml")).status).toBe(415);
    expect((await post(bulkRoute.POST, '{"requests":')).status).toBe(400);
    const cases: [unknown, string][] = [
      [{}, "body.requests"],
      [{ requests: [] }, "body.requests"],
      [{ requests: { a: { _type: "stories", limit: "abc" } } }, "body.requests.a.limit"],
      [{ requests: { a: { _type: "movies" } } }, "body.requests.a"],
      [{ requests: { a: { _type: "collection" } } }, "body.requests.a.slug"],
      [{ requests: { a: { "not-story-content-ids": "x" } } }, "body.requests.a.not-story-content-ids"],
      [
        { requests: Object.fromEntries(Array.from({ length: 26 }, (_, i) => [`r${i}`, { limit: 1 }])) },
        "body.requests",
      ],
    ];
    for (const [payload, field] of cases) {
      const res = await post(bulkRoute.POST, JSON.stringify(payload));
      expect(res.status, JSON.stringify(payload).slice(0, 80)).toBe(400);
      const error = await readJson<ErrorBody>(res);
      expect(
        error.error.details?.some((d) => d.field === field || d.field.startsWith(`${field}.`)),
        field,
      ).toBe(true);
    }
  });
});

describe("POST /api/v1/bulk-request → 303 → GET /api/v1/bulk-request/{key}", () => {
  it("redirects to a relative, stable location whose GET answers the same results as POST /bulk", async () => {
    const db = await getDb();
    const n = await seedNewsroom(db);
    await seedCollections(db, n);
    const requests = requestsFor(n.sections.sport.id);
    const res = await post(bulkRequestRoute.POST, JSON.stringify({ requests }), "text/plain");
    expect(res.status).toBe(303);
    const location = res.headers.get("location")!;
    expect(location).toMatch(/^\/api\/v1\/bulk-request\/[A-Za-z0-9_-]+$/);
    // Same requests in another key order, as JSON: the same location.
    const reordered = Object.fromEntries(
      Object.entries(requests)
        .reverse()
        .map(([k, v]) => [k, Object.fromEntries(Object.entries(v).reverse())]),
    );
    const again = await post(bulkRequestRoute.POST, JSON.stringify({ requests: reordered }));
    expect(again.headers.get("location")).toBe(location);

    const got = await getKey(location);
    expect(got.status).toBe(200);
    expect(got.headers.get("cache-control")).toContain("s-maxage");
    expect(got.headers.get("surrogate-key")).toContain(`s/${n.stories.cupFinal.id}`);
    const direct = await post(bulkRoute.POST, JSON.stringify({ requests }));
    expect(await readJson(got)).toEqual(await readJson(direct));
    expect((await getKey(location, { "If-None-Match": got.headers.get("etag")! })).status).toBe(304);
  });

  it("validates before redirecting, refuses requests too big for a URL, and 400s keys that are not ours", async () => {
    const db = await getDb();
    await seedNewsroom(db);
    const bad = await post(bulkRequestRoute.POST, JSON.stringify({ requests: { a: { limit: "many" } } }), "text/plain");
    expect(bad.status).toBe(400);
    expect(bad.headers.get("location")).toBeNull();
    // Incompressible: 25 requests with random names and slugs.
    const huge = Object.fromEntries(
      Array.from({ length: 25 }, () => [
        randomBytes(100).toString("base64url"),
        { _type: "collection", slug: randomBytes(210).toString("base64url") },
      ]),
    );
    const tooBig = await post(bulkRequestRoute.POST, JSON.stringify({ requests: huge }));
    expect(tooBig.status).toBe(413);
    expect((await post(bulkRoute.POST, JSON.stringify({ requests: huge }))).status).toBe(200);

    expect((await getKey("/api/v1/bulk-request/not$a$key")).status).toBe(400);
    expect((await getKey("/api/v1/bulk-request/AAAAAAAA")).status).toBe(400);
    const forged = deflateRawSync(Buffer.from(JSON.stringify({ a: { _type: "stories", limit: "lots" } }))).toString(
      "base64url",
    );
    const forgedRes = await getKey(`/api/v1/bulk-request/${forged}`);
    expect(forgedRes.status).toBe(400);
    expect((await readJson<ErrorBody>(forgedRes)).error.details?.[0]?.field).toBe("params.key.requests.a.limit");
    const get = await bulkRequestRoute.GET(new Request("http://localhost/api/v1/bulk-request"), NO_PARAMS);
    expect(get.status).toBe(405);
  });

  it("refuses a request nested too deep with 400, on both routes, not 500", async () => {
    await seedNewsroom(await getDb());
    const body = `{"requests":{"a":{"_type":"stories","x":${"[".repeat(20_000)}${"]".repeat(20_000)}}}}`;
    for (const handler of [bulkRoute.POST, bulkRequestRoute.POST]) {
      const res = await post(handler, body);
      expect(res.status).toBe(400);
      // The input guard (server/validation.ts) names where the nesting goes too deep: inside request "a".
      const detail = (await readJson<ErrorBody>(res)).error.details?.[0];
      expect(detail?.field).toMatch(/^body\.requests\.a\.x\./);
      expect(detail?.issue).toBe("nests deeper than 64 levels");
    }
  });
});
