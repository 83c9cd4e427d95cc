import { beforeEach, describe, expect, it } from "vitest";

import { getDb } from "@/server/db";
import { forgetPublisherCache } from "@/server/publishing/publisher";
import { createTestPublisher, insertTag } from "@/server/testing/publishing-factories";

import { GET } from "./route";

const get = (slug: string, headers: Record<string, string> = {}) =>
  GET(
    new Request(`http://localhost/api/v1/tags/${encodeURIComponent(slug)}`, {
      headers: { host: "localhost", ...headers },
    }),
    { params: Promise.resolve({ slug }) },
  );

beforeEach(() => forgetPublisherCache());

describe("GET /api/v1/tags/<slug>", () => {
  it("answers {tags:[tag]} for the host's tag; 404 for unknown slugs and other publishers' tags", async () => {
    const db = await getDb();
    const publisher = await createTestPublisher(db);
    const other = await createTestPublisher(db, { domain: "other.test" });
    const tag = await insertTag(db, publisher.id, { name: "Climate Change", slug: "climate-change" });
    await db.tag.update({ where: { id: tag.id }, data: { metaDescription: "Warming, in depth." } });
    await insertTag(db, other.id, { name: "Elsewhere", slug: "elsewhere" });

    const res = await get("climate-change");
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-tag")).toBe(`t/${tag.id}`);
    expect(await res.json()).toEqual({
      tags: [{ id: tag.id, name: "Climate Change", slug: "climate-change", "meta-description": "Warming, in depth." }],
    });

    for (const slug of ["no-such-tag", "elsewhere"]) {
      const missing = await get(slug);
      expect(missing.status, slug).toBe(404);
      expect(((await missing.json()) as { error: { code: string } }).error.code).toBe("NOT_FOUND");
    }
    expect((await get("elsewhere", { host: "other.test" })).status).toBe(200);
  });

  it("refuses an over-long slug with 400", async () => {
    const db = await getDb();
    await createTestPublisher(db);
    expect((await get("x".repeat(201))).status).toBe(400);
  });
});
