import { randomUUID } from "node:crypto";

import { beforeEach, describe, expect, it } from "vitest";

import { getDb } from "../../db";
import { withTransaction } from "../../db/transaction";
import { AppError } from "../../errors";
import { appErrorCodeOf as codeOf } from "../../testing/app-errors";
import { EDITORIAL_APP_URL, editorialSetup, testClock } from "../../testing/editorial-fixture";
import { HOSTILE_URLS } from "../../testing/hostile-html";
import { insertAuthor, insertSection, insertTag, textCards } from "../../testing/publishing-factories";
import type { TCard } from "../cards.schema";
import { forgetPublisherCache } from "../publisher";
import { STORY_ACTIONS, STORY_STATUSES, type TStoryAction, type TStoryStatus } from "./stories.schema";
import { deleteStory, transitionStory } from "./stories/moves";
import { getStory } from "./stories/read";
import { createStory, updateStory } from "./stories/write";
import { listStories } from "./story-finding";

const APP_URL = EDITORIAL_APP_URL;
const at = testClock("2026-03-01T10:00:00.000Z");

beforeEach(() => forgetPublisherCache());

const setup = () => editorialSetup(at);

/** An active CONTENT endpoint subscribed to every story event. */
async function subscribe(accountId: number) {
  const db = await getDb();
  return db.webhookEndpoint.create({
    data: {
      accountId,
      kind: "CONTENT",
      url: "http://127.0.0.1:9/hook",
      events: ["story-submit", "story-approve", "story-reject", "story-publish", "story-retract", "story-update"],
      secret: "whsec_test",
    },
  });
}

function payloadOf(event: { payload: unknown }) {
  return event.payload as Record<string, Record<string, unknown> | null>;
}

describe("editorial stories", () => {
  it("creates a draft: slug from the headline (suffixed when taken), sanitised text, plain text and read time, tags by name", async () => {
    const { db, account, actor, ctx } = await setup();
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
    const { db, ctx } = await setup();
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
    const { db, ctx } = await setup();
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
    const { db, ctx } = await setup();
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
    const { db, ctx } = await setup();
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
    const { db, ctx } = await setup();
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

  it("walks draft → submitted → approved → published, emitting each event with section, parent section and section collection", async () => {
    const { db, account, actor, ctx } = await setup();
    const endpoint = await subscribe(account.id);
    const parent = await insertSection(db, account.id, { name: "News", slug: "news" });
    const section = await insertSection(db, account.id, {
      name: "Politics",
      slug: "politics",
      parentId: parent.id,
      withCollection: true,
    });
    const other = await insertSection(db, account.id, { name: "Opinion", slug: "opinion" });
    const author = await insertAuthor(db, account.id, { name: "Ada Writer" });
    const created = await createStory(db, {
      ...ctx(),
      input: {
        headline: "Election night",
        sectionIds: [section.id, other.id],
        authorIds: [author.id],
        cards: textCards("Votes were counted."),
      },
    });
    const id = created.story.id;

    const beforeSubmit = await db.webhookDelivery.count();
    const submitted = await transitionStory(db, { ...ctx(1), input: { id, version: 1, action: "submit" } });
    expect(submitted.event).toBe("story-submit");
    expect(submitted.notified).toBe(1);
    expect(await db.webhookDelivery.count()).toBe(beforeSubmit + 1);
    expect(submitted.story).toMatchObject({ status: "SUBMITTED", version: 2 });
    expect(submitted.story.storyVersionId).not.toBe(created.story.storyVersionId);
    const approved = await transitionStory(db, { ...ctx(2), input: { id, version: 2, action: "approve" } });
    expect(approved.story.status).toBe("APPROVED");
    expect(approved.story.publishedAt).toBeNull();
    const published = await transitionStory(db, { ...ctx(3), input: { id, version: 3, action: "publish" } });
    expect(published.story).toMatchObject({
      status: "PUBLISHED",
      version: 4,
      publishedAt: at(3),
      firstPublishedAt: at(3),
      lastPublishedAt: at(3),
    });

    const events = await db.webhookEvent.findMany({
      where: { accountId: account.id },
      orderBy: { id: "asc" },
      include: { deliveries: true },
    });
    expect(events.map((e) => e.name)).toEqual(["story-submit", "story-approve", "story-publish"]);
    expect(
      events.every(
        (e) => e.kind === "CONTENT" && e.deliveries.length === 1 && e.deliveries[0]!.endpointId === endpoint.id,
      ),
    ).toBe(true);
    expect(events.map((e) => e.occurredAt)).toEqual([at(1), at(2), at(3)]);
    const data = payloadOf(events[2]!);
    expect(data.story).toMatchObject({
      id,
      headline: "Election night",
      status: "published",
      version: 4,
      "author-name": "Ada Writer",
      "owner-name": "Eddie Editor",
      "publisher-id": account.id,
    });
    expect((data.story!.sections as unknown[]).length).toBe(2);
    expect(data.section).toMatchObject({ id: section.id, slug: "politics", "parent-id": parent.id });
    expect(data["parent-section"]).toMatchObject({ id: parent.id, slug: "news", "parent-id": null });
    expect(data["section-collection"]).toEqual({
      id: section.collectionId,
      slug: "section-politics",
      name: "Politics",
    });
    expect(data["changed-by"]).toEqual({ id: actor.id, name: "Eddie Editor" });
    expect(data["previous-status"]).toBe("approved");
    expect(data.status).toBe("published");
    expect(data["purge-keys"]).toEqual([`s/${id}`, "stories"]);
    expect(payloadOf(events[0]!)).toMatchObject({
      "previous-status": "draft",
      status: "submitted",
      story: { status: "submitted" },
    });

    const audit = await db.auditLog.findMany({ where: { accountId: account.id }, orderBy: { createdAt: "asc" } });
    expect(audit.map((a) => a.action)).toEqual(["story.create", "story.submit", "story.approve", "story.publish"]);
    expect(audit[3]!.metadata).toMatchObject({ from: "APPROVED", to: "PUBLISHED" });

    // Retract, reopen and publish again: first-published-at stays, the others move.
    await transitionStory(db, { ...ctx(4), input: { id, version: 4, action: "retract" } });
    await transitionStory(db, { ...ctx(5), input: { id, version: 5, action: "back-to-draft" } });
    await transitionStory(db, { ...ctx(6), input: { id, version: 6, action: "submit" } });
    await transitionStory(db, { ...ctx(7), input: { id, version: 7, action: "approve" } });
    const again = await transitionStory(db, { ...ctx(8), input: { id, version: 8, action: "publish" } });
    expect(again.story).toMatchObject({
      firstPublishedAt: at(3),
      publishedAt: at(8),
      lastPublishedAt: at(8),
      version: 9,
    });
    const names = (await db.webhookEvent.findMany({ orderBy: { id: "asc" } })).map((e) => e.name);
    expect(names.slice(3)).toEqual(["story-retract", "story-reject", "story-submit", "story-approve", "story-publish"]);
  });

  it("sends null section fields when the story has no section, and reject/back-to-draft as story-reject with the previous status", async () => {
    const { db, account, ctx } = await setup();
    await subscribe(account.id);
    const { story } = await createStory(db, { ...ctx(), input: { headline: "Loose" } });
    await transitionStory(db, { ...ctx(1), input: { id: story.id, version: 1, action: "submit" } });
    await transitionStory(db, { ...ctx(2), input: { id: story.id, version: 2, action: "reject" } });
    await transitionStory(db, { ...ctx(3), input: { id: story.id, version: 3, action: "submit" } });
    await transitionStory(db, { ...ctx(4), input: { id: story.id, version: 4, action: "approve" } });
    await transitionStory(db, { ...ctx(5), input: { id: story.id, version: 5, action: "back-to-draft" } });
    const events = await db.webhookEvent.findMany({ orderBy: { id: "asc" } });
    expect(events.map((e) => e.name)).toEqual([
      "story-submit",
      "story-reject",
      "story-submit",
      "story-approve",
      "story-reject",
    ]);
    const rejected = payloadOf(events[1]!);
    expect(rejected).toMatchObject({
      section: null,
      "parent-section": null,
      "section-collection": null,
      "previous-status": "submitted",
      status: "draft",
    });
    expect(payloadOf(events[4]!)["previous-status"]).toBe("approved");
  });

  it("refuses every illegal move with UNPROCESSABLE naming the status, and changes nothing", async () => {
    const { db, account, ctx } = await setup();
    await subscribe(account.id);
    const { story } = await createStory(db, { ...ctx(), input: { headline: "Moves" } });
    const path: TStoryAction[] = ["submit", "approve", "publish", "retract"];
    const legal: Record<TStoryStatus, TStoryAction[]> = {
      DRAFT: ["submit"],
      SUBMITTED: ["approve", "reject"],
      APPROVED: ["publish", "back-to-draft"],
      PUBLISHED: ["retract"],
      RETRACTED: ["back-to-draft"],
    };
    let version = 1;
    for (const status of STORY_STATUSES) {
      const eventsBefore = await db.webhookEvent.count();
      for (const action of STORY_ACTIONS.filter((a) => !legal[status].includes(a))) {
        const refused = transitionStory(db, { ...ctx(), input: { id: story.id, version, action } });
        await expect(refused, `${status} ${action}`).rejects.toMatchObject({
          code: "UNPROCESSABLE",
          message: expect.stringContaining(status.toLowerCase()) as string,
        });
      }
      expect(await db.story.findUniqueOrThrow({ where: { id: story.id } })).toMatchObject({ status, version });
      expect(await db.webhookEvent.count()).toBe(eventsBefore);
      const next = path[STORY_STATUSES.indexOf(status)];
      if (next)
        version = (await transitionStory(db, { ...ctx(), input: { id: story.id, version, action: next } })).story
          .version;
    }
  });

  it("refuses a stale version with CONFLICT: two editors saving at once never overwrite each other", async () => {
    const { db, ctx } = await setup();
    const { story } = await createStory(db, { ...ctx(), input: { headline: "Shared" } });
    const first = await updateStory(db, { ...ctx(1), input: { id: story.id, version: 1, headline: "First editor" } });
    expect(first.story.version).toBe(2);
    await expect(
      updateStory(db, { ...ctx(2), input: { id: story.id, version: 1, headline: "Second editor" } }),
    ).rejects.toMatchObject({
      code: "CONFLICT",
      details: [{ field: "version" }],
    });
    expect(
      await codeOf(transitionStory(db, { ...ctx(2), input: { id: story.id, version: 1, action: "submit" } })),
    ).toBe("CONFLICT");
    expect(await codeOf(deleteStory(db, { actor: ctx().actor, id: story.id, version: 1, now: at(2) }))).toBe(
      "CONFLICT",
    );
    expect((await getStory(db, { actor: ctx().actor, id: story.id, appUrl: APP_URL })).headline).toBe("First editor");

    // At the same moment: exactly one of two saves of version 2 wins.
    const results = await Promise.allSettled([
      updateStory(db, { ...ctx(3), input: { id: story.id, version: 2, headline: "A" } }),
      updateStory(db, { ...ctx(3), input: { id: story.id, version: 2, headline: "B" } }),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const loser = results.find((r) => r.status === "rejected");
    expect((loser!.reason as AppError).code).toBe("CONFLICT");
    const row = await db.story.findUniqueOrThrow({ where: { id: story.id } });
    expect(row.version).toBe(3);
  });

  it("saves: new version id, recomputed text and read time; story-update only for a published story", async () => {
    const { db, account, ctx } = await setup();
    await subscribe(account.id);
    const { story } = await createStory(db, { ...ctx(), input: { headline: "Saved", cards: textCards("one two") } });
    const long = Array.from({ length: 1000 }, (_, i) => `word${i}`).join(" ");
    const saved = await updateStory(db, {
      ...ctx(1),
      input: { id: story.id, version: 1, cards: textCards(long), seo: { metaTitle: "T", metaKeywords: ["a", "b"] } },
    });
    expect(saved).toMatchObject({ event: null, notified: 0 });
    expect(saved.story.readTime).toBe(5);
    expect(saved.story.storyVersionId).not.toBe(story.storyVersionId);
    expect(saved.story.seo).toEqual({ metaTitle: "T", metaDescription: null, metaKeywords: ["a", "b"] });
    expect(saved.story.headline).toBe("Saved");
    expect(await db.webhookEvent.count()).toBe(0);
    // The card's content did not change on the next save: it keeps its version and times.
    const resaved = await updateStory(db, {
      ...ctx(2),
      input: { id: story.id, version: 2, cards: saved.story.cards, summary: "Short" },
    });
    expect(resaved.story.cards[0]).toMatchObject({
      version: saved.story.cards[0]!.version,
      "card-updated-at": at(1).getTime(),
    });

    let v = resaved.story.version;
    for (const action of ["submit", "approve", "publish"] as const)
      v = (await transitionStory(db, { ...ctx(3), input: { id: story.id, version: v, action } })).story.version;
    const beforeEdit = await db.webhookDelivery.count();
    const edit = await updateStory(db, {
      ...ctx(10),
      input: { id: story.id, version: v, headline: "Saved, corrected" },
    });
    expect(edit.event).toBe("story-update");
    expect(edit.notified).toBe(1);
    expect(await db.webhookDelivery.count()).toBe(beforeEdit + 1);
    // Each save's audit entry names the fields it changed, and only those: the cards sent back
    // unchanged with a new summary are not a change of the cards.
    const audits = await db.auditLog.findMany({
      where: { action: "story.update", targetId: story.id },
      orderBy: { createdAt: "asc" },
    });
    expect(audits.map((a) => (a.metadata as { fields: string[] }).fields)).toEqual([
      ["cards", "seo"],
      ["summary"],
      ["headline"],
    ]);
    expect(edit.story).toMatchObject({
      status: "PUBLISHED",
      publishedAt: at(3),
      lastPublishedAt: at(10),
      headline: "Saved, corrected",
    });
    const last = await db.webhookEvent.findFirstOrThrow({ orderBy: { id: "desc" } });
    expect(last.name).toBe("story-update");
    expect(payloadOf(last)).toMatchObject({
      "previous-status": "published",
      status: "published",
      story: { headline: "Saved, corrected" },
    });
  });

  it("emits nothing for a change that rolls back", async () => {
    const { db, account, ctx } = await setup();
    await subscribe(account.id);
    const { story } = await createStory(db, { ...ctx(), input: { headline: "Rolled back" } });
    await expect(
      withTransaction(db, async (tx) => {
        await transitionStory(tx, { ...ctx(1), input: { id: story.id, version: 1, action: "submit" } });
        throw new Error("something after the move failed");
      }),
    ).rejects.toThrow("something after the move failed");
    expect(await db.webhookEvent.count()).toBe(0);
    expect(await db.webhookDelivery.count()).toBe(0);
    expect((await db.story.findUniqueOrThrow({ where: { id: story.id } })).status).toBe("DRAFT");
    expect(await db.auditLog.count({ where: { action: "story.submit" } })).toBe(0);
  });

  it("deletes drafts only, and keeps every account's stories to itself", async () => {
    const { db, ctx } = await setup();
    const other = await setup();
    const { story } = await createStory(db, { ...ctx(), input: { headline: "Mine" } });
    expect(await codeOf(getStory(db, { actor: other.actor, id: story.id, appUrl: APP_URL }))).toBe("NOT_FOUND");
    expect(
      await codeOf(updateStory(db, { ...other.ctx(), input: { id: story.id, version: 1, headline: "Theirs" } })),
    ).toBe("NOT_FOUND");
    expect(
      await codeOf(transitionStory(db, { ...other.ctx(), input: { id: story.id, version: 1, action: "submit" } })),
    ).toBe("NOT_FOUND");
    expect(await codeOf(deleteStory(db, { actor: other.actor, id: story.id, version: 1, now: at(1) }))).toBe(
      "NOT_FOUND",
    );
    expect((await listStories(db, { actor: other.actor })).total).toBe(0);

    await transitionStory(db, { ...ctx(1), input: { id: story.id, version: 1, action: "submit" } });
    expect(await codeOf(deleteStory(db, { actor: ctx().actor, id: story.id, version: 2, now: at(2) }))).toBe(
      "UNPROCESSABLE",
    );
    await transitionStory(db, { ...ctx(2), input: { id: story.id, version: 2, action: "reject" } });
    await deleteStory(db, { actor: ctx().actor, id: story.id, version: 3, now: at(3) });
    expect(await db.story.count()).toBe(0);
    expect(await db.auditLog.count({ where: { action: "story.delete", targetId: story.id } })).toBe(1);
  });

  it("lists by status, section and headline words, most recently changed first, with paging", async () => {
    const { db, account, ctx } = await setup();
    const sport = await insertSection(db, account.id, { name: "Sport", slug: "sport" });
    const a = await createStory(db, { ...ctx(1), input: { headline: "Cup final tonight", sectionIds: [sport.id] } });
    await createStory(db, { ...ctx(2), input: { headline: "Budget vote" } });
    const c = await createStory(db, { ...ctx(3), input: { headline: "Final budget figures" } });
    await transitionStory(db, { ...ctx(4), input: { id: c.story.id, version: 1, action: "submit" } });

    const all = await listStories(db, { actor: ctx().actor });
    expect(all.total).toBe(3);
    expect(all.items.map((s) => s.headline)).toEqual(["Final budget figures", "Budget vote", "Cup final tonight"]);
    expect((await listStories(db, { actor: ctx().actor, status: "SUBMITTED" })).items.map((s) => s.id)).toEqual([
      c.story.id,
    ]);
    expect((await listStories(db, { actor: ctx().actor, sectionId: sport.id })).items).toMatchObject([
      { id: a.story.id, section: "Sport" },
    ]);
    expect((await listStories(db, { actor: ctx().actor, search: "FINAL" })).total).toBe(2);
    expect((await listStories(db, { actor: ctx().actor, search: "final budget" })).items.map((s) => s.id)).toEqual([
      c.story.id,
    ]);
    const page = await listStories(db, { actor: ctx().actor, limit: 2, offset: 2 });
    expect(page).toMatchObject({ total: 3, offset: 2, limit: 2 });
    expect(page.items.map((s) => s.id)).toEqual([a.story.id]);
  });
});
