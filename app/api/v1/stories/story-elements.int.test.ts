// Every element type the dashboard's card editor writes, saved through the dashboard's API (tRPC
// stories.create) and read through the content API (GET /api/v1/stories/<id>): the same shape.
import { randomUUID } from "node:crypto";

import { describe, expect, it } from "vitest";

import { getDb } from "@/server/db";
import type { TCard, TStoryElement } from "@/server/publishing/cards.schema";
import { readJson, withParams } from "@/server/testing/newsroom-fixture";
import { createTestPublisher, insertImageAsset } from "@/server/testing/publishing-factories";
import { createTestStaff } from "@/server/testing/staff";

import * as storyRoute from "./[storyId]/route";

const element = (type: TStoryElement["type"], extra: Partial<TStoryElement> = {}): TStoryElement => ({
  id: randomUUID(),
  type,
  subtype: null,
  metadata: {},
  ...extra,
});

describe("every story element type, written in the dashboard and read through the content API", () => {
  it("comes back in the shape it was saved, with the derived fields", async () => {
    const db = await getDb();
    const account = await createTestPublisher(db, { siteUrl: "https://news.example.com" });
    const { caller: editor } = await createTestStaff(db, { account: account.id, roles: ["EDITOR"] });
    const [one, two, three] = [
      await insertImageAsset(db, account.id),
      await insertImageAsset(db, account.id),
      await insertImageAsset(db, account.id),
    ];
    const instagramCode =
      '<blockquote class="instagram-media"><a href="https://www.instagram.com/p/abc/">Post</a></blockquote>';
    const saved: TStoryElement[] = [
      element("title", { text: "Floods &amp; the city" }),
      element("summary", { text: "What happened, in short." }),
      element("text", {
        text: '<h2>Morning</h2><p><strong>Rain</strong> and <em>wind</em>: <a href="https://example.org/">more</a></p><ul><li><p>one</p></li></ul><ol><li><p>two</p></li></ol><blockquote><p>said</p></blockquote><h3>Later</h3><p>a<br />b</p>',
      }),
      element("quote", { text: "We were ready.", metadata: { attribution: "The mayor" } }),
      element("blockquote", {
        text: "Water rose by a metre.",
        metadata: { content: "", attribution: "The river authority" },
      }),
      element("bigfact", { text: "1.2 m", metadata: { content: "", attribution: "Gauge at the bridge" } }),
      element("image", {
        "image-s3-key": one,
        title: "The high street",
        "image-attribution": "Photo: A. Lens",
        "image-metadata": { width: 10, height: 10, "mime-type": "image/png", "focus-point": [3, 7] },
        metadata: { alt: "Shops with water at the doors" },
      }),
      element("composite", {
        subtype: "image-gallery",
        "story-elements": [
          element("image", { "image-s3-key": two, title: "First", metadata: { alt: "Boats" } }),
          element("image", { "image-s3-key": three, title: "Second", metadata: { alt: "Sandbags" } }),
        ],
      }),
      element("youtube-video", { url: "https://youtu.be/dQw4w9WgXcQ" }),
      element("jsembed", { subtype: "tweet", url: "https://x.com/NASA/status/1790000000000000000" }),
      element("jsembed", {
        subtype: "instagram",
        url: "https://www.instagram.com/p/abc/",
        "embed-js": Buffer.from(instagramCode).toString("base64"),
      }),
      element("file", {
        subtype: "attachment",
        "file-url": "https://example.org/docs/flood%20plan.pdf",
        "file-name": "",
      }),
    ];
    const cards: TCard[] = [
      { id: randomUUID(), status: "draft", version: 1, metadata: {}, "story-elements": saved.slice(0, 6) },
      { id: randomUUID(), status: "draft", version: 1, metadata: {}, "story-elements": saved.slice(6) },
    ];
    const created = await editor.stories.create({ headline: "Floods", cards });
    let version = created.story.version;
    for (const action of ["submit", "approve", "publish"] as const)
      version = (await editor.stories.transition({ id: created.story.id, version, action })).story.version;

    const res = await storyRoute.GET(
      new Request(`http://localhost/api/v1/stories/${created.story.id}`),
      withParams({ storyId: created.story.id }),
    );
    expect(res.status).toBe(200);
    const { story } = await readJson<{ story: { cards: TCard[] } }>(res);
    expect(story.cards.map((c) => c.id)).toEqual(cards.map((c) => c.id));
    const returned = story.cards.flatMap((c) => c["story-elements"]);

    const derived: Record<number, Partial<TStoryElement>> = {
      4: { metadata: { content: "Water rose by a metre.", attribution: "The river authority" } },
      5: { metadata: { content: "1.2 m", attribution: "Gauge at the bridge" } },
      8: {
        url: "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
        "video-id": "dQw4w9WgXcQ",
        "embed-url": "https://www.youtube.com/embed/dQw4w9WgXcQ",
      },
      9: { "tweet-id": "1790000000000000000" },
      11: { "file-name": "flood plan.pdf" },
    };
    expect(returned).toEqual(saved.map((e, i) => ({ ...e, ...derived[i] })));
    // The dashboard reads back what the content API serves.
    const edited = await editor.stories.get({ id: created.story.id });
    expect(edited.cards.flatMap((c) => c["story-elements"])).toEqual(returned);
  });

  it("refuses an empty gallery, a file without a link and an embed without a link or code, naming the fields", async () => {
    const db = await getDb();
    const account = await createTestPublisher(db);
    const { caller: editor } = await createTestStaff(db, { account: account.id, roles: ["EDITOR"] });
    const card = (elements: TStoryElement[]): TCard[] => [
      { id: randomUUID(), status: "draft", version: 1, metadata: {}, "story-elements": elements },
    ];
    for (const [bad, field] of [
      [
        element("composite", { subtype: "image-gallery", "story-elements": [] }),
        "cards.0.story-elements.0.story-elements",
      ],
      [element("file", { subtype: "attachment" }), "cards.0.story-elements.0.file-url"],
      [element("jsembed", { subtype: "instagram" }), "cards.0.story-elements.0.url"],
      [element("bigfact", { text: "" }), "cards.0.story-elements.0.text"],
    ] as const) {
      const error = (await editor.stories.create({ headline: "Bad", cards: card([bad]) }).then(
        () => null,
        (e: unknown) => e,
      )) as { code?: string; cause?: { details?: { field: string }[] } } | null;
      expect(error?.code).toBe("BAD_REQUEST");
      expect((error?.cause?.details ?? []).map((d) => d.field)).toContain(field);
    }
    expect(await db.story.count({ where: { accountId: account.id } })).toBe(0);
  });
});
