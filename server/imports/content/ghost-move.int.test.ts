/**
 * A Ghost move keeps its images and its access rules (ghost-move.json, the structures of Ghost 4-5
 * exports: __GHOST_URL__ in html, Lexical, Mobiledoc, feature_image and posts_meta; root-relative
 * Mobiledoc image paths; captions; products/posts_products tiers; e-mail-only posts; the
 * members-only marker and paywall cards), on PGlite and PostgreSQL: URLs on the old site's
 * address (--ghost-url, else the account's site URL), every image kept or named in the report,
 * tiers as ordered access levels, e-mail-only posts as drafts, the paywall split point stored and
 * served as the story's paywall-at.
 */
import { describe, expect, it } from "vitest";

import * as storyRoute from "@/app/api/v1/stories/[storyId]/route";
import { getDb } from "@/server/db";
import type { Db } from "@/server/db/client";
import { ghostSource } from "@/server/imports/sources";
import { contentImportAccount, importedStory, importFixture, tableCounts } from "@/server/testing/imports";
import { readJson, withParams } from "@/server/testing/newsroom-fixture";

const OLD = "https://old.example.org";
const IMAGES = `${OLD}/content/images/2025/03`;
const ID = (n: number) => (n === 10 ? "6600000000000000000000c0" : `6600000000000000000000b${n}`);
const storyOf = (db: Db, accountId: number, n: number) => importedStory(db, accountId, "ghost", ID(n));

type Element = { type: string; text?: string; title?: string; "image-s3-key"?: string; metadata?: unknown };
const elementsOf = (story: { cards: unknown }) =>
  (story.cards as { "story-elements": Element[] }[]).flatMap((card) => card["story-elements"]);
const texts = (story: { cards: unknown }) => elementsOf(story).map((e) => e.text ?? e["image-s3-key"]);

const importMove = (db: Db, accountId: number, ghostUrl?: string, dryRun = false) =>
  importFixture(db, accountId, "ghost", "ghost-move.json", {
    source: ghostSource(ghostUrl ? { ghostUrl } : {}),
    dryRun,
  });

describe("a Ghost move keeps its images and its access rules", () => {
  it("resolves __GHOST_URL__ on --ghost-url, keeps captions, and names every image it cannot keep", async () => {
    const db = await getDb();
    const acc = await contentImportAccount(db, ["old.example.org"]);
    const report = await importMove(db, acc.id, `${OLD}/`);
    expect(report.problems).toEqual([]);
    expect(report.kinds.story).toEqual({ create: 9, update: 0, skip: 0, refuse: 1 });
    expect(report.lines.refuse.map((l) => [l.sourceId, l.reason])).toEqual([
      [
        ID(10),
        "its images are on cdn.elsewhere.example, not among the account's external image hosts: add them under Settings → Images and logo → External image hosts and run the import again (https://cdn.elsewhere.example/pic.jpg)",
      ],
    ]);
    expect(report.notes).toContain(
      `post ${ID(1)}: its image data:image/png;base64,iVBORw0KGgo= is not a web address: left out`,
    );

    const harbour = await storyOf(db, acc.id, 1);
    expect(harbour).toMatchObject({
      heroImageS3Key: `${IMAGES}/lights.jpg`,
      heroImageMetadata: { alt: "Harbour lights at night" },
      heroImageCaption: `Photo: <a href="${OLD}/author/ada/">Ada</a>`,
      access: "public",
      accessLevelValue: null,
      paywallAt: null,
    });
    const [first, figure] = elementsOf(harbour);
    expect(first!.text).toBe(`<p>Read <a href="${OLD}/earlier/">the earlier piece</a>.</p>`);
    expect(figure).toMatchObject({
      type: "image",
      "image-s3-key": `${IMAGES}/boats.jpg`,
      title: `Boats in the <a href="${OLD}/tag/harbour/">harbour</a>`,
      metadata: { alt: "Boats" },
    });
    expect(JSON.stringify(harbour.cards)).not.toContain("__GHOST_URL__");

    // Lexical: an image node with its caption; Mobiledoc: a root-relative image card with its caption.
    expect(elementsOf(await storyOf(db, acc.id, 3))[1]).toMatchObject({
      "image-s3-key": `${IMAGES}/lexical.jpg`,
      title: "The harbour at <em>dawn</em>",
      metadata: { alt: "The harbour" },
    });
    expect(elementsOf(await storyOf(db, acc.id, 4))[1]).toMatchObject({
      "image-s3-key": `${IMAGES}/relative.png`,
      title: "Sales by month",
      metadata: { alt: "A chart" },
    });

    // A second run changes nothing but its own run record and audit entries.
    const content = async () => {
      const { audit_logs: _audit, import_runs: _runs, ...rest } = await tableCounts(db);
      return rest;
    };
    const before = await content();
    const again = await importMove(db, acc.id, OLD);
    expect(again.kinds.story).toEqual({ create: 0, update: 0, skip: 9, refuse: 1 });
    expect(await content()).toEqual(before);
  });

  it("maps visibility and tiers to ordered access levels, e-mail-only posts to drafts, and keeps the paywall point", async () => {
    const db = await getDb();
    const acc = await contentImportAccount(db, ["old.example.org", "cdn.elsewhere.example"]);
    const report = await importMove(db, acc.id, OLD);
    expect(report.kinds.story).toEqual({ create: 10, update: 0, skip: 0, refuse: 0 });
    const access = async (n: number) => {
      const s = await storyOf(db, acc.id, n);
      return [s.access, s.accessLevelValue, s.status, s.paywallAt];
    };
    // Bronze $5 → 1; Silver $10 (its Stripe price) → 2; Gold $240 a year, archived → 3.
    expect(await access(2)).toEqual(["subscription", null, "PUBLISHED", 2]);
    expect(await access(3)).toEqual(["subscription", 2, "PUBLISHED", 2]);
    expect(await access(4)).toEqual(["subscription", 1, "PUBLISHED", 2]);
    expect(await access(5)).toEqual(["login", null, "PUBLISHED", null]);
    expect(await access(6)).toEqual(["login", null, "PUBLISHED", 1]);
    expect(await access(7)).toEqual(["public", null, "DRAFT", null]);
    expect(await access(8)).toEqual(["public", null, "DRAFT", null]);
    // A public post's marker splits nothing: everyone reads it all. (A Ghost 2 page: `page: 1`, no type.)
    expect(await access(9)).toEqual(["public", null, "PUBLISHED", null]);
    expect((await storyOf(db, acc.id, 9)).metadata).toMatchObject({ "source-type": "page" });
    expect(texts(await storyOf(db, acc.id, 9))).toEqual(["<p>Everyone.</p>", "<p>Everyone too.</p>"]);
    expect(texts(await storyOf(db, acc.id, 2))).toEqual([
      "<p>The free opening.</p>",
      "<p>A second free paragraph.</p>",
      "<p>The paid part.</p>",
    ]);
    expect(report.notes).toEqual(
      expect.arrayContaining([
        `post ${ID(3)}: for Ghost tiers Silver, Gold: access level 2 (plans whose story asset has access_level 2 or more read it)`,
        `post ${ID(4)}: for Ghost tiers Bronze: access level 1 (plans whose story asset has access_level 1 or more read it)`,
        `post ${ID(4)}: Ghost tiers Silver, Gold, not listed, read it too`,
        `post ${ID(5)}: for Ghost tiers including the free one: imported for logged-in readers`,
        `post ${ID(7)}: sent as an e-mail only in Ghost, never on the web: imported as an unpublished draft`,
        `post ${ID(8)}: sent as an e-mail only in Ghost, never on the web: imported as an unpublished draft`,
      ]),
    );
    // An e-mail-only post's address was never public: no redirect.
    expect(await db.customUrl.count({ where: { accountId: acc.id, sourcePath: "/newsletter-of-march" } })).toBe(0);

    // The content API serves the split point as paywall-at.
    const silver = await storyOf(db, acc.id, 3);
    const res = await storyRoute.GET(
      new Request(`https://news.example.com/api/v1/stories/${silver.id}`, { headers: { host: "news.example.com" } }),
      withParams({ storyId: silver.id }),
    );
    expect(res.status).toBe(200);
    const { story } = await readJson<{ story: Record<string, unknown> }>(res);
    expect(story).toMatchObject({ access: "subscription", "access-level-value": 2, "paywall-at": 2 });
  });

  it("reads __GHOST_URL__ as the account's site URL without --ghost-url", async () => {
    const db = await getDb();
    const acc = await contentImportAccount(db, ["news.example.com", "cdn.elsewhere.example"]);
    const report = await importMove(db, acc.id, undefined, true);
    expect(report.kinds.story).toEqual({ create: 10, update: 0, skip: 0, refuse: 0 });
    await importMove(db, acc.id);
    expect((await storyOf(db, acc.id, 1)).heroImageS3Key).toBe(
      "https://news.example.com/content/images/2025/03/lights.jpg",
    );
  });
});
