/**
 * GET …/pages/<id>/comments.events: JSON since a cursor (the widget's polling), or a server-sent
 * events stream through this process's hub (Accept: text/event-stream) that catches up from
 * Last-Event-ID; 404 for a stream of a page nobody has commented on, 400 for a cursor that is
 * not one, 406 for an Accept that rules out both answers. A held comment is never named.
 */
import { afterAll, describe, expect, it } from "vitest";

import { liveHub } from "@/server/engagement/live/instance";
import type { TLivePoll } from "@/server/engagement/live/live.schema";
import { postComment, setupPublisher } from "@/server/testing/comment-calls";
import { call, pageId } from "@/server/testing/engagement";
import { SseReader } from "@/server/testing/sse-reader";

import { GET } from "./route";

const PAGE = "https://news.example.com/live/route-story";
const ADA = { id: "reader-ada", name: "Ada" };

afterAll(async () => (await liveHub()).stop());

const post = (id: string, words: string) => postComment(id, PAGE, ADA, words);

const events = (id: string, headers: Record<string, string> = {}, query = "", url = PAGE) =>
  call(GET, "GET", `/x${query}`, { account_id: id, encoded_url: pageId(url) }, undefined, headers);

async function poll(id: string, since?: string): Promise<TLivePoll> {
  const res = await events(id, {}, since === undefined ? "" : `?since=${since}`);
  expect(res.status).toBe(200);
  expect(res.headers.get("cache-control")).toBe("no-store");
  return (await res.json()) as TLivePoll;
}

describe("a page's comment events", () => {
  it("answer JSON since a cursor: ids and counts, never a held comment", async () => {
    const { db, account, id } = await setupPublisher();
    expect(await poll(id)).toEqual({
      cursor: "0",
      total_count: 0,
      latest_comment_at: null,
      created: [],
      edited: [],
      removed: [],
      resync: false,
    });
    const first = await post(id, "First");
    const start = await poll(id);
    expect(start).toMatchObject({ total_count: 1, created: [], resync: false });
    expect(start.latest_comment_at).not.toBeNull();

    const page = await db.page.findFirstOrThrow({ where: { accountId: account.id } });
    await db.comment.create({
      data: {
        accountId: account.id,
        pageId: page.id,
        authorId: first.author_id,
        body: { ops: [{ insert: "Held\n" }] },
        bodyDigest: "held",
        isPublished: false,
      },
    });
    const second = await post(id, "Second");
    await db.comment.update({ where: { id: first.id }, data: { hiddenAt: new Date() } });
    const after = await poll(id, start.cursor);
    expect(after).toMatchObject({
      created: [second.id],
      edited: [],
      removed: [first.id],
      total_count: 1,
      resync: false,
    });
    expect(await poll(id, after.cursor)).toMatchObject({ created: [], removed: [], cursor: after.cursor });
    expect(await poll(id, "424242")).toMatchObject({ resync: true, created: [] });
  });

  it("stream through the process's hub, catching up from Last-Event-ID", async () => {
    const { id } = await setupPublisher();
    await post(id, "First");
    const first = await events(id, { accept: "text/event-stream" });
    expect(first.status).toBe(200);
    expect(first.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
    expect(first.headers.get("cache-control")).toBe("no-store, no-transform");
    const reader = new SseReader(first.body!);
    const ready = await reader.next();
    expect(ready).toMatchObject({ event: "ready", data: { total_count: 1 } });
    const second = await post(id, "Second");
    const change = await reader.next();
    expect(change).toMatchObject({ event: "change", data: { created: [second.id], total_count: 2 } });
    await reader.cancel();

    const third = await post(id, "Third");
    const back = await events(id, { accept: "text/event-stream", "last-event-id": change.id! });
    const again = new SseReader(back.body!);
    expect((await again.next()).event).toBe("ready");
    expect(await again.next()).toMatchObject({ event: "change", data: { created: [third.id], total_count: 3 } });
    await again.cancel();
  });

  it("refuse what is not a stream of a page, or not a cursor", async () => {
    const { id } = await setupPublisher();
    const none = await events(id, { accept: "text/event-stream" }, "", "https://news.example.com/nobody-here");
    expect(none.status).toBe(404);
    expect(((await none.json()) as { error: { code: string } }).error.code).toBe("NOT_FOUND");
    const badHeader = await events(id, { accept: "text/event-stream", "last-event-id": "yesterday" });
    expect(badHeader.status).toBe(400);
    expect(((await badHeader.json()) as { error: { details: { field: string }[] } }).error.details[0]!.field).toBe(
      "headers.last-event-id",
    );
    expect((await events(id, {}, "?since=-1")).status).toBe(400);
    expect((await events(id, { accept: "text/html" })).status).toBe(406);
    expect((await call(GET, "GET", "/x", { account_id: id, encoded_url: "%%%" })).status).toBe(400);
  });
});
