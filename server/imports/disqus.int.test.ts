/**
 * A Disqus export imported into an account, on PGlite and PostgreSQL: what lands, field by field
 * (pages, comments, members, import records, the run and its audit entries), the counts and the
 * comments API after it, the dry run and the second run changing nothing, a killed run resuming
 * to the same result, and nothing said to webhooks or readers.
 */
import { describe, expect, it } from "vitest";

import { GET as LIST } from "@/app/api/v1/accounts/[account_id]/pages/[encoded_url]/comments.json/route";
import { getDb } from "@/server/db";
import type { Db } from "@/server/db/client";
import { pageAndRealmCounts } from "@/server/engagement/comment-queries";
import { VISIBLE } from "@/server/engagement/comments";
import type { TCommentList } from "@/server/engagement/comments.schema";
import { call, pageId } from "@/server/testing/engagement";
import { describeImportConformance } from "@/server/testing/import-conformance";
import { commentImportAccount, importFixture, tableCounts } from "@/server/testing/imports";

const T1 = "https://news.example.com/2019/01/hello?a=1&b=2";
const T2 = "https://news.example.com/2019/02/zoe";

/** The account, Ada as a member already, T1's page with a comment of its own, and a comment.created webhook. */
async function setup() {
  const made = await commentImportAccount(await getDb(), { page: T1, webhook: true });
  return { ...made, page: made.page!, own: made.own! };
}

async function list(accountId: number, url: string): Promise<TCommentList> {
  const res = await call(LIST, "GET", `/api/v1/accounts/${accountId}/pages/x/comments.json?sort_order=oldest`, {
    account_id: String(accountId),
    encoded_url: pageId(url),
  });
  expect(res.status).toBe(200);
  return (await res.json()) as TCommentList;
}

async function commentOf(db: Db, accountId: number, sourceId: string) {
  const record = await db.importRecord.findFirstOrThrow({
    where: { accountId, source: "disqus", kind: "comment", sourceId },
  });
  return db.comment.findUniqueOrThrow({
    where: { id: Number(record.targetId) },
    include: { author: true, page: true },
  });
}

// eslint-disable-next-line max-lines-per-function -- a describe block of short cases that share its setup
describe("importing a Disqus export", () => {
  it("lands pages, comments and members field by field, quietly", async () => {
    const { db, account, ada, page, own } = await setup();
    const report = await importFixture(db, account.id, "disqus", "disqus-sample.xml");

    expect(report.status).toBe("completed");
    expect(report.kinds).toEqual({
      page: { create: 1, update: 1, skip: 2, refuse: 1 },
      comment: { create: 14, update: 0, skip: 0, refuse: 4 },
      // pills4u wrote nothing but spam: no member.
      member: { create: 4, update: 1, skip: 0, refuse: 0 },
    });
    const refused = report.lines.refuse.map((l) => `${l.kind} ${l.sourceId}: ${l.reason}`);
    expect(refused).toEqual([
      expect.stringMatching(
        /^page 1004: https:\/\/old-blog\.example\.org\/2015\/elsewhere is not on the publication's hosts/,
      ),
      "comment 5012: its thread 9999 is not in the file",
      "comment 5013: its thread 1004 was not imported (see that thread's line)",
      "comment 5001: its id 5001 appears more than once: only the first is imported",
      "comment 5016: it replies to a post of another thread (5001, on 1001)",
    ]);
    expect(report.notes).toEqual(
      expect.arrayContaining([
        'e-mail "Ada@Example.com" is read as ada@example.com: one reader whatever the spelling',
        "post 5015 replies to 4242, which is not in the file: imported as a top-level comment",
      ]),
    );

    // Pages: the existing one gets its headline, the second is created, the empty thread is not.
    expect(await db.page.findUniqueOrThrow({ where: { id: page.id } })).toMatchObject({ headline: "Hello, readers" });
    const zoe = await db.page.findUniqueOrThrow({ where: { accountId_url: { accountId: account.id, url: T2 } } });
    expect(zoe).toMatchObject({
      headline: "Zoë et les Ångström: 日本語のタイトル",
      createdAt: new Date("2019-02-01T09:30:00Z"),
    });
    expect(await db.page.count({ where: { accountId: account.id } })).toBe(2);

    // The first post: its HTML as ops, its author the existing member, its date kept.
    const first = await commentOf(db, account.id, "5001");
    expect(first).toMatchObject({
      pageId: page.id,
      parentCommentId: null,
      authorId: ada.id,
      createdAt: new Date("2019-01-10T09:00:00Z"),
      isPublished: true,
      isSpam: false,
      deletedAt: null,
      guest: false,
      moderationState: "UNDECIDED",
      toxicity: 0,
    });
    expect(first.body).toEqual({
      ops: [
        { insert: "First! I love this piece.\nSecond line, with a " },
        { attributes: { link: "https://example.org/source?x=1&y=2" }, insert: "source" },
        { insert: ".\n\nAnd a new paragraph.\n" },
      ],
    });
    // Replies five deep, one listed before its parent: all under the top-level post, their own parents kept.
    for (const [id, parent] of [
      ["5002", null],
      ["5003", "5002"],
      ["5004", "5003"],
      ["5005", "5004"],
      ["5006", "5005"],
    ] as const) {
      const reply = await commentOf(db, account.id, id);
      expect(reply.parentCommentId).toBe(first.id);
      const record = await db.importRecord.findFirstOrThrow({ where: { kind: "comment", sourceId: id } });
      expect(record.sourceParentId).toBe(parent);
    }
    expect((await commentOf(db, account.id, "5008")).parentCommentId).toBe(
      (await commentOf(db, account.id, "5007")).id,
    );
    // Ada under three spellings is one member: the one who signed up, now also disqus:ada_l.
    for (const id of ["5003", "5006"]) expect((await commentOf(db, account.id, id)).authorId).toBe(ada.id);
    // (Placeholder addresses of members without one are random: they may hold "ada" by chance.)
    expect(
      await db.member.count({
        where: { accountId: account.id, email: { contains: "ada", not: { endsWith: "@identities.invalid" } } },
      }),
    ).toBe(1);
    expect(
      await db.memberIdentity.findMany({ where: { memberId: ada.id }, select: { provider: true, externalId: true } }),
    ).toEqual([{ provider: "disqus", externalId: "ada_l" }]);
    const bob = (await commentOf(db, account.id, "5002")).author;
    expect(bob).toMatchObject({ name: "Bob", email: "bob@example.net", emailVerified: false, source: "disqus" });
    expect(
      await db.memberIdentity.count({ where: { memberId: bob.id, provider: "disqus", externalId: "bobby" } }),
    ).toBe(1);
    // States: deleted, spam, anonymous (a guest), held, an orphan reply at the top level.
    expect(await commentOf(db, account.id, "5009")).toMatchObject({
      deletedAt: new Date("2019-02-01T12:00:00Z"),
      isPublished: true,
    });
    expect(await commentOf(db, account.id, "5010")).toMatchObject({
      isSpam: true,
      isPublished: false,
      moderationState: "SPAM",
      decidedAt: new Date("2019-02-01T12:30:00Z"),
      // Its author wrote nothing but spam: a guest under the name given, no member, no address kept.
      guest: true,
      guestName: "Pills",
    });
    expect(await db.member.count({ where: { email: "spammer@spam.example" } })).toBe(0);
    expect(await db.memberIdentity.count({ where: { provider: "disqus", externalId: "pills4u" } })).toBe(0);
    expect(report.notes).toContain(
      "1 author(s) wrote nothing but spam (1 comment(s)): they are not made members; their comments are kept as spam, by a guest under the name given, their addresses not kept",
    );
    const guest = await commentOf(db, account.id, "5011");
    expect(guest).toMatchObject({ guest: true, guestName: "Anonymous Coward 3" });
    expect(await db.memberIdentity.count({ where: { memberId: guest.authorId, provider: "guest" } })).toBe(1);
    expect(await commentOf(db, account.id, "5014")).toMatchObject({ isPublished: false, moderationState: "UNDECIDED" });
    expect((await commentOf(db, account.id, "5015")).parentCommentId).toBeNull();
    const zoeComment = await commentOf(db, account.id, "5007");
    expect(zoeComment.body).toEqual({ ops: [{ insert: "Très bien écrit — 素晴らしい記事です 👍\n" }] });
    expect(zoeComment.author).toMatchObject({ name: "Zoë Ångström", email: "zoe@example.fr" });

    // What was there stays as it was.
    expect(await db.comment.findUniqueOrThrow({ where: { id: own.id } })).toEqual(own);

    // The counts the triggers keep, and the comments API, agree with what landed.
    const t1 = await list(account.id, T1);
    expect(t1.total_count).toBe(7);
    expect(t1.comments.map((c) => c.id)).toEqual([first.id, own.id]);
    expect(t1.comments[0]!.replies!.map((r) => r.body.ops[0])).toEqual(
      ["Depth one.", "Depth two.", "Depth three, listed before depth two.", "Depth four.", "Depth five."].map((t) => ({
        insert: `${t}\n`,
      })),
    );
    expect(t1.comments[0]!.author).toMatchObject({ id: ada.id, name: "Ada (signed up)" });
    const t2 = await list(account.id, T2);
    // Two Disqus threads of one article (their links differ by tracking parameters): one page.
    expect(t2.total_count).toBe(5);
    expect(t2.comments.map((c) => c.body.ops[0])).toEqual([
      { insert: "Très bien écrit — 素晴らしい記事です 👍\n" },
      { insert: "I would rather not sign in.\n" },
      { insert: "Answering a comment Disqus did not export.\n" },
      { insert: "On the second thread of the same article.\n" },
    ]);
    expect(t2.comments[1]!.author).toMatchObject({ guest: true, name: "Anonymous Coward 3" });
    for (const [url, p] of [
      [T1, page.id],
      [T2, zoe.id],
    ] as const) {
      const counts = await pageAndRealmCounts(db, account.id, p);
      expect(counts.stats!.total).toBe(await db.comment.count({ where: { pageId: p, ...VISIBLE } }));
      expect(counts.stats!.total).toBe((await list(account.id, url)).total_count);
    }
    expect((await pageAndRealmCounts(db, account.id, page.id)).realm).toBe(
      await db.comment.count({ where: { accountId: account.id, ...VISIBLE } }),
    );
    expect(t1.comments[0]!.realm_comment_count).toBe(12);

    // Quiet: no event, delivery, job or mail.
    expect(await db.webhookEvent.count()).toBe(0);
    expect(await db.webhookDelivery.count()).toBe(0);
    expect(await db.job.count()).toBe(0);
    expect(await db.outgoingEmail.count()).toBe(0);

    // The run and who ran it.
    const run = await db.importRun.findUniqueOrThrow({ where: { id: report.runId! } });
    expect(run).toMatchObject({ status: "completed", source: "disqus", fileName: "disqus-sample.xml", actorId: null });
    expect(run.fileDigest).toBe(report.digest);
    const audits = await db.auditLog.findMany({ where: { accountId: account.id }, orderBy: { createdAt: "asc" } });
    expect(audits.map((a) => a.action)).toEqual(["import.started", "import.finished"]);
    expect(audits[1]!.metadata).toMatchObject({ system: "import", source: "disqus", status: "completed" });
  });

  it("refuses whole a file whose DTD declares entities (XXE): nothing expanded, nothing written", async () => {
    const { db, account } = await setup();
    const before = await tableCounts(db);
    await expect(importFixture(db, account.id, "disqus", "disqus-xxe.xml")).rejects.toThrow(
      /^disqus-xxe\.xml is not well-formed XML: line 5: its DTD declares entities/,
    );
    expect(await tableCounts(db)).toEqual(before);
  });
});

describeImportConformance("disqus", {
  file: "disqus-sample.xml",
  account: async () => (await setup()).account,
  again: {
    comment: { create: 0, update: 0, skip: 14, refuse: 4 },
    page: { create: 0, update: 0, skip: 4, refuse: 1 },
    member: { create: 0, update: 0, skip: 0, refuse: 0 },
  },
  resume: { stopAts: [3, 9], batchSize: 4 },
  // The killed runs stay "running"; the run that resumes them names the one it resumes.
  afterResume: async (db, killed) => {
    const runs = await db.importRun.findMany({ where: { accountId: killed.id }, orderBy: { startedAt: "asc" } });
    expect(runs.map((r) => r.status)).toEqual(["running", "running", "completed"]);
    const started = await db.auditLog.findFirstOrThrow({ where: { targetId: runs[2]!.id, action: "import.started" } });
    expect(started.metadata).toMatchObject({ resumes: runs[1]!.id });
  },
});
