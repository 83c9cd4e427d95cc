import { describe, expect, it } from "vitest";

import { getDb } from "@/server/db";
import { createPreviewLink, getPreviewStory } from "@/server/publishing/editorial/preview";
import { signPreviewToken } from "@/server/publishing/editorial/preview-token";
import { transitionStory } from "@/server/publishing/editorial/stories/moves";
import { createStory, updateStory } from "@/server/publishing/editorial/stories/write";
import { createTestPublisher, insertAuthor, textCards } from "@/server/testing/publishing-factories";
import { insertEditor } from "@/server/testing/staff";

import { GET as ampPreview } from "./amp/route";
import { GET as articlePreview } from "./route";

const APP_URL = "http://localhost:3000";

async function get(handler: typeof articlePreview, url: string) {
  const token = new URL(url).pathname.split("/")[2]!;
  const response = await handler(new Request(url), { params: Promise.resolve({ token }) });
  return { response, text: await response.text() };
}

async function draft() {
  const db = await getDb();
  const account = await createTestPublisher(db, { siteUrl: "https://news.example.com" });
  const actor = await insertEditor(db, account.id);
  const author = await insertAuthor(db, account.id, { name: "Rita Reporter" });
  const { story } = await createStory(db, {
    actor,
    now: new Date(),
    appUrl: APP_URL,
    input: {
      headline: "Secret draft & plans",
      subheadline: "Not out yet",
      authorIds: [author.id],
      cards: textCards("First <b>saved</b> paragraph"),
    },
  });
  return { db, account, actor, story };
}

function expectPrivate(response: Response) {
  expect(response.headers.get("cache-control")).toContain("no-store");
  expect(response.headers.get("x-robots-tag")).toContain("noindex");
}

describe("story preview links", () => {
  it("show the current saved draft as a plain article and as AMP, privately, to whoever has the link", async () => {
    const { db, actor, story } = await draft();
    const link = await createPreviewLink(db, { actor, storyId: story.id, now: new Date(), appUrl: APP_URL });
    expect(link.url).toMatch(/^http:\/\/localhost:3000\/preview\/[0-9a-f-]{36}\.\d+\.[\w-]{43}$/);
    expect(link.ampUrl).toBe(`${link.url}/amp`);
    expect(link.expiresAt.getTime() - Date.now()).toBeGreaterThan(23 * 3600_000);

    const article = await get(articlePreview, link.url);
    expect(article.response.status).toBe(200);
    expect(article.response.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(article.response.headers.get("content-security-policy")).toContain("default-src 'none'");
    expectPrivate(article.response);
    expect(article.text).toContain("<h1>Secret draft &amp; plans</h1>");
    expect(article.text).toContain("By Rita Reporter");
    expect(article.text).toContain("First <b>saved</b> paragraph");
    expect(article.text).toContain('<meta name="robots" content="noindex, nofollow">');
    expect(article.text).toMatch(/Preview of a draft story \(version 1\)/);

    // The link shows what is saved now, not what was saved when it was made.
    await updateStory(db, {
      actor,
      now: new Date(),
      appUrl: APP_URL,
      input: { id: story.id, version: 1, cards: textCards("Rewritten paragraph") },
    });
    const again = await get(articlePreview, link.url);
    expect(again.text).toContain("Rewritten paragraph");
    expect(again.text).not.toContain("First <b>saved</b>");

    const amp = await get(ampPreview, link.ampUrl);
    expect(amp.response.status).toBe(200);
    expectPrivate(amp.response);
    expect(amp.text).toMatch(/^<!doctype html>\s*<html ⚡/i);
    expect(amp.text).toContain("Rewritten paragraph");
    expect(amp.text).toMatch(/<meta charset="utf-8">\n<meta name="robots" content="noindex, nofollow">/);
  });

  it("refuses an expired link with 410 and a forged or malformed one with 404, showing nothing of the story", async () => {
    const { story } = await draft();
    const expired = signPreviewToken(story.id, new Date(Date.now() - 1000));
    const gone = await get(articlePreview, `${APP_URL}/preview/${expired}`);
    expect(gone.response.status).toBe(410);
    expect(gone.text).toContain("expired");
    expect(gone.text).not.toContain("Secret draft");
    expectPrivate(gone.response);

    const good = signPreviewToken(story.id, new Date(Date.now() + 60_000));
    const [id, expiry, signature] = good.split(".");
    for (const token of [`${id}.${Number(expiry) + 1}.${signature}`, "nonsense", `${id}.${expiry}.${"A".repeat(43)}`]) {
      for (const handler of [articlePreview, ampPreview]) {
        const { response, text } = await get(handler, `${APP_URL}/preview/${encodeURIComponent(token)}`);
        expect(response.status).toBe(404);
        expect(text).not.toContain("Secret draft");
      }
    }
  });

  it("calls a published story published, not 'not public', and keeps an Instagram embed as a link", async () => {
    const { db, actor, story } = await draft();
    const cards = textCards("Words");
    cards[0]!["story-elements"].push({
      id: "00000000-0000-4000-8000-0000000000aa",
      type: "jsembed",
      subtype: "instagram",
      url: "https://www.instagram.com/p/C0ffee/",
      metadata: {},
    } as unknown as (typeof cards)[0]["story-elements"][0]);
    await updateStory(db, { actor, now: new Date(), appUrl: APP_URL, input: { id: story.id, version: 1, cards } });
    for (const action of ["submit", "approve", "publish"] as const) {
      const current = await db.story.findUniqueOrThrow({ where: { id: story.id } });
      await transitionStory(db, {
        actor,
        now: new Date(),
        appUrl: APP_URL,
        input: { id: story.id, version: current.version, action },
      });
    }
    const link = await createPreviewLink(db, { actor, storyId: story.id, now: new Date(), appUrl: APP_URL });
    const { text } = await get(articlePreview, link.url);
    expect(text).toMatch(/Preview of a published story \(version 5\)[^<]*: readers see this version\./);
    expect(text).not.toContain("not public");
    expect(text).toContain('<a href="https://www.instagram.com/p/C0ffee/">View this post on Instagram</a>');
  });

  it("opens the publication's own preview page when the account has one; its front end reads the draft by token", async () => {
    const { db, account, actor, story } = await draft();
    const plain = await createPreviewLink(db, { actor, storyId: story.id, now: new Date(), appUrl: APP_URL });
    expect(plain.frontEndUrl).toBeNull();
    await db.account.update({
      where: { id: account.id },
      data: { previewUrl: "https://news.example.com/preview/{slug}?token={token}" },
    });
    const link = await createPreviewLink(db, { actor, storyId: story.id, now: new Date(), appUrl: APP_URL });
    const token = new URL(link.url).pathname.split("/")[2]!;
    expect(link.frontEndUrl).toBe(
      `https://news.example.com/preview/${encodeURIComponent(story.slug)}?token=${encodeURIComponent(token)}`,
    );

    const answer = await getPreviewStory(db, {
      ctx: { accountId: account.id, view: { publisherId: account.id, siteUrl: "https://news.example.com" } },
      token,
      now: new Date(),
    });
    expect(answer).toMatchObject({ id: story.id, headline: "Secret draft & plans", status: "draft" });
    // Another publication's content API does not serve it; an expired token is GONE.
    const other = await createTestPublisher(db);
    await expect(
      getPreviewStory(db, {
        ctx: { accountId: other.id, view: { publisherId: other.id, siteUrl: "https://x.test" } },
        token,
        now: new Date(),
      }),
    ).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(
      getPreviewStory(db, {
        ctx: { accountId: account.id, view: { publisherId: account.id, siteUrl: "https://news.example.com" } },
        token,
        now: new Date(Date.now() + 25 * 3600_000),
      }),
    ).rejects.toMatchObject({ code: "GONE" });
  });

  it("only makes links for the editor's own account's stories", async () => {
    const { db, story } = await draft();
    const stranger = await insertEditor(db, (await createTestPublisher(db)).id);
    await expect(
      createPreviewLink(db, { actor: stranger, storyId: story.id, now: new Date(), appUrl: APP_URL }),
    ).rejects.toMatchObject({ code: "NOT_FOUND" });
  });
});
