/**
 * POST .../pages/{b64}/comments/{id}/report: one report per reader and comment (also under
 * parallel requests), visible comments only, the reported queue and the hold after
 * REPORTS_TO_HOLD; and a moderator's ban answered 403 by the REST routes (create, reaction, report).
 */
import { describe, expect, it } from "vitest";

import { getDb } from "@/server/db";
import type { TCommentWire } from "@/server/engagement/comments.schema";
import { REPORTS_TO_HOLD } from "@/server/engagement/reports.schema";
import { call, pageId, readerJwt } from "@/server/testing/engagement";
import { createTestPublisher } from "@/server/testing/publishing-factories";
import { createTestStaff } from "@/server/testing/staff";

import { POST as CREATE, GET as LIST } from "../../../comments.json/route";
import { POST as REACT } from "../reactions/[reaction_id]/route";
import { POST } from "./route";

const URL_A = "https://news.example.com/politics/a-story";
const B64 = pageId(URL_A);

type ErrorBody = { error: { code: string; message: string } };

async function setup() {
  const db = await getDb();
  const account = await createTestPublisher(db);
  const id = String(account.id);
  const moderator = await createTestStaff(db, { account: account.id, roles: ["MODERATOR"] });
  const authorJwt = await readerJwt({ id: "author", name: "Author" });
  const res = await call(
    CREATE,
    "POST",
    "/x",
    { account_id: id, encoded_url: B64 },
    { comment: { body: { ops: [{ insert: "A comment worth reading." }] } }, jwt: authorJwt },
  );
  expect(res.status).toBe(201);
  const comment = ((await res.json()) as { comment: TCommentWire }).comment;
  return { db, account, id, moderator, comment, authorJwt };
}

const report = (id: string, commentId: number | string, body: unknown, b64 = B64) =>
  call(POST, "POST", "/x", { account_id: id, encoded_url: b64, comment_id: String(commentId) }, body);

describe("POST comments/{comment_id}/report", () => {
  it("records one report per reader, also when it arrives many times at once", async () => {
    const { db, id, comment, moderator } = await setup();
    const jwt = await readerJwt({ id: "reporter", name: "Rita" });
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => report(id, comment.id, { jwt, reason: "abuse", note: "  Rude to others  " })),
    );
    expect(answers.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 200, 201]);
    const first = (await answers.find((r) => r.status === 201)!.json()) as { report: unknown; created: boolean };
    expect(first).toMatchObject({
      created: true,
      report: { comment_id: comment.id, reason: "abuse", note: "Rude to others" },
    });
    // The rule closest to its limit is shown: the reader's (20 a minute), not the IP's (30).
    expect(answers[0]!.headers.get("ratelimit-limit")).toBe("20");
    // A second report with another reason answers the first one.
    const again = await report(id, comment.id, { jwt, reason: "spam" });
    expect(again.status).toBe(200);
    expect(await again.json()).toMatchObject({ created: false, report: { reason: "abuse" } });

    expect(await db.commentReport.count({ where: { commentId: comment.id } })).toBe(1);
    expect(await db.comment.findUniqueOrThrow({ where: { id: comment.id } })).toMatchObject({
      openReports: 1,
      isPublished: true,
    });
    expect(await db.webhookEvent.count({ where: { name: "comment.reported" } })).toBe(1);
    expect(await moderator.caller.moderation.counts()).toMatchObject({ reported: 1 });
    const [item] = (await moderator.caller.moderation.queue({ tab: "reported" })).items;
    expect(item).toMatchObject({ id: comment.id, reportCount: 1, reportReasons: [{ reason: "abuse", count: 1 }] });
    expect(item!.reportNotes).toEqual(["Rude to others"]);

    // A decision closes the reports: out of the reported tab, still counted in the history.
    await moderator.caller.moderation.act({ commentId: comment.id, action: "approve" });
    expect(await moderator.caller.moderation.counts()).toMatchObject({ reported: 0 });
    const history = await moderator.caller.moderation.history({ memberId: comment.author_id });
    expect(history.reportsAgainst).toMatchObject([{ commentId: comment.id, reason: "abuse" }]);
  });

  it(`holds an undecided comment for a moderator after ${REPORTS_TO_HOLD} reports`, async () => {
    const { db, id, comment, moderator } = await setup();
    for (let i = 0; i < REPORTS_TO_HOLD; i += 1) {
      const res = await report(id, comment.id, {
        jwt: await readerJwt({ id: `r${i}`, name: `R${i}` }),
        reason: "spam",
      });
      expect(res.status).toBe(201);
    }
    expect(await db.comment.findUniqueOrThrow({ where: { id: comment.id } })).toMatchObject({
      isPublished: false,
      openReports: REPORTS_TO_HOLD,
    });
    const listed = await call(LIST, "GET", "/x", { account_id: id, encoded_url: B64 });
    expect(((await listed.json()) as { total_count: number }).total_count).toBe(0);
    expect(await moderator.caller.moderation.counts()).toMatchObject({ pending: 1, reported: 1 });
    // The held comment is no longer visible: no more reports.
    expect(
      (await report(id, comment.id, { jwt: await readerJwt({ id: "late", name: "L" }), reason: "spam" })).status,
    ).toBe(404);
  });

  it("refuses bad reasons (400), no jwt (401), one's own comment (403), invisible comments (404)", async () => {
    const { db, account, id, comment, authorJwt } = await setup();
    const jwt = await readerJwt({ id: "reporter", name: "Rita" });
    expect((await report(id, comment.id, { jwt, reason: "boring" })).status).toBe(400);
    expect((await report(id, comment.id, { jwt, reason: "other", note: "x".repeat(501) })).status).toBe(400);
    expect((await report(id, comment.id, { jwt, reason: "other", note: "bad\u0007" })).status).toBe(400);
    expect((await report(id, comment.id, { reason: "spam" })).status).toBe(401);
    expect((await report(id, comment.id, { jwt: authorJwt, reason: "spam" })).status).toBe(403);
    expect(
      (await report(id, comment.id, { jwt, reason: "spam" }, pageId("https://news.example.com/other"))).status,
    ).toBe(404);
    const other = await createTestPublisher(db);
    expect((await report(String(other.id), comment.id, { jwt, reason: "spam" })).status).toBe(404);
    await db.comment.update({ where: { id: comment.id }, data: { deletedAt: new Date() } });
    expect((await report(id, comment.id, { jwt, reason: "spam" })).status).toBe(404);
    expect(await db.commentReport.count({ where: { accountId: account.id } })).toBe(0);
  });
});

describe("a banned reader on the REST routes", () => {
  it("is refused create, reaction and report with 403 and the end of the ban", async () => {
    const { db, id, comment, moderator } = await setup();
    const jwt = await readerJwt({ id: "troll", name: "Troll" });
    const first = await call(
      CREATE,
      "POST",
      "/x",
      { account_id: id, encoded_url: B64 },
      { comment: { body: { ops: [{ insert: "First words." }] } }, jwt },
    );
    const memberId = ((await first.json()) as { comment: TCommentWire }).comment.author_id;
    const ban = await moderator.caller.moderation.ban({ memberId, reason: "Trolling", durationDays: 30 });

    const create = await call(
      CREATE,
      "POST",
      "/x",
      { account_id: id, encoded_url: B64 },
      { comment: { body: { ops: [{ insert: "More words." }] } }, jwt },
    );
    expect(create.status).toBe(403);
    expect(((await create.json()) as ErrorBody).error.message).toBe(
      `You are banned from commenting here until ${ban.expiresAt!.toISOString()}.`,
    );
    const react = await call(
      REACT,
      "POST",
      "/x",
      { account_id: id, encoded_url: B64, comment_id: String(comment.id), reaction_id: "like" },
      { jwt },
    );
    expect(react.status).toBe(403);
    expect((await report(id, comment.id, { jwt, reason: "spam" })).status).toBe(403);
    expect(await db.commentReaction.count()).toBe(0);
    expect(await db.commentReport.count()).toBe(0);
    expect(await db.comment.count({ where: { authorId: memberId } })).toBe(1);
  });
});
