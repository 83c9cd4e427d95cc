/**
 * The posts and pages of a WordPress export imported into an account, on PGlite and PostgreSQL,
 * field by field: stories in the editor's elements, authors, sections and tags found or created,
 * statuses, featured images, custom fields, old URLs answering 301; a dry run and a second run
 * changing nothing; a run killed mid-way and run again ending as an uninterrupted one.
 */
import path from "node:path";

import { describe, expect, it } from "vitest";

import { GET as getCustomUrl } from "@/app/api/v1/custom-urls/[...path]/route";
import { getEnv } from "@/env.js";
import { getDb } from "@/server/db";
import type { Db } from "@/server/db/client";
import { formatReport } from "@/server/imports/report";
import { ImportAborted } from "@/server/imports/types";
import { contentImportAccount, FIXTURES, importedStory, importFixture, tableCounts } from "@/server/testing/imports";

import { importCommand } from "../../../scripts/import/cli";

const HOSTS = ["news.example.com"];

const account = (db: Db) => contentImportAccount(db, HOSTS);

const storyOf = (db: Db, accountId: number, sourceId: string) => importedStory(db, accountId, "wxr", sourceId);

type Element = { type: string; subtype: string | null; [key: string]: unknown };
const elementsOf = (story: { cards: unknown }) =>
  (story.cards as { "story-elements": Element[] }[]).flatMap((card) => card["story-elements"]);
/** Elements without their generated ids, for comparing. */
const shapes = (elements: Element[]): unknown[] =>
  elements.map(({ id: _id, "story-elements": inner, ...rest }) =>
    inner ? { ...rest, "story-elements": shapes(inner as Element[]) } : rest,
  );

/** What an import made, by the export's ids. */
async function contentSnapshot(db: Db, accountId: number) {
  const records = await db.importRecord.findMany({
    where: { accountId },
    orderBy: [{ kind: "asc" }, { sourceId: "asc" }],
  });
  const stories = await db.story.findMany({
    where: { accountId },
    orderBy: { slug: "asc" },
    select: {
      slug: true,
      headline: true,
      status: true,
      publishedAt: true,
      access: true,
      heroImageS3Key: true,
      plainText: true,
    },
  });
  const redirects = await db.customUrl.findMany({
    where: { accountId },
    orderBy: { sourcePath: "asc" },
    select: { sourcePath: true, destinationPath: true, statusCode: true },
  });
  const counts = {
    authors: await db.author.count({ where: { accountId } }),
    sections: await db.section.count({ where: { accountId } }),
    tags: await db.tag.count({ where: { accountId } }),
    jobs: await db.job.count({ where: { accountId } }),
  };
  return { records: records.map((r) => `${r.kind}:${r.sourceId}:${r.created}`), stories, redirects, counts };
}

// eslint-disable-next-line max-lines-per-function -- a describe block of short cases that share its setup
describe("importing the posts and pages of a WordPress export", () => {
  // eslint-disable-next-line max-lines-per-function -- one import checked field by field against the same result
  it("lands them field by field", async () => {
    const db = await getDb();
    const acc = await account(db);
    const existingTag = await db.tag.create({ data: { accountId: acc.id, name: "Elections!", slug: "elections" } });
    const report = await importFixture(db, acc.id, "wxr", "wxr-content.xml");
    expect(report.problems).toEqual([]);
    expect(report.kinds).toEqual({
      story: { create: 7, update: 0, skip: 4, refuse: 1 },
      author: { create: 2, update: 0, skip: 0, refuse: 0 },
      section: { create: 2, update: 0, skip: 0, refuse: 0 },
      tag: { create: 1, update: 0, skip: 0, refuse: 0 },
      redirect: { create: 2, update: 0, skip: 0, refuse: 0 },
      page: { create: 7, update: 0, skip: 0, refuse: 0 },
    });
    expect(report.lines.refuse.map((l) => `${l.sourceId}: ${l.reason}`)).toEqual([
      expect.stringMatching(
        /^17: its images are on elsewhere\.example\.net, not among the account's external image hosts: add them under Settings → Images and logo → External image hosts/,
      ),
    ]);
    expect(report.lines.skip.map((l) => `${l.sourceId}: ${l.reason}`)).toEqual([
      "31: an attachment (its image is kept where a post uses it: featured image, gallery)",
      "32: an attachment (its image is kept where a post uses it: featured image, gallery)",
      "15: in the trash",
      "18: a nav_menu_item, not a post or a page",
    ]);
    expect(report.notes).toEqual([
      "post 14: private in WordPress: imported as a draft (Masthead has no private stories)",
      "post 19: password-protected in WordPress: imported as a draft (Masthead has no story passwords)",
    ]);

    const night = await storyOf(db, acc.id, "10");
    expect(night).toMatchObject({
      headline: "Election night, in pictures",
      slug: "election-night",
      summary: "How the night went.",
      status: "PUBLISHED",
      publishedAt: new Date("2024-11-06T01:00:00Z"),
      firstPublishedAt: new Date("2024-11-06T01:00:00Z"),
      access: "public",
      heroImageS3Key: "https://news.example.com/wp-content/uploads/2024/11/crowd.jpg",
      heroImageCaption: "Crowd, midnight",
      heroImageMetadata: { alt: "The crowd" },
      externalId: "wxr:news.example.com:10",
      metadata: { source_note: "Figures from the county", "imported-from": "wxr", "source-type": "post" },
    });
    expect(night.authors.map((a) => [a.author.slug, a.author.name, a.author.email])).toEqual([
      ["ada", "Ada Lovelace", "ada@example.com"],
    ]);
    expect(night.sections.map((s) => s.section.slug)).toEqual(["news", "politics"]);
    // Found by slug: the account's own tag, not a second one.
    expect(night.tags.map((t) => t.tag.id)).toEqual([existingTag.id, expect.any(Number)]);
    expect(night.tags[1]!.tag).toMatchObject({ slug: "night-life", name: "Night life" });
    expect(shapes(elementsOf(night))).toEqual([
      {
        type: "text",
        subtype: null,
        metadata: {},
        text: "<p>The night &amp; the <strong>count</strong>, in café light.</p>",
      },
      { type: "text", subtype: null, metadata: {}, text: "<h2>The results</h2>" },
      {
        type: "composite",
        subtype: "image-gallery",
        metadata: {},
        title: "",
        "story-elements": [
          {
            type: "image",
            subtype: null,
            metadata: { alt: "The crowd" },
            "image-s3-key": "https://news.example.com/wp-content/uploads/2024/11/crowd.jpg",
            title: "The crowd at midnight",
          },
          {
            type: "image",
            subtype: null,
            metadata: {},
            "image-s3-key": "https://news.example.com/wp-content/uploads/2024/11/stage.jpg",
            title: "",
          },
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
        type: "jsembed",
        subtype: "tweet",
        metadata: {},
        url: "https://twitter.com/gazette/status/1853912345678901234",
        "tweet-id": "1853912345678901234",
      },
      { type: "text", subtype: null, metadata: {}, text: "<ul><li>Turnout: high</li><li>Counting: slow</li></ul>" },
      {
        type: "blockquote",
        subtype: null,
        metadata: { content: "<p>Every vote counts.</p>", attribution: "The returning officer" },
        text: "<p>Every vote counts.</p>",
      },
      { type: "text", subtype: null, metadata: {}, text: "<p>turnout = votes / voters<br />print(turnout &lt; 1)</p>" },
    ]);
    expect(night.plainText).toContain("Every vote counts.");

    const market = await storyOf(db, acc.id, "11");
    expect(market.headline).toBe("Market day & night");
    expect(market.authors[0]!.author).toMatchObject({ slug: "zoe", name: "Zoë Ångström-Łukasz 李" });
    expect(shapes(elementsOf(market)).map((e) => (e as Element).type)).toEqual([
      "text",
      "image",
      "composite",
      "jsembed",
      "text",
    ]);
    expect(elementsOf(market)[0]!.text).toBe(
      "<p>First line of the classic post.<br />\nSecond line, same paragraph.</p>",
    );
    expect(elementsOf(market)[1]).toMatchObject({
      title: "The stage, before",
      "image-metadata": { width: 640, height: 480 },
    });
    // Attachment 999 is not in the file: the gallery holds the two that are.
    expect((elementsOf(market)[2]!["story-elements"] as Element[]).length).toBe(2);
    expect(elementsOf(market)[3]).toMatchObject({
      subtype: "instagram",
      url: "https://www.instagram.com/p/C1a2b3c4d5/",
    });

    const scheduled = await storyOf(db, acc.id, "12");
    expect(scheduled).toMatchObject({
      status: "APPROVED",
      publishAt: new Date("2030-01-02T08:00:00Z"),
      publishedAt: null,
    });
    const job = await db.job.findFirstOrThrow({ where: { accountId: acc.id, name: "story.publish" } });
    expect(job).toMatchObject({ runAt: new Date("2030-01-02T08:00:00Z") });

    const draft = await storyOf(db, acc.id, "13");
    expect(draft).toMatchObject({
      status: "DRAFT",
      slug: "half-written",
      publishedAt: null,
      createdAt: new Date("2024-11-07T10:00:00Z"),
    });
    const draftText = elementsOf(draft)
      .map((e) => e.text)
      .join("");
    expect(draftText).not.toMatch(/script|onclick|alert/);
    expect(draftText).toContain("Second");

    // Its post_name is malformed percent-encoding: taken as written.
    expect(await storyOf(db, acc.id, "14")).toMatchObject({ status: "DRAFT", slug: "staff-only-e0-a4" });
    expect(await storyOf(db, acc.id, "19")).toMatchObject({ status: "DRAFT", slug: "letter", publishedAt: null });
    expect(await storyOf(db, acc.id, "16")).toMatchObject({
      status: "PUBLISHED",
      slug: "about",
      metadata: { "source-type": "page", "imported-from": "wxr" },
    });

    expect(
      await db.customUrl.findMany({
        where: { accountId: acc.id },
        orderBy: { sourcePath: "asc" },
        select: { sourcePath: true, destinationPath: true, statusCode: true, type: true },
      }),
    ).toEqual([
      { sourcePath: "/2019/03/market-day", destinationPath: "/market-day", statusCode: 301, type: "redirect" },
      { sourcePath: "/2024/11/election-night", destinationPath: "/election-night", statusCode: 301, type: "redirect" },
    ]);
    expect(await db.webhookEvent.count()).toBe(0);
  });

  it("puts the comments of the same file, imported after, on the stories' pages", async () => {
    const db = await getDb();
    const acc = await account(db);
    const content = await importFixture(db, acc.id, "wxr", "wxr-content.xml");
    // Every story's page: the seven stories (the published ones' and the drafts').
    expect(content.kinds.page).toEqual({ create: 7, update: 0, skip: 0, refuse: 0 });
    const comments = await importFixture(db, acc.id, "wxr-comments", "wxr-content.xml");
    expect(comments.kinds.page).toEqual({ create: 0, update: 0, skip: 1, refuse: 0 });
    expect(comments.kinds.comment).toMatchObject({ create: 1, refuse: 0 });
    const record = await db.importRecord.findFirstOrThrow({
      where: { accountId: acc.id, source: "wxr-comments", kind: "comment", sourceId: "900" },
    });
    const comment = await db.comment.findUniqueOrThrow({
      where: { id: Number(record.targetId) },
      include: { page: true },
    });
    expect(comment.page).toMatchObject({
      url: "https://news.example.com/election-night",
      headline: "Election night, in pictures",
    });
    expect(comment).toMatchObject({ guest: true, guestName: "Reader", isPublished: true });
  });

  it("leaves comments imported before the posts where they are", async () => {
    const db = await getDb();
    const acc = await account(db);
    await importFixture(db, acc.id, "wxr-comments", "wxr-content.xml");
    const report = await importFixture(db, acc.id, "wxr", "wxr-content.xml");
    expect(report.kinds.page).toEqual({ create: 6, update: 0, skip: 0, refuse: 0 });
    expect(report.notes).toContainEqual(
      expect.stringMatching(/^post 10: its comments were imported before, on page #\d+: they stay there$/),
    );
    expect(
      await db.page.findMany({ where: { accountId: acc.id, comments: { some: {} } }, select: { url: true } }),
    ).toEqual([{ url: "https://news.example.com/2024/11/election-night/" }]);
  });

  it("answers the old URL with a 301 to the story", async () => {
    const db = await getDb();
    const acc = await account(db);
    await importFixture(db, acc.id, "wxr", "wxr-content.xml");
    const raw = encodeURIComponent("/2024/11/election-night/");
    const res = await getCustomUrl(
      new Request(`http://localhost/api/v1/custom-urls/${raw}`, { headers: { host: "localhost" } }),
      { params: Promise.resolve({ path: [decodeURIComponent(raw)] }) },
    );
    expect(res.status).toBe(200);
    const body = (await res.json()) as { page: Record<string, unknown> };
    expect(body.page).toMatchObject({ type: "redirect", "status-code": 301, "destination-path": "/election-night" });
  });

  it("changes nothing in a dry run nor on a second run", async () => {
    const db = await getDb();
    const acc = await account(db);
    const before = await tableCounts(db);
    const dry = await importFixture(db, acc.id, "wxr", "wxr-content.xml", { dryRun: true });
    expect(await tableCounts(db)).toEqual(before);
    const real = await importFixture(db, acc.id, "wxr", "wxr-content.xml");
    expect(dry.kinds).toEqual(real.kinds);
    const snapshot = await contentSnapshot(db, acc.id);
    const counts = await tableCounts(db);
    const again = await importFixture(db, acc.id, "wxr", "wxr-content.xml");
    expect(again.kinds.story).toEqual({ create: 0, update: 0, skip: 11, refuse: 1 });
    // A real run's story lines link to the story in the dashboard (a skip to the one it matched);
    // a dry run's and a refusal's to nothing.
    const appUrl = getEnv().APP_URL.replace(/\/+$/, "");
    expect(dry.lines.create.every((l) => !l.href)).toBe(true);
    const storyLines = [
      ...real.lines.create,
      ...again.lines.skip.filter((l) => l.reason.startsWith("imported before")),
    ].filter((l) => l.kind === "story");
    expect(storyLines.length).toBeGreaterThan(0);
    for (const line of storyLines) {
      const story = await storyOf(db, acc.id, line.sourceId!);
      expect(line.href).toBe(`${appUrl}/admin/content/stories/${story.id}`);
    }
    expect(formatReport(real)).toContain(`<${storyLines[0]!.href}>`);
    expect(again.lines.refuse.every((l) => !l.href)).toBe(true);
    expect(again.lines.skip.filter((l) => l.reason.startsWith("imported before")).length).toBe(7);
    const after = await tableCounts(db);
    // Only the run's own bookkeeping grows: its run row and its two audit entries.
    expect({ ...after, import_runs: 0, audit_logs: 0 }).toEqual({ ...counts, import_runs: 0, audit_logs: 0 });
    expect(await contentSnapshot(db, acc.id)).toEqual(snapshot);
  });

  it("ends a run killed mid-way and run again as an uninterrupted one", async () => {
    const db = await getDb();
    const whole = await account(db);
    await importFixture(db, whole.id, "wxr", "wxr-content.xml", { batchSize: 2 });
    const expected = await contentSnapshot(db, whole.id);

    const killed = await account(db);
    await expect(
      importFixture(db, killed.id, "wxr", "wxr-content.xml", {
        batchSize: 2,
        afterItem: (applied) => {
          if (applied === 3) throw new ImportAborted();
        },
      }),
    ).rejects.toBeInstanceOf(ImportAborted);
    expect(await db.story.count({ where: { accountId: killed.id } })).toBe(2);
    await importFixture(db, killed.id, "wxr", "wxr-content.xml", { batchSize: 2 });
    expect(await contentSnapshot(db, killed.id)).toEqual(expected);
  });

  it("prints what a dry run would do through the command", async () => {
    const db = await getDb();
    const acc = await account(db);
    const out: string[] = [];
    const result = await importCommand(
      db,
      ["--from", "wxr", path.join(FIXTURES, "wxr-content.xml"), "--account", acc.slug, "--dry-run"],
      { out: (t) => out.push(t), err: () => undefined },
    );
    expect(result.code).toBe(0);
    const text = out.join("\n");
    expect(text).toContain("DRY RUN");
    expect(text).toMatch(/^story\s+7\s+0\s+4\s+1$/m);
    expect(text).toMatch(/^redirect\s+2\s+0\s+0\s+0$/m);
    expect(text).toContain(
      'story /election-night "Election night, in pictures", published 6 Nov 2024, 01:00 UTC, public',
    );
    expect(await db.story.count({ where: { accountId: acc.id } })).toBe(0);
  });

  it("refuses whole a truncated file, naming the line, and writes nothing", async () => {
    const db = await getDb();
    const acc = await account(db);
    const before = await tableCounts(db);
    await expect(importFixture(db, acc.id, "wxr", "wxr-content-truncated.xml")).rejects.toThrow(
      /^wxr-content-truncated\.xml is not well-formed XML: line \d+: the file ends before <\/rss>, inside the <item> of line \d+: it was cut off\./,
    );
    expect(await tableCounts(db)).toEqual(before);
  });
});
