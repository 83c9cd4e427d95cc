/**
 * A WordPress move whose comments were on Disqus, on PGlite and PostgreSQL: the WXR content
 * import, its own comments, then the Disqus export (fixtures wxr-threads.xml, disqus-threads.xml).
 * Every thread reaches its story's comments page however it names it (thread id, dsq_thread_id,
 * imported URL in another spelling, old slug, redirect, the story's own address, ?p=), one page
 * per link however written, closed threads close their page, and the report says how each thread
 * went and which matched nothing, with their links.
 */
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

import { describe, expect, it } from "vitest";

import { getDb } from "@/server/db";
import type { Db } from "@/server/db/client";
import { matchedTally, UNMATCHED_TALLY } from "@/server/imports/comments/thread-page";
import { commentImportAccount, contentImportAccount, importFixture, tableCounts } from "@/server/testing/imports";

/** Comments per page URL, and the closed pages. */
async function pagesOf(db: Db, accountId: number) {
  const pages = await db.page.findMany({
    where: { accountId },
    select: { url: true, commentMode: true, _count: { select: { comments: true } } },
    orderBy: { url: "asc" },
  });
  return {
    comments: Object.fromEntries(pages.filter((p) => p._count.comments > 0).map((p) => [p.url, p._count.comments])),
    closed: pages.filter((p) => p.commentMode === "CLOSED").map((p) => p.url),
  };
}

const site = "https://news.example.com";

/** A Disqus export of one anonymous comment per thread, `[identifier, link]`; its path. */
async function disqusFile(threads: [string, string][]): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), "threads-"));
  const file = path.join(dir, "disqus.xml");
  const body = threads
    .map(
      ([id, link], i) => `  <thread dsq:id="${i + 1}"><id>${id}</id><forum>gazette</forum>
    <link>${link}</link><title>T${i + 1}</title><createdAt>2024-01-01T00:00:00Z</createdAt></thread>
  <post dsq:id="${100 + i}"><message>&lt;p&gt;Hi&lt;/p&gt;</message><createdAt>2024-01-02T00:00:00Z</createdAt>
    <author><name>Reader</name><isAnonymous>true</isAnonymous></author><thread dsq:id="${i + 1}" /></post>`,
    )
    .join("\n");
  await writeFile(
    file,
    `<?xml version="1.0" encoding="utf-8"?>
<disqus xmlns="http://disqus.com" xmlns:dsq="http://disqus.com/disqus-internals">
${body}
</disqus>
`,
  );
  return file;
}

describe("comment threads of a WordPress move reach their stories", () => {
  it("places every Disqus comment on its story's page, by each way a thread names it", async () => {
    const db = await getDb();
    const acc = await contentImportAccount(db);
    const content = await importFixture(db, acc.id, "wxr", "wxr-threads.xml");
    expect(content.kinds.story).toEqual({ create: 7, update: 0, skip: 0, refuse: 0 });
    const own = await importFixture(db, acc.id, "wxr-comments", "wxr-threads.xml");
    expect(own.kinds.comment).toEqual({ create: 1, update: 0, skip: 0, refuse: 0 });
    const disqus = await importFixture(db, acc.id, "disqus", "disqus-threads.xml");
    expect(disqus.kinds.comment).toEqual({ create: 15, update: 0, skip: 0, refuse: 1 });

    expect(await pagesOf(db, acc.id)).toEqual({
      comments: {
        [`${site}/about-us/`]: 2,
        [`${site}/bridge-repairs`]: 1,
        [`${site}/budget-vote`]: 4,
        [`${site}/flood-warning`]: 2,
        [`${site}/harbour-festival`]: 1,
        [`${site}/mayor-resigns`]: 2,
        [`${site}/school-opens`]: 3,
        [`${site}/tram-line`]: 1,
      },
      // Harbour festival's comments were closed in WordPress; thread 7005 and 7010 on Disqus.
      closed: [`${site}/about-us/`, `${site}/harbour-festival`, `${site}/mayor-resigns`],
    });

    const counts = Object.fromEntries(Object.entries(disqus.tallies).map(([name, t]) => [name, t.count]));
    expect(counts).toEqual({
      [matchedTally("thread id")]: 2,
      [matchedTally("dsq_thread_id")]: 1,
      [matchedTally("imported URL")]: 2,
      [matchedTally("old slug")]: 1,
      [matchedTally("redirect")]: 1,
      [matchedTally("canonical URL")]: 1,
      [UNMATCHED_TALLY]: 3,
    });
    expect(disqus.tallies[UNMATCHED_TALLY]!.lines).toEqual([
      'thread 7009: https://news.example.com/about-us/?utm_medium=email&ref=footer "Thread 7009"',
      'thread 7010: http://news.example.com:80/about-us "Thread 7010"',
      'thread 7011: https://elsewhere.example.net/2020/01/guest-post/ "Thread 7011"',
    ]);

    const before = await tableCounts(db);
    const again = await importFixture(db, acc.id, "disqus", "disqus-threads.xml");
    for (const counts of Object.values(again.kinds)) expect(counts.create + counts.update).toBe(0);
    // The run's own bookkeeping only: its run row and its two audit entries.
    expect(await tableCounts(db)).toEqual({
      ...before,
      import_runs: before.import_runs! + 1,
      audit_logs: before.audit_logs! + 2,
    });
  });

  it("plans the same in a dry run, the threads of one page on one page", async () => {
    const db = await getDb();
    const acc = await contentImportAccount(db);
    await importFixture(db, acc.id, "wxr", "wxr-threads.xml");
    const before = await tableCounts(db);
    const dry = await importFixture(db, acc.id, "disqus", "disqus-threads.xml", { dryRun: true });
    expect(await tableCounts(db)).toEqual(before);
    const real = await importFixture(db, acc.id, "disqus", "disqus-threads.xml");
    expect(dry.kinds).toEqual(real.kinds);
    expect(dry.tallies).toEqual(real.tallies);
  });

  it("closes the pages of Remark42's read-only posts and Coral's closed stories", async () => {
    const db = await getDb();
    const { account: remark } = await commentImportAccount(db);
    await importFixture(db, remark.id, "remark42", "remark42-sample.jsonl");
    expect((await pagesOf(db, remark.id)).closed).toEqual([`${site}/2020/03/remark`]);
    const { account: coral } = await commentImportAccount(db);
    await importFixture(db, coral.id, "coral", "coral-sample");
    expect((await pagesOf(db, coral.id)).closed).toEqual([`${site}/2021/06/zoe`]);
  });

  it("finds a Ghost story by the Ghost theme's Disqus identifier, ghost-<post id>", async () => {
    const db = await getDb();
    const acc = await contentImportAccount(db, ["ghost.example.com"]);
    await importFixture(db, acc.id, "ghost", "ghost-export.json");
    const dir = await mkdtemp(path.join(tmpdir(), "threads-"));
    const file = path.join(dir, "disqus-ghost.xml");
    await writeFile(
      file,
      `<?xml version="1.0" encoding="utf-8"?>
<disqus xmlns="http://disqus.com" xmlns:dsq="http://disqus.com/disqus-internals">
  <thread dsq:id="1"><id>ghost-6500000000000000000000a1</id><forum>ghostgazette</forum>
    <link>https://old.example.net/somewhere-else/</link><title>T</title><createdAt>2024-01-01T00:00:00Z</createdAt></thread>
  <post dsq:id="2"><message>&lt;p&gt;Hi&lt;/p&gt;</message><createdAt>2024-01-02T00:00:00Z</createdAt>
    <author><name>Reader</name><isAnonymous>true</isAnonymous></author><thread dsq:id="1" /></post>
</disqus>
`,
    );
    const report = await importFixture(db, acc.id, "disqus", file);
    expect(report.tallies[matchedTally("thread id")]?.count).toBe(1);
    expect((await pagesOf(db, acc.id)).comments).toEqual({ [`${site}/election-night`]: 1 });
  });

  it("finds a Ghost story by its comment_id: ghost-<comment_id>, and the WordPress post id Ghost kept there", async () => {
    const db = await getDb();
    const acc = await contentImportAccount(db);
    // Ferry timetable came to Ghost from WordPress (comment_id "123", its post id); Pier reopens did not.
    await importFixture(db, acc.id, "ghost", "ghost-from-wordpress.json");
    const file = await disqusFile([
      ["123 http://old.example/?p=123", "https://old.example/2019/01/ferry/"],
      ["ghost-123", "https://old.example/2019/01/ferry-2/"],
      ["ghost-6600000000000000000000b2", "https://old.example/pier/"],
    ]);
    const report = await importFixture(db, acc.id, "disqus", file);
    expect(report.tallies[matchedTally("thread id")]?.count).toBe(3);
    expect((await pagesOf(db, acc.id)).comments).toEqual({
      [`${site}/ferry-timetable`]: 2,
      [`${site}/pier-reopens`]: 1,
    });
    // A second content run records no key twice.
    const keys = () => db.importRecord.count({ where: { accountId: acc.id, kind: "thread-key" } });
    const before = await keys();
    await importFixture(db, acc.id, "ghost", "ghost-from-wordpress.json");
    expect(await keys()).toBe(before);
  });

  it("finds a story by the canonical URL it keeps when nothing else names it", async () => {
    const db = await getDb();
    const acc = await contentImportAccount(db);
    await importFixture(db, acc.id, "wxr", "wxr-threads.xml");
    // An address on the old site no thread key, redirect or slug knows: only the canonical URL.
    const canonical = "https://www.oldgazette.example.org/series/transport/part-2";
    await db.story.update({
      where: { accountId_slug: { accountId: acc.id, slug: "tram-line" } },
      data: { canonicalUrl: canonical },
    });
    const report = await importFixture(db, acc.id, "disqus", await disqusFile([["transport-part-2", canonical]]));
    const counts = Object.fromEntries(Object.entries(report.tallies).map(([name, t]) => [name, t.count]));
    expect(counts).toEqual({ [matchedTally("canonical URL")]: 1 });
    expect((await pagesOf(db, acc.id)).comments).toEqual({ [`${site}/tram-line`]: 1 });
  });
});
