/**
 * Hostile HTML and links saved in the dashboard and read through the content API: every
 * HTML-bearing field of every element type and of the hero image comes back sanitised, with its
 * safe markup kept.
 */
import { randomUUID } from "node:crypto";

import { describe, expect, it } from "vitest";

import { staffActor } from "@/server/auth/actor";
import { getDb } from "@/server/db";
import type { TCard, TStoryElement } from "@/server/publishing/cards.schema";
import { transitionStory } from "@/server/publishing/editorial/stories/moves";
import { createStory as saveStory } from "@/server/publishing/editorial/stories/write";
import { hostileChunks, SAFE_HTML, unsafeStrings } from "@/server/testing/hostile-html";
import { readJson, withParams } from "@/server/testing/newsroom-fixture";
import { createTestPublisher, insertImageAsset } from "@/server/testing/publishing-factories";
import type { Story } from "@/server/testing/stories-api";

import * as storyRoute from "./[storyId]/route";

describe("hostile HTML and links: saved in the dashboard, read through the API", () => {
  it("sanitises every HTML-bearing field of every element type and of the hero image, keeping safe markup", async () => {
    const db = await getDb();
    const account = await createTestPublisher(db, { siteUrl: "https://news.example.com" });
    const user = await db.adminUser.create({
      data: { accountId: account.id, email: "ed@hostile.test", name: "Ed", roles: ["EDITOR"], passwordHash: "x" },
    });
    const ctx = { actor: staffActor(user), now: new Date(), appUrl: "http://localhost:3000" };
    const element = (type: TStoryElement["type"], extra: Partial<TStoryElement>): TStoryElement => ({
      id: randomUUID(),
      type,
      subtype: null,
      metadata: {},
      ...extra,
    });
    // Image keys must be the account's own uploads.
    const [elementImage, heroImage] = [await insertImageAsset(db, account.id), await insertImageAsset(db, account.id)];
    // Every field gets every snippet: the shortest limit (500, attributions) sets the chunk size.
    for (const hostile of hostileChunks(500 - SAFE_HTML.length - 1)) {
      const html = `${SAFE_HTML}\n${hostile}`;
      const elements: TStoryElement[] = [
        element("text", { text: html }),
        element("title", { text: html }),
        element("summary", { text: html }),
        element("quote", { text: html, metadata: { attribution: html } }),
        element("blockquote", { text: html, metadata: { content: html, attribution: html } }),
        element("image", {
          "image-s3-key": elementImage,
          title: html,
          description: html,
          "image-attribution": html,
          metadata: { caption: html },
        }),
        element("youtube-video", {
          url: "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
          title: html,
          description: html,
        }),
        element("jsembed", {
          subtype: "tweet",
          url: "https://x.com/NASA/status/1790000000000000000",
          "embed-js": Buffer.from(html).toString("base64"),
          metadata: { provider: "twitter", content: html },
        }),
        // Element types: a big fact, a gallery (HTML inside its images), a file, an embed.
        element("bigfact", { text: html, metadata: { attribution: html } }),
        element("composite", {
          subtype: "image-gallery",
          "story-elements": [element("image", { "image-s3-key": elementImage, title: html, metadata: { alt: html } })],
        }),
        element("file", { subtype: "attachment", "file-url": "https://example.org/f.pdf", "file-name": html }),
        element("jsembed", { subtype: "instagram", "embed-js": Buffer.from(html).toString("base64") }),
      ];
      const cards = [{ id: randomUUID(), status: "draft", version: 1, metadata: {}, "story-elements": elements }];
      const saved = await saveStory(db, {
        ...ctx,
        input: {
          headline: "Hostile input",
          cards,
          heroImage: { s3Key: heroImage, caption: html, attribution: html },
        },
      });
      let version = saved.story.version;
      for (const action of ["submit", "approve", "publish"] as const)
        version = (await transitionStory(db, { ...ctx, input: { id: saved.story.id, version, action } })).story.version;

      const res = await storyRoute.GET(
        new Request(`http://localhost/api/v1/stories/${saved.story.id}`),
        withParams({ storyId: saved.story.id }),
      );
      expect(res.status).toBe(200);
      const { story } = await readJson<{ story: Story }>(res);
      const rendered = {
        cards: story.cards,
        "hero-image-caption": story["hero-image-caption"],
        "hero-image-attribution": story["hero-image-attribution"],
      };
      expect(unsafeStrings(rendered), hostile).toEqual([]);
      const returned = (story.cards as TCard[])[0]!["story-elements"];
      expect(returned.map((e) => e.type)).toEqual(elements.map((e) => e.type));
      for (const text of [
        returned[0]!.text,
        returned[3]!.text,
        returned[4]!.metadata.content,
        story["hero-image-caption"],
      ]) {
        expect(text).toContain('<a href="https://example.org/ok">ok</a>');
        expect(text).toContain('<a href="mailto:desk@example.org">mail</a>');
        expect(text).toContain("<strong>bold</strong>");
      }
    }
  });
});
