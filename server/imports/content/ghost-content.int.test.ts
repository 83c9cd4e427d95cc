/**
 * The posts and pages of a Ghost export imported into an account, on PGlite and PostgreSQL, field
 * by field: HTML, Lexical and Mobiledoc bodies as story elements, tags (internal ones skipped) and
 * the primary tag as section, authors, statuses, visibility as the story's access, feature
 * images, old URLs by the site's permalinks answering 301; a dry run and a second run changing
 * nothing; a truncated export refused whole.
 */
import { describe, expect, it } from "vitest";

import { GET as getCustomUrl } from "@/app/api/v1/custom-urls/[...path]/route";
import { getDb } from "@/server/db";
import type { Db } from "@/server/db/client";
import { ImportFileError } from "@/server/imports/types";
import { contentImportAccount, importedStory, importFixture, tableCounts } from "@/server/testing/imports";

const account = (db: Db) => contentImportAccount(db, ["ghost.example.com"]);

const ID = (n: number) => `6500000000000000000000a${n}`;

const storyOf = (db: Db, accountId: number, sourceId: string) => importedStory(db, accountId, "ghost", sourceId);

type Element = { id?: string; type: string; subtype: string | null; [key: string]: unknown };
const elementsOf = (story: { cards: unknown }) =>
  (story.cards as { "story-elements": Element[] }[]).flatMap((card) => card["story-elements"]);
const shapes = (elements: Element[]): unknown[] =>
  elements.map(({ id: _id, "story-elements": inner, ...rest }) =>
    inner ? { ...rest, "story-elements": shapes(inner as Element[]) } : rest,
  );

const image = (url: string, fields: Record<string, unknown> = {}) => ({
  type: "image",
  subtype: null,
  metadata: {},
  "image-s3-key": url,
  title: "",
  ...fields,
});
const text = (html: string) => ({ type: "text", subtype: null, metadata: {}, text: html });
const IMAGES = "https://ghost.example.com/content/images";

// eslint-disable-next-line max-lines-per-function -- a describe block of short cases that share its setup
describe("importing the posts and pages of a Ghost export", () => {
  it("lands them field by field", async () => {
    const db = await getDb();
    const acc = await account(db);
    const report = await importFixture(db, acc.id, "ghost", "ghost-export.json");
    expect(report.problems).toEqual([]);
    expect(report.kinds).toEqual({
      story: { create: 8, update: 0, skip: 0, refuse: 0 },
      author: { create: 2, update: 0, skip: 0, refuse: 0 },
      section: { create: 2, update: 0, skip: 0, refuse: 0 },
      tag: { create: 2, update: 0, skip: 0, refuse: 0 },
      redirect: { create: 5, update: 0, skip: 0, refuse: 0 },
    });
    expect(report.notes).toEqual([
      `post ${ID(2)}: left out of its body: a signup card`,
      `post ${ID(4)}: for Ghost tiers the export does not list: imported for every paying subscriber`,
    ]);

    // HTML: a gallery card, a YouTube embed card, a quote; two authors in order; the internal tag left out.
    const night = await storyOf(db, acc.id, ID(1));
    expect(night).toMatchObject({
      headline: "Election night",
      slug: "election-night",
      summary: "How the night went.",
      status: "PUBLISHED",
      publishedAt: new Date("2024-11-06T01:00:00Z"),
      access: "public",
      heroImageS3Key: `${IMAGES}/2024/11/hero.jpg`,
      heroImageCaption: "The hall at <em>night</em>",
      heroImageMetadata: { alt: "The hall" },
      externalId: `ghost:${ID(1)}`,
    });
    expect(night.authors.map((a) => [a.author.slug, a.author.name, a.author.bio])).toEqual([
      ["ada", "Ada Lovelace", "Writes about numbers."],
      ["zoe", "Zoë Ångström-Łukasz 李", null],
    ]);
    expect(night.sections.map((s) => s.section.slug)).toEqual(["news"]);
    expect(night.tags.map((t) => t.tag.slug)).toEqual(["news", "elections"]);
    expect(shapes(elementsOf(night))).toEqual([
      text("<p>Polls <strong>closed</strong> at eight.</p>"),
      {
        type: "composite",
        subtype: "image-gallery",
        metadata: {},
        title: "The count",
        "story-elements": [
          image(`${IMAGES}/2024/11/a.jpg`, { metadata: { alt: "A" }, "image-metadata": { width: 600, height: 400 } }),
          image(`${IMAGES}/2024/11/b.jpg`, { metadata: { alt: "B" }, "image-metadata": { width: 600, height: 400 } }),
        ],
      },
      {
        type: "youtube-video",
        subtype: null,
        metadata: {},
        url: "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
        "embed-url": "https://www.youtube.com/embed/dQw4w9WgXcQ",
        "video-id": "dQw4w9WgXcQ",
      },
      {
        type: "blockquote",
        subtype: null,
        metadata: { content: "<p>Quoted.</p>", attribution: "" },
        text: "<p>Quoted.</p>",
      },
    ]);

    // Lexical only, members-only: login.
    const members = await storyOf(db, acc.id, ID(2));
    expect(members).toMatchObject({ access: "login", status: "PUBLISHED" });
    expect(members.sections.map((s) => s.section.slug)).toEqual(["elections"]);
    // Named twice in posts_tags: once.
    expect(members.tags.map((t) => t.tag.slug)).toEqual(["elections"]);
    expect(shapes(elementsOf(members))).toEqual([
      text("<p>Members <strong>only</strong> &amp; friends.</p>"),
      text("<h2>Details</h2>"),
      text('<ol><li>First</li><li><a href="https://example.org/second">Second</a></li></ol>'),
      image(`${IMAGES}/2024/01/pic.jpg`, { metadata: { alt: "A picture" }, title: "Caption <b>here</b>" }),
      {
        type: "jsembed",
        subtype: "tweet",
        metadata: {},
        url: "https://x.com/ghost/status/1234567890",
        "tweet-id": "1234567890",
      },
      text("<p>let a = 1 &lt; 2;</p>"),
    ]);

    // Mobiledoc only, paid: subscription.
    const paid = await storyOf(db, acc.id, ID(3));
    expect(paid).toMatchObject({ access: "subscription" });
    expect(shapes(elementsOf(paid))).toEqual([
      text('<p>Paid <strong>text</strong> with a <a href="https://example.org/m">link</a>.</p>'),
      {
        type: "composite",
        subtype: "image-gallery",
        metadata: {},
        title: "Two pictures",
        "story-elements": [
          image(`${IMAGES}/g1.jpg`, { metadata: { alt: "G1" }, title: "One" }),
          image(`${IMAGES}/g2.jpg`),
        ],
      },
      text("<ul><li>a</li><li>b</li></ul>"),
      text("<h3>Sub</h3>"),
    ]);

    expect(await storyOf(db, acc.id, ID(4))).toMatchObject({ access: "subscription" });
    expect(await storyOf(db, acc.id, ID(5))).toMatchObject({
      status: "APPROVED",
      publishAt: new Date("2030-01-02T08:00:00Z"),
      publishedAt: null,
    });
    expect(await db.job.count({ where: { accountId: acc.id, name: "story.publish" } })).toBe(1);
    const draft = await storyOf(db, acc.id, ID(6));
    expect(draft).toMatchObject({ status: "DRAFT", publishedAt: null });
    const draftText = elementsOf(draft)
      .map((e) => e.text)
      .join("");
    expect(draftText).not.toMatch(/script|onclick|alert/);
    expect(draftText).toContain("Second");
    expect(await storyOf(db, acc.id, ID(7))).toMatchObject({ slug: "about", metadata: { "source-type": "page" } });
    const untagged = await storyOf(db, acc.id, ID(8));
    expect(untagged.sections).toEqual([]);
    expect(untagged.tags).toEqual([]);

    // Old URLs by the site's permalinks (/:year/:month/:slug/), pages at /:slug/; drafts and scheduled posts none.
    expect(
      await db.customUrl.findMany({
        where: { accountId: acc.id },
        orderBy: { sourcePath: "asc" },
        select: { sourcePath: true, destinationPath: true, statusCode: true },
      }),
    ).toEqual([
      { sourcePath: "/2024/11/election-night", destinationPath: "/election-night", statusCode: 301 },
      { sourcePath: "/2024/11/for-members", destinationPath: "/for-members", statusCode: 301 },
      { sourcePath: "/2024/11/for-payers", destinationPath: "/for-payers", statusCode: 301 },
      { sourcePath: "/2024/11/for-tiers", destinationPath: "/for-tiers", statusCode: 301 },
      { sourcePath: "/2024/11/no-tags", destinationPath: "/no-tags", statusCode: 301 },
    ]);
    const raw = encodeURIComponent("/2024/11/for-payers/");
    const res = await getCustomUrl(
      new Request(`http://localhost/api/v1/custom-urls/${raw}`, { headers: { host: "localhost" } }),
      { params: Promise.resolve({ path: [decodeURIComponent(raw)] }) },
    );
    expect(((await res.json()) as { page: unknown }).page).toMatchObject({
      type: "redirect",
      "status-code": 301,
      "destination-path": "/for-payers",
    });
    expect(await db.webhookEvent.count()).toBe(0);
  });

  it("changes nothing in a dry run nor on a second run", async () => {
    const db = await getDb();
    const acc = await account(db);
    const before = await tableCounts(db);
    const dry = await importFixture(db, acc.id, "ghost", "ghost-export.json", { dryRun: true });
    expect(await tableCounts(db)).toEqual(before);
    const real = await importFixture(db, acc.id, "ghost", "ghost-export.json");
    expect(dry.kinds).toEqual(real.kinds);
    const counts = await tableCounts(db);
    const again = await importFixture(db, acc.id, "ghost", "ghost-export.json");
    expect(again.kinds.story).toEqual({ create: 0, update: 0, skip: 8, refuse: 0 });
    expect(again.lines.skip.every((l) => l.reason.startsWith("imported before"))).toBe(true);
    expect({ ...(await tableCounts(db)), import_runs: 0, audit_logs: 0 }).toEqual({
      ...counts,
      import_runs: 0,
      audit_logs: 0,
    });
  });

  it("refuses a truncated export whole, writing nothing", async () => {
    const db = await getDb();
    const acc = await account(db);
    const before = await tableCounts(db);
    await expect(importFixture(db, acc.id, "ghost", "ghost-export-truncated.json")).rejects.toThrow(ImportFileError);
    await expect(importFixture(db, acc.id, "ghost", "ghost-export-truncated.json")).rejects.toThrow(
      /^ghost-export-truncated\.json is not a Ghost export: it is not JSON \(line 63, column 16: .*; truncated\?\)\. Nothing of it is imported\.$/,
    );
    await expect(importFixture(db, acc.id, "ghost", "wxr-content.xml")).rejects.toThrow(/is not a Ghost export/);
    expect(await tableCounts(db)).toEqual(before);
  });
});
