import { beforeEach, describe, expect, it } from "vitest";

import { getDb } from "@/server/db";
import { forgetPublisherCache } from "@/server/publishing/publisher";
import { createTestPublisher } from "@/server/testing/publishing-factories";

import { GET } from "./route";

/** As the real client calls it: the path URL-encoded into one segment. */
const get = (rawPath: string, headers: Record<string, string> = {}) =>
  GET(new Request(`http://localhost/api/v1/custom-urls/${rawPath}`, { headers: { host: "localhost", ...headers } }), {
    params: Promise.resolve({ path: rawPath.split("/").map((s) => decodeURIComponent(s)) }),
  });
type Page = { page: Record<string, unknown> };

beforeEach(() => forgetPublisherCache());

async function setup() {
  const db = await getDb();
  const publisher = await createTestPublisher(db);
  const other = await createTestPublisher(db, { domain: "other.test" });
  const redirect = await db.customUrl.create({
    data: {
      accountId: publisher.id,
      sourcePath: "/old/page",
      type: "redirect",
      statusCode: 301,
      destinationPath: "/news/new-page",
    },
  });
  const about = await db.customUrl.create({
    data: {
      accountId: publisher.id,
      sourcePath: "/about us",
      type: "static-page",
      statusCode: 200,
      title: "About us",
      content: "<h1>Who we are</h1>",
      metadata: { header: true, footer: false, "mime-type": "text/html" },
    },
  });
  await db.customUrl.create({
    data: { accountId: other.id, sourcePath: "/theirs", type: "redirect", destinationPath: "/x" },
  });
  return { redirect, about };
}

describe("GET /api/v1/custom-urls/<path>", () => {
  it("finds a redirect by its encoded path, as @quintype/backend sends it", async () => {
    const { redirect } = await setup();
    const res = await get(encodeURIComponent("/old/page"));
    expect(res.status).toBe(200);
    expect(res.headers.get("surrogate-key")).toContain(`sp/${redirect.id}`);
    const body = (await res.json()) as Page;
    expect(body.page).toMatchObject({
      id: redirect.id,
      type: "redirect",
      "status-code": 301,
      "destination-path": "/news/new-page",
      title: null,
      content: null,
      metadata: {},
    });
  });

  it("takes the path unencoded or without its leading slash, and ignores a trailing slash", async () => {
    const { redirect, about } = await setup();
    for (const raw of ["old/page", encodeURIComponent("old/page"), encodeURIComponent("/old/page/"), "old/page/"]) {
      const res = await get(raw);
      expect(res.status, raw).toBe(200);
      expect(((await res.json()) as Page).page.id).toBe(redirect.id);
    }
    const page = (await (await get(encodeURIComponent("/about us"))).json()) as Page;
    expect(page.page).toMatchObject({
      id: about.id,
      type: "static-page",
      "status-code": 200,
      title: "About us",
      content: "<h1>Who we are</h1>",
      metadata: { header: true, footer: false, "mime-type": "text/html" },
    });
  });

  it("404 for unknown paths and other publishers' paths; 400 for broken encoding or control characters", async () => {
    await setup();
    for (const raw of [
      encodeURIComponent("/nothing-here"),
      encodeURIComponent("/theirs"),
      encodeURIComponent("/old"),
    ]) {
      const res = await get(raw);
      expect(res.status, raw).toBe(404);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe("NOT_FOUND");
    }
    expect((await get(encodeURIComponent("/theirs"), { host: "other.test" })).status).toBe(200);
    const bad = await GET(
      new Request("http://localhost/api/v1/custom-urls/%E0%A4%A", { headers: { host: "localhost" } }),
      { params: Promise.resolve({ path: ["x"] }) },
    );
    expect(bad.status).toBe(400);
    expect((await get(encodeURIComponent("/a\u0000b"))).status).toBe(400);
    expect((await get(encodeURIComponent("/" + "a".repeat(2100)))).status).toBe(400);
  });
});
