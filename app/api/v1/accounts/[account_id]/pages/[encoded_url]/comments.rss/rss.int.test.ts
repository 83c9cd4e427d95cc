/**
 * GET …/pages/<id>/comments.rss: the page's newest visible comments as RSS 2.0, XML-escaped,
 * hidden and held comments absent, 404 for an unknown page, kept in the response cache until a
 * comment write purges the "comments" key.
 */
import { describe, expect, it } from "vitest";

import { ownWritesHeard } from "@/server/cache/process-cache";
import { getDb } from "@/server/db";
import { hideComment, postComment, setupPublisher } from "@/server/testing/comment-calls";
import { call, pageId } from "@/server/testing/engagement";
import { enableResponseCache } from "@/server/testing/response-cache";

import { GET } from "./route";

const PAGE = "https://news.example.com/politics/a-story";
const ADA = { id: "reader-ada", name: "Ada <admin>" };

enableResponseCache();

const post = (id: string, words: string) => postComment(id, PAGE, ADA, words);

async function rss(id: string, url = PAGE) {
  await ownWritesHeard(await getDb());
  return call(GET, "GET", "/x", { account_id: id, encoded_url: pageId(url) });
}

describe("the comments' RSS feed", () => {
  it("lists visible comments newest first, escaped, each linking to the comment on its page", async () => {
    const { db, account, id } = await setupPublisher();
    const first = await post(id, "Tom & Jerry <script>alert(1)</script>");
    const hidden = await post(id, "Hidden words");
    const held = await post(id, "Held words");
    await db.comment.update({ where: { id: held.id }, data: { isPublished: false } });
    const hide = await hideComment(id, PAGE, hidden.id, ADA);
    expect(hide.status).toBe(200);
    const last = await post(id, "Newest");
    const res = await rss(id);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/rss+xml; charset=utf-8");
    expect(res.headers.get("surrogate-key")).toBe("comments");
    const xml = await res.text();
    expect(xml).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<rss version="2.0"/);
    expect(xml).not.toContain("<script>");
    expect(xml).toContain("<description>Tom &amp; Jerry &lt;script&gt;alert(1)&lt;/script&gt;</description>");
    expect(xml).toContain("<title>Ada &lt;admin&gt; commented on https://news.example.com/politics/a-story</title>");
    expect(xml).toContain(`<link>${PAGE}#comment-${first.id}</link>`);
    expect(xml).toContain(`<guid isPermaLink="false">masthead-comment-${account.id}-${last.id}</guid>`);
    expect(xml).not.toContain("Hidden words");
    expect(xml).not.toContain("Held words");
    expect(xml.indexOf("Newest")).toBeLessThan(xml.indexOf("Tom &amp; Jerry"));
  });

  it("is kept until a comment is written, then built again with it", async () => {
    const { id } = await setupPublisher();
    await post(id, "One");
    expect((await rss(id)).headers.get("x-cache")).toBe("MISS");
    expect((await rss(id)).headers.get("x-cache")).toBe("HIT");
    await post(id, "Two");
    const res = await rss(id);
    expect(res.headers.get("x-cache")).toBe("MISS");
    expect(await res.text()).toContain("<description>Two</description>");
  });

  it("holds the newest 50", async () => {
    const { db, account, id } = await setupPublisher();
    const first = await post(id, "seed");
    const page = await db.page.findFirstOrThrow({ where: { accountId: account.id } });
    await db.comment.createMany({
      data: Array.from({ length: 60 }, (_, i) => ({
        accountId: account.id,
        pageId: page.id,
        authorId: first.author_id,
        body: { ops: [{ insert: `n${i}\n` }] },
        bodyDigest: `d${i}`,
        createdAt: new Date(Date.UTC(2030, 0, 1, 0, i)),
      })),
    });
    const xml = await (await rss(id)).text();
    expect(xml.match(/<item>/g)).toHaveLength(50);
    expect(xml).toContain("<description>n59</description>");
    expect(xml).not.toContain("<description>n9</description>");
  });

  it("is 404 for a page nobody commented on, and 400 for a bad page id", async () => {
    const { id } = await setupPublisher();
    const res = await rss(id, "https://news.example.com/nothing-here");
    expect(res.status).toBe(404);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe("NOT_FOUND");
    const bad = await call(GET, "GET", "/x", { account_id: id, encoded_url: "%%%" });
    expect(bad.status).toBe(400);
  });
});
