/**
 * A Remark42 backup imported into an account, on PGlite and PostgreSQL: what lands, field by field
 * (pages, comments, members and their identities, import records), the report's refusals, problems
 * and notes, the dry run and the second run changing nothing, a killed run resuming to the same
 * result, a gzipped backup read as the plain one, and a file that is not a backup refused whole.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";

import { afterAll, describe, expect, it } from "vitest";

import { getDb } from "@/server/db";
import type { Db } from "@/server/db/client";
import { describeImportConformance } from "@/server/testing/import-conformance";
import {
  commentImportAccount,
  FIXTURES,
  importAccount,
  importFixture,
  importSnapshot,
  tableCounts,
} from "@/server/testing/imports";

import { ImportFileError } from "./types";

const FILE = "remark42-sample.jsonl";
const T1 = "https://news.example.com/2020/03/remark";
const T2 = "https://news.example.com/2020/04/zoe";
const ADA = "github_2c8f7a0b1d3e4f5a6b7c8d9e0f1a2b3c4d5e6f70";
const BOB = "google_9d1e2f3a4b5c6d7e8f9a0b1c2d3e4f5a6b7c8d9e";
const CAROL = "email_3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e";
const DAVE = "github_dave0000000000000000000000000000000000";
const id = (n: number) => `7b0a3e5c-5f1d-4d6b-9a4e-${String(n).padStart(12, "0")}`;

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "import-remark42-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** The account; Ada signed up with her e-mail; Dave known by his Remark42 identity; T1's page with a comment of its own. */
async function setup() {
  const made = await commentImportAccount(await getDb(), {
    known: { email: "dave@example.com", provider: "remark42", externalId: DAVE },
    page: T1,
  });
  return { ...made, dave: made.dave!, page: made.page!, own: made.own! };
}

async function commentOf(db: Db, accountId: number, sourceId: string) {
  const record = await db.importRecord.findFirstOrThrow({
    where: { accountId, source: "remark42", kind: "comment", sourceId },
  });
  return db.comment.findUniqueOrThrow({
    where: { id: Number(record.targetId) },
    include: { author: { include: { identities: true } }, page: true },
  });
}

describe("importing a Remark42 backup", () => {
  it("lands pages, comments and members field by field", async () => {
    const { db, account, ada, dave, page, own } = await setup();
    const report = await importFixture(db, account.id, "remark42", FILE);

    expect(report.status).toBe("completed");
    expect(report.kinds).toEqual({
      page: { create: 1, update: 1, skip: 0, refuse: 1 },
      comment: { create: 11, update: 0, skip: 0, refuse: 4 },
      member: { create: 3, update: 1, skip: 0, refuse: 0 },
    });
    expect(report.lines.refuse.map((l) => `${l.kind} ${l.sourceId}: ${l.reason}`)).toEqual([
      expect.stringMatching(
        /^page https:\/\/old-blog\.example\.org\/2016\/elsewhere: .* is not on the publication's hosts/,
      ),
      `comment ${id(13)}: its time is missing (line 14)`,
      `comment ${id(14)}: its thread https://old-blog.example.org/2016/elsewhere was not imported (see that thread's line)`,
      `comment ${id(15)}: its message is empty once read as text`,
      `comment ${id(1)}: its id ${id(1)} appears more than once: only the first is imported`,
    ]);
    expect(report.problems).toEqual([]);
    expect(report.notes).toEqual(
      expect.arrayContaining([
        'e-mail "Ada@Example.com" is read as ada@example.com: one reader whatever the spelling',
        `post ${id(10)} replies to ffffffff-0000-4000-8000-00000000dead, which is not in the file: imported as a top-level comment`,
        `Remark42 user "Bob" (${BOB}) is blocked there until 31 Dec 2026, 00:00 UTC: their comments are imported as Remark42 shows them, the block is not (ban them on the Community page if it should hold)`,
      ]),
    );

    // Pages: the existing one gets its headline, the second is created with its title and first date.
    expect(await db.page.findUniqueOrThrow({ where: { id: page.id } })).toMatchObject({ headline: "Remark, readers" });
    expect(
      await db.page.findUniqueOrThrow({ where: { accountId_url: { accountId: account.id, url: T2 } } }),
    ).toMatchObject({ headline: "Zoë et les Ångström: 日本語のタイトル", createdAt: new Date("2020-04-01T10:00:00Z") });
    expect(await db.page.count({ where: { accountId: account.id } })).toBe(2);

    // The first comment: HTML as ops, the time's offset taken into account, Ada found by her confirmed e-mail.
    const first = await commentOf(db, account.id, id(1));
    expect(first).toMatchObject({
      pageId: page.id,
      parentCommentId: null,
      authorId: ada.id,
      createdAt: new Date("2020-03-10T14:00:00Z"),
      isPublished: true,
      isSpam: false,
      deletedAt: null,
      decidedAt: null,
      guest: false,
      guestName: null,
      moderationState: "UNDECIDED",
    });
    expect(first.body).toEqual({
      ops: [
        { insert: "First! I love this piece.\nSecond line, with a " },
        { attributes: { link: "https://example.org/source?x=1&y=2" }, insert: "source" },
        { insert: ".\n\nAnd a new paragraph.\n" },
      ],
    });
    expect(first.author.identities.map((i) => `${i.provider}:${i.externalId}`)).toEqual([`remark42:${ADA}`]);

    // Replies five deep, one listed before its parent: all under the top-level comment, their own parents kept.
    for (const [n, parent] of [
      [2, null],
      [3, 2],
      [4, 3],
      [5, 4],
      [6, 5],
    ] as const) {
      const reply = await commentOf(db, account.id, id(n));
      expect(reply.parentCommentId).toBe(first.id);
      expect(reply.body).toEqual({ ops: [{ insert: expect.stringMatching(/^Depth /) as string }] });
      const record = await db.importRecord.findFirstOrThrow({ where: { kind: "comment", sourceId: id(n) } });
      expect(record.sourceParentId).toBe(parent === null ? null : id(parent));
    }
    expect((await commentOf(db, account.id, id(2))).createdAt).toEqual(new Date("2020-03-10T15:00:00.123Z"));

    // Bob (blocked there) and Carol (an e-mail login whose address the backup does not hold): members of their own.
    const bob = (await commentOf(db, account.id, id(2))).author;
    expect(bob).toMatchObject({ name: "Bob", emailVerified: false, source: "remark42" });
    expect(bob.email).toMatch(/\.invalid$/);
    expect(bob.identities.map((i) => `${i.provider}:${i.externalId}`)).toEqual([`remark42:${BOB}`]);
    expect((await commentOf(db, account.id, id(6))).authorId).toBe(bob.id);
    const carol = (await commentOf(db, account.id, id(4))).author;
    expect(carol).toMatchObject({ name: "Carol", source: "remark42" });
    expect(carol.email).toMatch(/\.invalid$/);
    expect(carol.identities.map((i) => `${i.provider}:${i.externalId}`)).toEqual([`remark42:${CAROL}`]);
    expect((await commentOf(db, account.id, id(5))).authorId).toBe(ada.id);

    // The anonymous login is a guest with the name given, reduced to what guest names hold.
    const guest = await commentOf(db, account.id, id(3));
    expect(guest).toMatchObject({ guest: true, guestName: "Zoë guest" });
    expect(guest.author.identities.map((i) => i.provider)).toEqual(["guest"]);

    // A deleted comment by Dave (found by his identity): a published placeholder, its reply under it.
    const deleted = await commentOf(db, account.id, id(7));
    expect(deleted).toMatchObject({
      authorId: dave.id,
      isPublished: true,
      deletedAt: new Date("2020-03-11T08:00:00Z"),
      body: { ops: [{ insert: "\n" }] },
    });
    expect(await commentOf(db, account.id, id(8))).toMatchObject({ authorId: dave.id, parentCommentId: deleted.id });

    // Unicode kept; the orphan reply at the top level; the hard-deleted user's comment a nameless guest's placeholder.
    const zoe = await commentOf(db, account.id, id(9));
    expect(zoe).toMatchObject({ guest: true, guestName: "Zoë guest", pageId: zoe.page.id });
    expect(zoe.page.url).toBe(T2);
    expect(zoe.body).toEqual({ ops: [{ insert: "Très bien écrit — 素晴らしい記事です 👍\n" }] });
    expect((await commentOf(db, account.id, id(10))).parentCommentId).toBeNull();
    expect(await commentOf(db, account.id, id(11))).toMatchObject({
      guest: true,
      guestName: null,
      parentCommentId: zoe.id,
      deletedAt: new Date("2020-04-01T12:00:00Z"),
    });

    // What was there stays as it was; no e-mail was taken from an id's hash.
    expect(await db.comment.findUniqueOrThrow({ where: { id: own.id } })).toEqual(own);
    // (Placeholder addresses of members without one are random: they may hold "ada" by chance.)
    expect(
      await db.member.count({
        where: { accountId: account.id, email: { contains: "ada", not: { endsWith: "@identities.invalid" } } },
      }),
    ).toBe(1);
    expect(await db.outgoingEmail.count()).toBe(0);
    expect(await db.webhookEvent.count()).toBe(0);
  });

  it("reads a gzipped backup as the plain one, and refuses whole a file that is not a backup", async () => {
    const db = await getDb();
    const plain = await importAccount(db, "plain");
    const zipped = await importAccount(db, "zipped");
    const gz = path.join(tmp, "userbackup-news-20260101.gz");
    fs.writeFileSync(gz, gzipSync(fs.readFileSync(path.join(FIXTURES, FILE))));
    const a = await importFixture(db, plain.id, "remark42", FILE);
    const b = await importFixture(db, zipped.id, "remark42", gz);
    expect(b.kinds).toEqual(a.kinds);
    expect(b.problems).toEqual(a.problems);
    expect(await importSnapshot(db, zipped.id)).toEqual(await importSnapshot(db, plain.id));

    const before = await tableCounts(db);
    await expect(importFixture(db, plain.id, "remark42", "disqus-sample.xml")).rejects.toThrow(
      new ImportFileError(
        'disqus-sample.xml is not a Remark42 backup: its first line is not the {"version":1,"users":[…],"posts":[…]} line a Remark42 backup starts with.',
      ),
    );
    const v2 = path.join(tmp, "v2.jsonl");
    fs.writeFileSync(v2, '{"version":2,"users":[],"posts":[]}\n');
    await expect(importFixture(db, plain.id, "remark42", v2)).rejects.toThrow(/of version 2: only versions 0 and 1/);
    const empty = path.join(tmp, "empty.jsonl");
    fs.writeFileSync(empty, "");
    await expect(importFixture(db, plain.id, "remark42", empty)).rejects.toThrow(/is empty/);
    expect(await tableCounts(db)).toEqual(before);
  });
});

describeImportConformance("remark42", {
  file: FILE,
  account: async () => (await setup()).account,
  again: {
    comment: { create: 0, update: 0, skip: 11, refuse: 4 },
    member: { create: 0, update: 0, skip: 0, refuse: 0 },
  },
  resume: { stopAts: [2, 7], batchSize: 3 },
});
