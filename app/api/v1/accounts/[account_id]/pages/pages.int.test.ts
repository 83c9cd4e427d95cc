/** GET /api/v1/accounts/{id}/pages?page_ids=…: visible comments per page, in the order asked. */
import { describe, expect, it } from "vitest";

import { getDb } from "@/server/db";
import { call, pageId, readerJwt } from "@/server/testing/engagement";
import { createTestPublisher } from "@/server/testing/publishing-factories";

import { POST as CREATE } from "./[encoded_url]/comments.json/route";
import { GET } from "./route";

const A = "https://news.example.com/a";
const B = "https://news.example.com/b?x=1";

async function setup() {
  const db = await getDb();
  const account = await createTestPublisher(db);
  const id = String(account.id);
  const jwt = await readerJwt();
  for (const [url, insert] of [
    [A, "1"],
    [A, "2"],
    [B, "3"],
  ] as const) {
    const res = await call(
      CREATE,
      "POST",
      "/x",
      { account_id: id, encoded_url: pageId(url) },
      { comment: { body: { ops: [{ insert }] } }, jwt },
    );
    expect(res.status).toBe(201);
  }
  return { db, id };
}

const counts = (id: string, query: string) =>
  call(GET, "GET", `/api/v1/accounts/${id}/pages?${query}`, { account_id: id });

describe("GET pages?page_ids=", () => {
  it("answers counts in the order asked, unknown pages 0, either encoding (btoa's + read from a space too)", async () => {
    const { db, id } = await setup();
    const hidden = await db.comment.findFirstOrThrow({ where: { page: { url: B } } });
    await db.comment.update({ where: { id: hidden.id }, data: { deletedAt: new Date() } });
    const unknown = "https://news.example.com/none";
    const ids = [btoa(A), pageId(unknown), pageId(B)].join(",");
    const res = await counts(id, `page_ids=${encodeURIComponent(ids)}`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual([
      { url: A, comments_count: 2 },
      { url: unknown, comments_count: 0 },
      { url: B, comments_count: 0 },
    ]);
    // As a real client sends it: btoa(location.href) straight into the query string.
    const raw = btoa("https://news.example.com/a?>>>"); // holds a "+"
    expect(raw).toContain("+");
    const plain = await counts(id, `page_ids=${raw}`);
    expect(plain.status).toBe(200);
    expect(await db.page.count()).toBe(2);
  });

  it("refuses bad ids naming the field, more than 100 ids, and an unknown account", async () => {
    const { id } = await setup();
    const bad = await counts(id, `page_ids=${pageId(A)},%25%25`);
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { details: { field: string }[] } }).error.details[0]!.field).toBe(
      "query.page_ids.1",
    );
    expect((await counts(id, `page_ids=${Array.from({ length: 101 }, () => pageId(A)).join(",")}`)).status).toBe(400);
    expect((await counts(id, "")).status).toBe(400);
    expect((await counts("424242", `page_ids=${pageId(A)}`)).status).toBe(404);
  });
});
