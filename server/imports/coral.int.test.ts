/**
 * Coral's collections (users.json, stories.json, comments.json, archivedComments.json, as Coral's
 * utilities/download and mongoexport write them) imported into an account, on PGlite and
 * PostgreSQL: what lands, field by field, with Coral's moderation states kept; the report's
 * refusals, problems and notes; the dry run and the second run changing nothing; a killed run
 * resuming to the same result; a folder that is not Coral's refused whole.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

import { afterAll, describe, expect, it } from "vitest";

import { getDb } from "@/server/db";
import type { Db } from "@/server/db/client";
import { describeImportConformance } from "@/server/testing/import-conformance";
import { commentImportAccount, FIXTURES, importFixture, tableCounts } from "@/server/testing/imports";

const DIR = "coral-sample";
const S1 = "https://news.example.com/2021/05/coral";
const S2 = "https://news.example.com/2021/06/zoe";

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "import-coral-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** The account; Ada signed up with her e-mail; Dave known by his Coral identity. */
async function setup() {
  const { db, account, ada, dave } = await commentImportAccount(await getDb(), {
    known: { email: "dave@paper.example", provider: "coral", externalId: "user-dave" },
  });
  return { db, account, ada, dave: dave! };
}

async function commentOf(db: Db, accountId: number, sourceId: string) {
  const record = await db.importRecord.findFirstOrThrow({
    where: { accountId, source: "coral", kind: "comment", sourceId },
  });
  return db.comment.findUniqueOrThrow({
    where: { id: Number(record.targetId) },
    include: { author: { include: { identities: true } }, page: true },
  });
}

const identities = (author: { identities: { provider: string; externalId: string }[] }) =>
  author.identities.map((i) => `${i.provider}:${i.externalId}`).sort();

describe("importing Coral's database", () => {
  it("lands pages, comments and members field by field, with Coral's moderation states", async () => {
    const { db, account, ada, dave } = await setup();
    const report = await importFixture(db, account.id, "coral", DIR);

    expect(report.status).toBe("completed");
    expect(report.kinds).toEqual({
      page: { create: 2, update: 0, skip: 1, refuse: 1 },
      comment: { create: 14, update: 0, skip: 0, refuse: 2 },
      member: { create: 5, update: 1, skip: 0, refuse: 0 },
    });
    expect(report.lines.refuse.map((l) => `${l.kind} ${l.sourceId}: ${l.reason}`)).toEqual([
      expect.stringMatching(
        /^page story-3: https:\/\/old-blog\.example\.org\/2016\/elsewhere is not on the publication's hosts/,
      ),
      "comment c-13: its thread story-3 was not imported (see that thread's line)",
      "comment c-14: its thread story-9 is not in the file",
    ]);
    expect(report.lines.skip.map((l) => `${l.sourceId}: ${l.reason}`)).toEqual(["story-4: no comments in the file"]);
    expect(report.problems).toEqual([]);
    expect(report.notes).toEqual(
      expect.arrayContaining([
        'e-mail "Ada@Example.COM" is read as ada@example.com: one reader whatever the spelling',
        "post c-12 replies to c-999, which is not in the file: imported as a top-level comment",
        'Coral user "Bob" (user-bob) is banned there: their comments are imported in their own states, the ban is not (ban them on the Community page if it should hold)',
        "Coral user user-gone is not in users.json: their comments go to a member named by that id",
      ]),
    );

    // Pages from stories: URL normalised, headline from the scraped title, date the story's.
    const s1 = await db.page.findUniqueOrThrow({ where: { accountId_url: { accountId: account.id, url: S1 } } });
    expect(s1).toMatchObject({ headline: "Coral, readers", createdAt: new Date("2021-05-01T08:00:00Z") });
    const s2 = await db.page.findUniqueOrThrow({ where: { accountId_url: { accountId: account.id, url: S2 } } });
    expect(s2.headline).toBe("Zoë et les Ångström: 日本語のタイトル");
    expect(await db.page.count({ where: { accountId: account.id } })).toBe(2);

    // Approved by a moderator there: published, decided "approved"; the last revision's body and its GIF as a link.
    const first = await commentOf(db, account.id, "c-1");
    expect(first).toMatchObject({
      pageId: s1.id,
      parentCommentId: null,
      authorId: ada.id,
      createdAt: new Date("2021-05-02T09:00:00Z"),
      isPublished: true,
      isSpam: false,
      moderationState: "APPROVED",
      decidedAt: new Date("2021-05-02T09:00:00Z"),
      deletedAt: null,
      guest: false,
    });
    expect(first.body).toEqual({
      ops: [
        { insert: "First! I love this piece.\nSecond line, with a " },
        { attributes: { link: "https://example.org/source?x=1&y=2" }, insert: "source" },
        { insert: ".\nA quoted line.\n\n" },
        { attributes: { link: "https://media.giphy.com/media/g1/giphy.gif" }, insert: "Applause" },
        { insert: "\n" },
      ],
    });
    expect(identities(first.author)).toEqual(["coral:user-ada"]);

    // Replies five deep, one listed before its parent: all under the top-level comment, their own parents kept.
    for (const [n, parent] of [
      [2, null],
      [3, "c-2"],
      [4, "c-3"],
      [5, "c-4"],
      [6, "c-5"],
    ] as const) {
      const reply = await commentOf(db, account.id, `c-${n}`);
      expect(reply).toMatchObject({ parentCommentId: first.id, isPublished: true, moderationState: "UNDECIDED" });
      const record = await db.importRecord.findFirstOrThrow({ where: { kind: "comment", sourceId: `c-${n}` } });
      expect(record.sourceParentId).toBe(parent);
    }

    // Members: Bob by his verified e-mail (banned there, a member here all the same), Carol (unverified
    // e-mail: not taken) by her identity only, Dave found by his, Zoë with her name in full.
    const bob = (await commentOf(db, account.id, "c-2")).author;
    expect(bob).toMatchObject({ name: "Bob", email: "bob@example.net", emailVerified: false, source: "coral" });
    expect(identities(bob)).toEqual(["coral:user-bob"]);
    const carol = (await commentOf(db, account.id, "c-4")).author;
    expect(carol.name).toBe("Carol");
    expect(carol.email).toMatch(/\.invalid$/);
    expect(identities(carol)).toEqual(["coral:user-carol"]);
    expect((await commentOf(db, account.id, "c-3")).authorId).toBe(dave.id);
    expect(await db.member.count({ where: { accountId: account.id, email: "carol@example.org" } })).toBe(0);

    // Coral's states: rejected as spam (Akismet), rejected, pre-moderated, withheld.
    expect(await commentOf(db, account.id, "c-7")).toMatchObject({
      isSpam: true,
      isPublished: false,
      moderationState: "SPAM",
      decidedAt: new Date("2021-05-03T08:00:00Z"),
    });
    expect(await commentOf(db, account.id, "c-8")).toMatchObject({
      authorId: bob.id,
      isSpam: false,
      isPublished: false,
      moderationState: "REJECTED",
      decidedAt: new Date("2021-05-03T09:00:00Z"),
    });
    expect(await commentOf(db, account.id, "c-9")).toMatchObject({
      isPublished: false,
      moderationState: "UNDECIDED",
      decidedAt: null,
    });

    // A deleted account's comment: an unnamed guest's placeholder, its reply (Zoë, in unicode) under it.
    const deleted = await commentOf(db, account.id, "c-10");
    expect(deleted).toMatchObject({
      guest: true,
      guestName: null,
      isPublished: true,
      deletedAt: new Date("2021-06-02T08:00:00Z"),
      body: { ops: [{ insert: "\n" }] },
    });
    const zoe = await commentOf(db, account.id, "c-11");
    expect(zoe).toMatchObject({ parentCommentId: deleted.id, pageId: s2.id });
    expect(zoe.body).toEqual({ ops: [{ insert: "Très bien écrit — 素晴らしい記事です 👍\n" }] });
    expect(zoe.author).toMatchObject({ name: "Zoë Ångström 日本", email: "zoe@example.fr" });

    // The orphan reply at the top level; the author missing from users.json a member named by the id.
    expect((await commentOf(db, account.id, "c-12")).parentCommentId).toBeNull();
    const gone = await commentOf(db, account.id, "c-15");
    expect(gone).toMatchObject({ isPublished: false, moderationState: "UNDECIDED" });
    expect(gone.author.name).toBe("user-gone");
    expect(identities(gone.author)).toEqual(["coral:user-gone"]);

    // An archived comment, in mongoexport's Extended JSON.
    expect(await commentOf(db, account.id, "c-20")).toMatchObject({
      authorId: dave.id,
      pageId: s2.id,
      createdAt: new Date("2021-06-01T12:00:00Z"),
      isPublished: true,
      moderationState: "APPROVED",
    });

    expect(await db.outgoingEmail.count()).toBe(0);
    expect(await db.webhookEvent.count()).toBe(0);
  });

  it("refuses whole a file, or a folder without Coral's collections, changing nothing", async () => {
    const { db, account } = await setup();
    const before = await tableCounts(db);
    await expect(importFixture(db, account.id, "coral", path.join(FIXTURES, DIR, "comments.json"))).rejects.toThrow(
      "comments.json is not a folder holding users.json, stories.json, comments.json (Coral's utilities/download or mongoexport).",
    );
    fs.copyFileSync(path.join(FIXTURES, DIR, "comments.json"), path.join(tmp, "comments.json"));
    await expect(importFixture(db, account.id, "coral", tmp)).rejects.toThrow(
      /is not a folder holding .*: users\.json, stories\.json missing\.$/,
    );
    await expect(importFixture(db, account.id, "coral", path.join(tmp, "nowhere"))).rejects.toThrow(
      /no such file or folder/,
    );
    expect(await tableCounts(db)).toEqual(before);
  });
});

describeImportConformance("coral", {
  file: DIR,
  account: async () => (await setup()).account,
  again: {
    comment: { create: 0, update: 0, skip: 14, refuse: 2 },
    member: { create: 0, update: 0, skip: 0, refuse: 0 },
  },
  resume: { stopAts: [2, 8], batchSize: 3 },
});
