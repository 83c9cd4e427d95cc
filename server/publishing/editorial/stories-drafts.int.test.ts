/**
 * Editorial stories, their drafts and what they hold: the slug from the headline (suffixed when
 * taken, one each for concurrent drafts), sanitised text, plain text and read time, tags by name
 * (one tag for a new name concurrent drafts share); YouTube and tweet ids read from URLs; unsafe
 * links refused in every URL-bearing field, naming it, and links stored normalised; a card's own
 * metadata made safe; a field that sanitising would take past its length limit refused.
 */
import { randomUUID } from "node:crypto";

import { beforeEach, describe, expect, it } from "vitest";

import { AppError } from "../../errors";
import { appErrorCodeOf as codeOf } from "../../testing/app-errors";
import { storySetup } from "../../testing/editorial-stories";
import { HOSTILE_URLS } from "../../testing/hostile-html";
import { insertTag, textCards } from "../../testing/publishing-factories";
import type { TCard } from "../cards.schema";
import { forgetPublisherCache } from "../publisher";
import { createStory, updateStory } from "./stories/write";

beforeEach(() => forgetPublisherCache());

// eslint-disable-next-line max-lines-per-function -- a describe block of short cases that share its setup
describe("editorial stories", () => {
  it("creates a draft: slug from the headline (suffixed when taken), sanitised text, plain text and read time, tags by name", async () => {
    const { db, account, actor, ctx } = await storySetup();
    const existing = await insertTag(db, account.id, { name: "Budget", slug: "budget" });
    const cards: TCard[] = textCards("placeholder");
    cards[0]!["story-elements"][0]!.text =
      '<p onclick="steal()">Hello <strong>world</strong><script>alert(1)</script> <a href="javascript:alert(1)">x</a> <a href="https://example.org" target="_blank">ok</a><img src=x onerror=alert(1)></p><h1>Big</h1><h2>Sub</h2>';
    const first = await createStory(db, {
      ...ctx(),
      input: {
        headline: "Budget day: what changes",
        cards,
        tags: [{ name: "budget" }, { name: "Taxes" }, { id: existing.id }],
      },
    });
    expect(first.event).toBeNull();
    expect(await db.webhookDelivery.count()).toBe(0);
    const story = first.story;
    expect(story).toMatchObject({
      status: "DRAFT",
      version: 1,
      slug: "budget-day-what-changes",
      url: "https://news.example.com/budget-day-what-changes",
      canDelete: true,
    });
    expect(story.moves.map((m) => m.action)).toEqual(["submit"]);
    const text = story.cards[0]!["story-elements"][0]!.text!;
    expect(text).toBe(
      '<p>Hello <strong>world</strong> <a>x</a> <a href="https://example.org">ok</a></p>Big<h2>Sub</h2>',
    );
    expect(text).not.toMatch(/script|onclick|onerror|javascript|target|<img|<h1/);
    expect(story.tags.map((t) => t.slug)).toEqual(["budget", "taxes"]);
    expect(await db.tag.count({ where: { accountId: account.id } })).toBe(2);
    const row = await db.story.findUniqueOrThrow({ where: { id: story.id } });
    expect(row.plainText).toBe("Hello world x ok Big Sub");
    expect(row.readTime).toBe(1);
    expect(row.ownerId).toBe(actor.id);

    const second = await createStory(db, { ...ctx(), input: { headline: "Budget day: what changes!" } });
    expect(second.story.slug).toBe("budget-day-what-changes-2");
    expect(
      await codeOf(createStory(db, { ...ctx(), input: { headline: "Other", slug: "budget-day-what-changes" } })),
    ).toBe("CONFLICT");
    expect(
      await codeOf(
        updateStory(db, { ...ctx(), input: { id: second.story.id, version: 1, slug: "budget-day-what-changes" } }),
      ),
    ).toBe("CONFLICT");

    const audit = await db.auditLog.findMany({ where: { accountId: account.id }, orderBy: { createdAt: "asc" } });
    expect(audit.map((a) => a.action)).toEqual(["story.create", "story.create"]);
  });

  it("gives concurrent drafts with the same headline their own slugs, and one tag for a new tag name they share", async () => {
    const { db, ctx } = await storySetup();
    const created = await Promise.all(
      ["Alpha", "Beta", "Gamma"].map((summary) =>
        createStory(db, { ...ctx(), input: { headline: "Same headline", summary, tags: [{ name: "Brand new" }] } }),
      ),
    );
    expect(created.map((c) => c.story.slug).sort()).toEqual(["same-headline", "same-headline-2", "same-headline-3"]);
    expect(new Set(created.map((c) => c.story.tags[0]?.id)).size).toBe(1);
    expect(await db.tag.count({ where: { slug: "brand-new" } })).toBe(1);
    // An editor's own slug that a concurrent save took is a CONFLICT on the slug field.
    const clashes = await Promise.allSettled(
      [1, 2].map(() => createStory(db, { ...ctx(), input: { headline: "Mine", slug: "chosen" } })),
    );
    const loser = clashes.find((r) => r.status === "rejected");
    expect(loser?.reason).toMatchObject({ code: "CONFLICT", details: [{ field: "slug" }] });
  });

  it("derives YouTube and tweet ids from URLs and refuses ones it cannot read; unknown sections are UNPROCESSABLE", async () => {
    const { db, ctx } = await storySetup();
    const card = (elements: TCard["story-elements"]): TCard[] => [
      { id: randomUUID(), status: "draft", version: 1, metadata: {}, "story-elements": elements },
    ];
    const { story } = await createStory(db, {
      ...ctx(),
      input: {
        headline: "Embeds",
        cards: card([
          { id: randomUUID(), type: "youtube-video", subtype: null, url: "https://youtu.be/dQw4w9WgXcQ", metadata: {} },
          {
            id: randomUUID(),
            type: "jsembed",
            subtype: "tweet",
            url: "https://x.com/NASA/status/1790000000000000000",
            metadata: {},
          },
        ]),
      },
    });
    expect(story.cards[0]!["story-elements"][0]).toMatchObject({
      "video-id": "dQw4w9WgXcQ",
      "embed-url": "https://www.youtube.com/embed/dQw4w9WgXcQ",
    });
    expect(story.cards[0]!["story-elements"][1]).toMatchObject({ "tweet-id": "1790000000000000000" });

    const bad = createStory(db, {
      ...ctx(),
      input: {
        headline: "Bad",
        cards: card([
          { id: randomUUID(), type: "youtube-video", subtype: null, url: "https://vimeo.com/1", metadata: {} },
        ]),
      },
    });
    await expect(bad).rejects.toMatchObject({
      code: "BAD_REQUEST",
      details: [{ field: "cards.0.story-elements.0.url" }],
    });
    await expect(createStory(db, { ...ctx(), input: { headline: "X", sectionIds: [999] } })).rejects.toMatchObject({
      code: "UNPROCESSABLE",
      details: [{ field: "sectionIds.0" }],
    });
    await expect(
      createStory(db, { ...ctx(), input: { headline: " ", access: "everyone" as "public" } }),
    ).rejects.toMatchObject({
      code: "BAD_REQUEST",
      details: [{ field: "headline" }, { field: "access" }],
    });
    expect(await db.story.count()).toBe(1);
  });

  it("refuses an unsafe link in any URL-bearing field of any element, naming the field, and stores links normalised", async () => {
    const { db, ctx } = await storySetup();
    const element = (extra: Record<string, unknown>): TCard["story-elements"][number] => ({
      id: randomUUID(),
      type: "text",
      subtype: null,
      text: "<p>x</p>",
      metadata: {},
      ...extra,
    });
    const cards = (el: TCard["story-elements"][number]): TCard[] => [
      { id: randomUUID(), status: "draft", version: 1, metadata: {}, "story-elements": [el] },
    ];
    // Where each field sits in an element, and the field name the error must give.
    const places: [string, (url: string) => Record<string, unknown>, string][] = [
      ["page-url", (url) => ({ "page-url": url }), "page-url"],
      ["file-url", (url) => ({ type: "image", "image-s3-key": "1/2026/01/x.png", "file-url": url }), "file-url"],
      ["metadata.link", (url) => ({ metadata: { link: url } }), "metadata.link"],
      ["metadata.linked-story-url", (url) => ({ metadata: { "linked-story-url": url } }), "metadata.linked-story-url"],
      ["metadata.cta.href", (url) => ({ metadata: { cta: { href: url, text: "Go" } } }), "metadata.cta.href"],
      ["metadata.image.src", (url) => ({ metadata: { image: { src: url } } }), "metadata.image.src"],
    ];
    const accepted: string[] = [];
    for (const [name, place, field] of places) {
      for (const url of HOSTILE_URLS) {
        const outcome = await createStory(db, {
          ...ctx(),
          input: { headline: "Links", cards: cards(element(place(url))) },
        }).then(
          () => "saved",
          (error: unknown) => error,
        );
        const refused =
          outcome instanceof AppError &&
          outcome.code === "BAD_REQUEST" &&
          (outcome.details ?? []).some((d) => d.field === `cards.0.story-elements.0.${field}`);
        if (!refused) accepted.push(`${name} = ${JSON.stringify(url)}`);
      }
    }
    expect(accepted).toEqual([]);
    expect(await db.story.count()).toBe(0);

    const { story } = await createStory(db, {
      ...ctx(),
      input: {
        headline: "Normalised",
        cards: cards(element({ "page-url": "HTTPS://Example.ORG", metadata: { link: "https://example.org/a/../b" } })),
      },
    });
    expect(story.cards[0]!["story-elements"][0]).toMatchObject({
      "page-url": "https://example.org/",
      metadata: { link: "https://example.org/b" },
    });
  });

  it("makes a card's own metadata safe too: HTML sanitised, unsafe links refused naming the field", async () => {
    const { db, ctx } = await storySetup();
    const cards = (metadata: Record<string, unknown>): TCard[] => [{ ...textCards("x")[0]!, metadata }];
    const bad = await codeOf(
      createStory(db, {
        ...ctx(),
        input: { headline: "Card", cards: cards({ "social-share": { image: { url: "javascript:alert(1)" } } }) },
      }).catch((error: unknown) => {
        expect(error).toMatchObject({ details: [{ field: "cards.0.metadata.social-share.image.url" }] });
        throw error;
      }),
    );
    expect(bad).toBe("BAD_REQUEST");
    const { story } = await createStory(db, {
      ...ctx(),
      input: {
        headline: "Card",
        cards: cards({
          "social-share": { message: "<img src=x onerror=alert(1)><b>Read</b>", url: "HTTPS://Example.ORG" },
        }),
      },
    });
    expect(story.cards[0]!.metadata).toEqual({
      "social-share": { message: "<b>Read</b>", url: "https://example.org/" },
    });
  });

  it("refuses a field that sanitising would take past its length limit, so what is stored can always be read back", async () => {
    const { db, ctx } = await storySetup();
    // 400 characters as sent, 2,000 once "&" is encoded as "&amp;": over the caption's 1,000.
    const cards: TCard[] = [
      {
        ...textCards("x")[0]!,
        "story-elements": [
          {
            id: randomUUID(),
            type: "image",
            subtype: null,
            "image-s3-key": "1/2026/01/x.png",
            title: "&".repeat(400),
            metadata: {},
          },
        ],
      },
    ];
    await expect(createStory(db, { ...ctx(), input: { headline: "Long", cards } })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      details: [{ field: "cards.0.story-elements.0.title" }],
    });
    expect(await db.story.count()).toBe(0);
  });
});
