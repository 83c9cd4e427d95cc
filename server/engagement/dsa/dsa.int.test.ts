/**
 * The DSA notice and action end to end on the database (docs/privacy.md, "Illegal-content
 * notices"): an anonymous notice through the REST route (captcha, receipt mailed once, the comment
 * left as it is), bad input refused with nothing written, the moderator's decision (concurrent
 * decisions: one wins, each mail once), the author's appeal from the mailed link (once; a second
 * and a concurrent one refused; another party's secret refused), the appeal's decision (the
 * comment restored, the final mails once each), the transparency report's counts, and erasure.
 */
import { describe, expect, it } from "vitest";

import { POST as APPEAL } from "@/app/api/member/dsa-appeal/route";
import { POST as APPEAL_VIEW } from "@/app/api/member/dsa-appeal/view/route";
import { POST as NOTICE } from "@/app/api/v1/accounts/[account_id]/pages/[encoded_url]/comments/[comment_id]/illegal-content-notice/route";

import type { ApiUser } from "../../auth/api-auth";
import { getDb } from "../../db";
import type { Db } from "../../db/client";
import { eraseDsaPersonalData } from "../../privacy/erasure/dsa-notices";
import { solvedCaptcha } from "../../testing/captcha";
import { call, pageId } from "../../testing/engagement";
import { createTestPublisher } from "../../testing/publishing-factories";
import { createTestStaff, trpcCodeOf } from "../../testing/staff";
import { createComment } from "../comments";

const URL_A = "https://news.example.com/politics/a-story";
const AUTHOR: ApiUser = { id: "ada", name: "Ada Lovelace", email: "ada@example.com", avatarUrl: null, provider: null };
const NOTIFIER = "nia@example.org";

async function setup() {
  const db = await getDb();
  const account = await createTestPublisher(db);
  const moderator = await createTestStaff(db, { account: account.id, roles: ["MODERATOR"], name: "Mo" });
  const { response } = await createComment(db, {
    account: { id: account.id, slug: account.slug, name: account.name },
    user: AUTHOR,
    encodedUrl: pageId(URL_A),
    input: { comment: { body: { ops: [{ insert: "I think the council is wrong about the new bridge." }] } } },
    now: new Date(),
  });
  return { db, account, moderator, commentId: response.comment.id };
}

function notice(accountId: number, commentId: number, body: unknown) {
  return call(
    NOTICE,
    "POST",
    "/x",
    { account_id: String(accountId), encoded_url: pageId(URL_A), comment_id: String(commentId) },
    body,
  );
}

const validNotice = async (accountId: number, extra: Record<string, unknown> = {}) => ({
  category: "STATEMENT_CATEGORY_SCAMS_AND_FRAUD",
  law_or_reason: "Fraud under the Criminal Code: it sells fake medicine.",
  name: "Nia",
  email: NOTIFIER,
  good_faith: true,
  locale: "fr",
  captcha_response: await solvedCaptcha(accountId),
  ...extra,
});

const mails = (db: Db, kind: string) =>
  db.outgoingEmail.findMany({ where: { kind }, orderBy: { createdAt: "asc" }, select: { to: true, text: true } });

function tokenIn(text: string): string {
  const m = /dsa-appeal\?token=([^\s]+)/.exec(text);
  if (!m) throw new Error("no appeal link in the mail");
  return decodeURIComponent(m[1]!);
}

const decision = (noticeId: number) => ({
  noticeId,
  action: "remove" as const,
  category: "STATEMENT_CATEGORY_SCAMS_AND_FRAUD" as const,
  ground: "legal" as const,
  groundReference: "Criminal Code, fraud",
  facts: "The comment advertises counterfeit medicine.",
  automated: false,
});

describe("DSA notice and action", () => {
  it(
    "takes a notice, decides it, takes the author's appeal once and decides it, mailing each party once",
    { timeout: 60_000 },
    async () => {
      const { db, account, moderator, commentId } = await setup();

      const res = await notice(account.id, commentId, await validNotice(account.id));
      expect(res.status, await res.clone().text()).toBe(201);
      const { notice: received } = (await res.json()) as { notice: { id: number } };
      // The comment is not hidden by a notice; the notifier has their receipt, in their language.
      expect((await db.comment.findUniqueOrThrow({ where: { id: commentId } })).isPublished).toBe(true);
      const receipts = await mails(db, "dsa.notice_receipt");
      expect(receipts.map((m) => m.to)).toEqual([NOTIFIER]);
      expect(receipts[0]!.text).toContain("Arnaque et fraude");
      expect(await db.auditLog.count({ where: { action: "dsa.notice.received" } })).toBe(1);

      // The same notifier again (a new captcha): the open notice, no second receipt.
      const again = await notice(account.id, commentId, await validNotice(account.id));
      expect(again.status).toBe(200);
      expect(await db.dsaNotice.count()).toBe(1);
      expect(await mails(db, "dsa.notice_receipt")).toHaveLength(1);

      // Two decisions at once: one wins, the other is a conflict; each decision mail goes once.
      const decided = await Promise.allSettled([
        moderator.caller.dsa.decide(decision(received.id)),
        moderator.caller.dsa.decide({ ...decision(received.id), action: "none" }),
      ]);
      expect(decided.filter((r) => r.status === "fulfilled")).toHaveLength(1);
      expect(await trpcCodeOf(moderator.caller.dsa.decide(decision(received.id)))).toBe("CONFLICT");
      const sor = await mails(db, "dsa.statement_of_reasons");
      const told = await mails(db, "dsa.notice_decision");
      expect(sor.map((m) => m.to)).toEqual([AUTHOR.email]);
      expect(told.map((m) => m.to)).toEqual([NOTIFIER]);
      expect(sor[0]!.text).toContain("Criminal Code, fraud");
      const row = await db.dsaNotice.findUniqueOrThrow({ where: { id: received.id } });
      const removed = row.action === "remove";
      expect((await db.comment.findUniqueOrThrow({ where: { id: commentId } })).isPublished).toBe(!removed);
      expect(await db.auditLog.count({ where: { action: "dsa.notice.decided", actorId: moderator.user.id } })).toBe(1);

      // The author appeals from the link; the token is stored hashed only.
      const authorToken = tokenIn(sor[0]!.text);
      const notifierToken = tokenIn(told[0]!.text);
      expect(await db.dsaAppeal.count({ where: { tokenHash: { contains: authorToken.split(".")[1]! } } })).toBe(0);
      const view = await call(APPEAL_VIEW, "POST", "/x", {}, { token: authorToken });
      expect(view.status).toBe(200);
      expect(((await view.json()) as { party: string; can_appeal: boolean }).can_appeal).toBe(true);

      // Someone else's secret on the author's appeal, or a made-up token: 404, nothing changed.
      const forged = `${authorToken.split(".")[0]}.${notifierToken.split(".")[1]}`;
      const refused = await call(APPEAL, "POST", "/x", {}, { token: forged, text: "I want this reviewed, please." });
      expect(refused.status).toBe(404);
      expect((await call(APPEAL, "POST", "/x", {}, { token: "bad", text: "I want this reviewed." })).status).toBe(400);

      const sent = await Promise.all(
        [0, 1].map(() =>
          call(APPEAL, "POST", "/x", {}, { token: authorToken, text: "It was a joke, not an advert. Please review." }),
        ),
      );
      expect(sent.map((r) => r.status).sort()).toEqual([201, 409]);
      const second = await call(APPEAL, "POST", "/x", {}, { token: authorToken, text: "Another try at appealing." });
      expect(second.status).toBe(409);
      const appeal = await db.dsaAppeal.findFirstOrThrow({ where: { party: "author" } });
      expect(appeal.submittedAt).not.toBeNull();

      // The moderator reverses it: the comment is as before the decision; both parties hear once.
      const outcomes = await Promise.allSettled([
        moderator.caller.dsa.decideAppeal({
          appealId: appeal.id,
          outcome: "reversed",
          reasons: "On review it is satire.",
        }),
        moderator.caller.dsa.decideAppeal({ appealId: appeal.id, outcome: "upheld", reasons: "It stays removed." }),
      ]);
      expect(outcomes.filter((r) => r.status === "fulfilled")).toHaveLength(1);
      const finals = await mails(db, "dsa.appeal_decision");
      expect(finals.map((m) => m.to).sort()).toEqual([AUTHOR.email, NOTIFIER].sort());
      const after = await db.dsaAppeal.findUniqueOrThrow({ where: { id: appeal.id } });
      expect(after.decidedById).toBe(moderator.user.id);
      const published = (await db.comment.findUniqueOrThrow({ where: { id: commentId } })).isPublished;
      // remove then reversed → published again; none then reversed → removed; upheld → as decided.
      const expected = after.outcome === "reversed" ? removed : !removed;
      expect(published).toBe(expected);
      expect(await db.auditLog.count({ where: { action: "dsa.appeal.decided" } })).toBe(1);
      expect(await db.auditLog.count({ where: { action: "dsa.appeal.submitted" } })).toBe(1);

      // The transparency report counts it, and erasing the notifier keeps the counts.
      const today = new Date().toISOString().slice(0, 10);
      const report = await moderator.caller.dsa.report({ from: today, to: today });
      expect(report.notices).toBe(1);
      expect(report.byCategory.find((c) => c.key === "STATEMENT_CATEGORY_SCAMS_AND_FRAUD")?.count).toBe(1);
      expect(report.byDecision.find((c) => c.key === row.action)?.count).toBe(1);
      expect(report.byGround.find((c) => c.key === "legal")?.count).toBe(1);
      expect(report.appeals).toMatchObject({ submitted: 1, pending: 0 });
      expect(report.appeals.upheld + report.appeals.reversed).toBe(1);
      expect(report.hoursToDecide.median).not.toBeNull();
      expect(await db.auditLog.count({ where: { action: "dsa.report.viewed" } })).toBe(1);

      const erased = await eraseDsaPersonalData(db, account.id, null, NOTIFIER.toUpperCase());
      expect(erased.notices).toBe(1);
      const stripped = await db.dsaNotice.findUniqueOrThrow({ where: { id: received.id } });
      expect([stripped.notifierEmail, stripped.notifierName]).toEqual([null, null]);
      expect(await db.dsaAppeal.count({ where: { email: NOTIFIER } })).toBe(0);
      expect(await moderator.caller.dsa.report({ from: today, to: today })).toMatchObject({
        notices: report.notices,
        appeals: report.appeals,
      });
    },
  );

  it("refuses bad notices with 400 and writes nothing", { timeout: 60_000 }, async () => {
    const { db, account, commentId } = await setup();
    const cases: Record<string, unknown>[] = [
      { good_faith: false },
      { email: undefined },
      { law_or_reason: "short" },
      { category: "STATEMENT_CATEGORY_TOTALLY_MADE_UP" },
      { captcha_response: undefined },
    ];
    for (const extra of cases) {
      const res = await notice(account.id, commentId, await validNotice(account.id, extra));
      expect(res.status, JSON.stringify(extra)).toBe(400);
    }
    expect((await notice(account.id, commentId + 999, await validNotice(account.id))).status).toBe(404);
    expect(await db.dsaNotice.count()).toBe(0);
    expect(await db.outgoingEmail.count()).toBe(0);
  });

  it("keeps each account's notices and appeals to its own staff", async () => {
    const { db, account, commentId } = await setup();
    const res = await notice(account.id, commentId, await validNotice(account.id));
    const { notice: received } = (await res.json()) as { notice: { id: number } };
    const other = await createTestStaff(db, { roles: ["MODERATOR"] });
    expect(await trpcCodeOf(other.caller.dsa.decide(decision(received.id)))).toBe("NOT_FOUND");
    expect((await other.caller.dsa.notices({ status: "all" })).notices).toHaveLength(0);
    const editor = await createTestStaff(db, { account: account.id, roles: ["EDITOR"] });
    expect(await trpcCodeOf(editor.caller.dsa.notices({ status: "open" }))).toBe("FORBIDDEN");
  });
});
