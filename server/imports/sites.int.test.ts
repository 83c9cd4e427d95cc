/**
 * Two sites imported into one account, on PGlite and PostgreSQL: import records are keyed by the
 * site the file names (a WordPress export's blog URL) or the operator's --site, so the same post
 * and comment ids of two blogs are two stories and two comments; records written before sites
 * were told apart (the empty site) still make a second run of their file skip everything.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

import { afterAll, describe, expect, it } from "vitest";

import { getDb } from "@/server/db";
import type { Db } from "@/server/db/client";
import { siteScope } from "@/server/imports/types";
import { contentImportAccount, FIXTURES, importFixture, tableCounts } from "@/server/testing/imports";

import { importCommand } from "../../scripts/import/cli";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "import-sites-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** `fixture` as another blog's export: the same ids, its channel naming `blog` (its items' links unchanged). */
function otherBlog(fixture: string, blog: string): string {
  const text = fs
    .readFileSync(path.join(FIXTURES, fixture), "utf8")
    .replace(/<(link|wp:base_site_url|wp:base_blog_url)>https:\/\/news\.example\.com<\/\1>/g, `<$1>${blog}</$1>`);
  expect(text).toContain(`<link>${blog}</link>`);
  const file = path.join(dir, `${path.basename(fixture, ".xml")}-${siteScope(blog).replace(/\W/g, "_")}.xml`);
  fs.writeFileSync(file, text);
  return file;
}

const account = (db: Db) => contentImportAccount(db, ["news.example.com"]);

describe("two sites in one account", () => {
  it("names the site a file's ids belong to", () => {
    expect(siteScope("https://www.Old-Blog.example.org/blog/")).toBe("old-blog.example.org/blog");
    expect(siteScope("https://news.example.com")).toBe("news.example.com");
    expect(siteScope(" Sports Desk ")).toBe("sports desk");
    expect(siteScope("")).toBe("");
  });

  it("takes a Disqus export's forum and a Remark42 backup's site id as their site", async () => {
    const db = await getDb();
    const acc = await account(db);
    const disqus = await importFixture(db, acc.id, "disqus", "disqus-sample.xml", { dryRun: true });
    const remark42 = await importFixture(db, acc.id, "remark42", "remark42-sample.jsonl", { dryRun: true });
    expect([disqus.site, remark42.site]).toEqual(["testgazette", "news"]);
  });

  it("lands both sites' posts with the same post ids as two stories each", async () => {
    const db = await getDb();
    const acc = await account(db);
    const first = await importFixture(db, acc.id, "wxr", "wxr-content.xml");
    expect(first.site).toBe("news.example.com");
    const created = first.kinds.story!.create;
    expect(created).toBeGreaterThan(3);
    const storiesAfterFirst = await db.story.count({ where: { accountId: acc.id } });

    const second = await importFixture(db, acc.id, "wxr", otherBlog("wxr-content.xml", "https://sports.example.com"));
    expect(second.site).toBe("sports.example.com");
    // Not "imported before": the other blog's post 10 is another post.
    expect(second.kinds.story).toEqual(first.kinds.story);
    expect(await db.story.count({ where: { accountId: acc.id } })).toBe(storiesAfterFirst + created);
    const sites = await db.importRecord.groupBy({
      by: ["site"],
      where: { accountId: acc.id, kind: "story" },
      _count: true,
      orderBy: { site: "asc" },
    });
    expect(sites).toEqual([
      { site: "news.example.com", _count: created },
      { site: "sports.example.com", _count: created },
    ]);

    // Each site's second run skips its own.
    const counts = await tableCounts(db);
    const again = await importFixture(db, acc.id, "wxr", otherBlog("wxr-content.xml", "https://sports.example.com"));
    expect(again.kinds.story!.create).toBe(0);
    expect({ ...(await tableCounts(db)), import_runs: 0, audit_logs: 0 }).toEqual({
      ...counts,
      import_runs: 0,
      audit_logs: 0,
    });
  });

  it("lands both sites' comments with the same comment ids", async () => {
    const db = await getDb();
    const acc = await account(db);
    const first = await importFixture(db, acc.id, "wxr-comments", "wxr-sample.xml");
    const second = await importFixture(
      db,
      acc.id,
      "wxr-comments",
      otherBlog("wxr-sample.xml", "https://old.example.org"),
    );
    expect([first.site, second.site]).toEqual(["news.example.com", "old.example.org"]);
    expect(first.kinds.comment!.create).toBeGreaterThan(5);
    expect(second.kinds.comment).toEqual(first.kinds.comment);
    const records = await db.importRecord.count({ where: { accountId: acc.id, kind: "comment" } });
    expect(records).toBe(2 * first.kinds.comment!.create);
  });

  it("takes the operator's --site instead of the file's, and says it in the report", async () => {
    const db = await getDb();
    const acc = await account(db);
    const out: string[] = [];
    const io = { out: (t: string) => out.push(t), err: (t: string) => out.push(t) };
    const file = path.join(FIXTURES, "wxr-content.xml");
    const into = ["--account", (await db.account.findUniqueOrThrow({ where: { id: acc.id } })).slug];
    const labelled = await importCommand(db, ["--from", "wxr", file, ...into, "--site", "Archive-1"], io);
    expect(labelled.code).toBe(0);
    expect(labelled.report!.site).toBe("archive-1");
    expect(out.join("\n")).toContain('Site "archive-1"; quiet: no webhook and no e-mail is sent');
    // The same file under its own site is another site's posts.
    const own = await importCommand(db, ["--from", "wxr", file, ...into], io);
    expect(own.report!.kinds.story!.create).toBe(labelled.report!.kinds.story!.create);
    const bad = await importCommand(db, ["--from", "wxr", file, ...into, "--site", "a b;c"], io);
    expect(bad.code).toBe(2);
  });

  it("keeps records written before sites were told apart: their file's second run skips everything", async () => {
    const db = await getDb();
    const acc = await account(db);
    const first = await importFixture(db, acc.id, "wxr", "wxr-content.xml");
    // As the migration left the records of earlier runs.
    await db.importRecord.updateMany({ where: { accountId: acc.id }, data: { site: "" } });
    const counts = await tableCounts(db);
    const again = await importFixture(db, acc.id, "wxr", "wxr-content.xml");
    expect(again.kinds.story).toEqual({
      create: 0,
      update: 0,
      skip: first.kinds.story!.create + first.kinds.story!.skip,
      refuse: first.kinds.story!.refuse,
    });
    expect({ ...(await tableCounts(db)), import_runs: 0, audit_logs: 0 }).toEqual({
      ...counts,
      import_runs: 0,
      audit_logs: 0,
    });
  });
});
