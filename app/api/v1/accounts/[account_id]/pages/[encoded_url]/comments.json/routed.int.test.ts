/**
 * A page's comments and the comment counts through serve.mjs's static route (/api/routed,
 * server/http/edge.js ROUTED_PATHS): the same answers as the route files give, for posts, lists,
 * counts and every kind of refusal; the page id decoded as Next.js decodes it.
 */
import { describe, expect, it } from "vitest";

import * as ROUTED from "@/app/api/routed/route";
import { getDb } from "@/server/db";
import type { TCommentWire } from "@/server/engagement/comments.schema";
import { call, pageId, readerJwt } from "@/server/testing/engagement";
import { createTestPublisher } from "@/server/testing/publishing-factories";
import { callRouted } from "@/server/testing/routed";

import { GET as COUNTS } from "../../route";
import * as COMMENTS from "./route";

// A URL whose page id holds "+" and ends in "=" (sent as %2B and %3D).
const URL_A = "https://news.example.com/2026/11/story-~~~~";
const URL_B = "https://news.example.com/2026/11/b-story";

async function setup() {
  const db = await getDb();
  const account = await createTestPublisher(db);
  return { db, account, id: String(account.id) };
}

const commentsPath = (id: string, b64: string) =>
  `/api/v1/accounts/${id}/pages/${encodeURIComponent(b64)}/comments.json`;
const answer = async (res: Response) => ({ status: res.status, body: (await res.json()) as unknown });

describe("comments through serve.mjs's static route (/api/routed)", () => {
  it("posts, lists and counts as the route files do", async () => {
    const { db, id } = await setup();
    const b64 = pageId(URL_A);
    expect(b64).toMatch(/\+.*=$/);
    const jwt = await readerJwt({ id: "routed-1", name: "Ada" });
    const body = (text: string) => JSON.stringify({ comment: { body: { ops: [{ insert: text }] } }, jwt });
    const params = { account_id: id, encoded_url: b64 };

    const viaRoute = await call(
      COMMENTS.POST,
      "POST",
      commentsPath(id, b64),
      params,
      JSON.parse(body("First")) as object,
    );
    const first = await answer(viaRoute);
    expect(first.status).toBe(201);
    const routed = await callRouted(ROUTED, "POST", commentsPath(id, b64), {
      body: body("Second"),
      headers: { "content-type": "application/json" },
    });
    const second = await answer(routed);
    expect(second.status).toBe(201);
    // The same page (the parameter decoded) and author, the counts after each post, the same fields.
    const [a, b] = [first.body, second.body] as { comment: TCommentWire; total_count: number }[];
    expect(b!.comment).toMatchObject({ page_id: a!.comment.page_id, author: a!.comment.author });
    expect(b!.comment.body).toEqual({ ops: [{ insert: "Second\n" }] });
    expect([a!.total_count, b!.total_count]).toEqual([1, 2]);
    expect(Object.keys(b!).sort()).toEqual(Object.keys(a!).sort());
    expect(Object.keys(b!.comment).sort()).toEqual(Object.keys(a!.comment).sort());
    expect(await db.comment.count()).toBe(2);

    // The list, with and without a query, and with the jwt (my_reactions).
    for (const query of ["", "?sort_order=oldest&parent_comments_limit=1", `?jwt=${jwt}`]) {
      const direct = await answer(await call(COMMENTS.GET, "GET", commentsPath(id, b64) + query, params));
      expect(direct.status).toBe(200);
      expect(await answer(await callRouted(ROUTED, "GET", commentsPath(id, b64) + query))).toEqual(direct);
    }

    // The counts, short and long (100 page ids, carried in the ticket).
    const counts = (ids: string[]) => `/api/v1/accounts/${id}/pages?page_ids=${ids.map(encodeURIComponent).join(",")}`;
    for (const ids of [
      [b64, pageId(URL_B)],
      Array.from({ length: 100 }, (_, n) => (n % 2 ? b64 : pageId(`${URL_B}${n}`))),
    ]) {
      const direct = await answer(await call(COUNTS, "GET", counts(ids), { account_id: id }));
      expect(direct.status).toBe(200);
      expect((direct.body as { comments_count: number }[])[0]).toMatchObject({
        comments_count: expect.any(Number) as number,
      });
      expect(await answer(await callRouted(ROUTED, "GET", counts(ids)))).toEqual(direct);
    }
  });

  it("refuses as the route files do: no jwt, a bad page id, bad input, an unknown account, a method not served", async () => {
    const { id } = await setup();
    const jwt = await readerJwt({ id: "routed-2", name: "Bo" });
    const b64 = pageId(URL_B);
    const json = { "content-type": "application/json" };
    const cases: { method: "GET" | "POST" | "PUT"; target: string; params: Record<string, string>; body?: object }[] = [
      { method: "POST", target: commentsPath(id, b64), params: { account_id: id, encoded_url: b64 }, body: {} },
      {
        method: "POST",
        target: commentsPath(id, b64),
        params: { account_id: id, encoded_url: b64 },
        body: { comment: { body: { ops: [] } }, jwt },
      },
      {
        method: "POST",
        target: commentsPath(id, "not base64!"),
        params: { account_id: id, encoded_url: "not base64!" },
        body: { comment: { body: { ops: [{ insert: "Hi" }] } }, jwt },
      },
      {
        method: "GET",
        target: `${commentsPath(id, b64)}?sort_order=sideways`,
        params: { account_id: id, encoded_url: b64 },
      },
      { method: "GET", target: commentsPath("999999", b64), params: { account_id: "999999", encoded_url: b64 } },
      { method: "PUT", target: commentsPath(id, b64), params: { account_id: id, encoded_url: b64 }, body: {} },
      { method: "GET", target: `/api/v1/accounts/${id}/pages`, params: { account_id: id } },
    ];
    for (const c of cases) {
      const handler = c.target.endsWith("/pages") ? COUNTS : COMMENTS[c.method];
      const expected = await answer(await call(handler, c.method, c.target, c.params, c.body));
      expect(expected.status, c.target).toBeGreaterThanOrEqual(400);
      expect(expected.status, c.target).toBeLessThan(500);
      const routed = await callRouted(ROUTED, c.method, c.target, {
        ...(c.body ? { body: JSON.stringify(c.body), headers: json } : {}),
      });
      expect(await answer(routed), `${c.method} ${c.target}`).toEqual(expected);
      if (c.method === "PUT") expect(routed.headers.get("allow")).toBe("GET, POST, HEAD, OPTIONS");
    }
    // A CORS preflight, as the route answers it.
    const preflight = await callRouted(ROUTED, "OPTIONS", commentsPath(id, b64), {
      headers: { origin: "https://news.example.com", "access-control-request-method": "POST" },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-methods")).toContain("POST");
  });
});
