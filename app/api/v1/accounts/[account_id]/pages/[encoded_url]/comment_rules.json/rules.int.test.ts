/**
 * The rules before publishing on a comment create (docs/engagement.md "Rules before publishing"),
 * each with its setting on (held, with its reason) and off (published); the page's rules (closed:
 * 403, pre-moderation, slow mode: 429 with Retry-After), set through tRPC (audited, validated) and
 * stated by GET comment_rules.json.
 */
import { describe, expect, it } from "vitest";

import type { TCommentWire } from "@/server/engagement/comments.schema";
import { RULE_REASONS } from "@/server/engagement/moderation/rules/rules";
import { setupPublisher } from "@/server/testing/comment-calls";
import { call, pageId, readerJwt } from "@/server/testing/engagement";
import { createTestStaff, trpcCodeOf } from "@/server/testing/staff";

import { POST } from "../comments.json/route";
import { PUT } from "../comments/[comment_id]/route";
import { GET } from "./route";

const URL_A = "https://news.example.com/politics/a-story";
const URL_B = "https://news.example.com/sport/another-story";

type Created = { comment: TCommentWire };
type ErrorBody = { error: { code: string; message: string; details?: { field: string; issue: string }[] } };

const ADA = { id: "reader-ada", name: "Ada" };

type Setup = Awaited<ReturnType<typeof setupPublisher>>;

async function post(s: Setup, text: string, url = URL_A) {
  const jwt = await readerJwt(ADA);
  const b64 = pageId(url);
  return call(
    POST,
    "POST",
    "/x",
    { account_id: s.id, encoded_url: b64 },
    { comment: { body: { ops: [{ insert: text }] } }, jwt },
  );
}

async function created(s: Setup, text: string, url = URL_A): Promise<TCommentWire> {
  const res = await post(s, text, url);
  expect(res.status, JSON.stringify(await res.clone().json())).toBe(201);
  return ((await res.json()) as Created).comment;
}

async function reasonsOf(s: Setup, id: number): Promise<string[]> {
  return (await s.db.comment.findUniqueOrThrow({ where: { id } })).moderationReasons;
}

/** Ada's member, once she has commented. */
function ada(s: Setup) {
  return s.db.member.findFirstOrThrow({ where: { accountId: s.account.id, name: "Ada" } });
}

/** Past comments of Ada's on page `pageId`: published ones, and ones a moderator decided. */
async function history(s: Setup, rows: { state?: "APPROVED" | "REJECTED" | "SPAM"; decidedDaysAgo?: number }[]) {
  const member = await ada(s);
  const page = await s.db.page.findFirstOrThrow({ where: { accountId: s.account.id } });
  const now = Date.now();
  for (const [index, row] of rows.entries()) {
    const decided = row.state !== undefined;
    await s.db.comment.create({
      data: {
        accountId: s.account.id,
        pageId: page.id,
        authorId: member.id,
        body: { ops: [{ insert: `Earlier comment number ${index}\n` }] },
        bodyDigest: `h-${index}-${Math.random()}`,
        isPublished: !decided || row.state === "APPROVED",
        isSpam: row.state === "SPAM",
        moderationState: row.state ?? "UNDECIDED",
        decidedAt: decided ? new Date(now - (row.decidedDaysAgo ?? 1) * 86_400_000) : null,
        createdAt: new Date(now - 40 * 86_400_000),
      },
    });
  }
}

const ORDINARY = "I enjoyed reading this, thank you for the detail on the council budget.";

describe("rules before publishing", () => {
  it("pre-moderates a reader until N of their comments are published; off publishes", async () => {
    const s = await setupPublisher({ preModerateUntilApproved: 2 });
    const first = await created(s, ORDINARY);
    expect(first.is_published).toBe(false);
    expect(await reasonsOf(s, first.id)).toEqual([RULE_REASONS.awaitingApprovals]);
    // A moderator approves it, and one more: the reader is through.
    await s.db.comment.update({ where: { id: first.id }, data: { isPublished: true, moderationState: "APPROVED" } });
    expect((await created(s, `${ORDINARY} Second.`)).is_published).toBe(false);
    await history(s, [{ state: "APPROVED" }]);
    expect((await created(s, `${ORDINARY} Third.`)).is_published).toBe(true);

    const off = await setupPublisher();
    expect((await created(off, ORDINARY)).is_published).toBe(true);
  });

  it("holds a reader rejected at the set rate in the window, once enough decisions; older decisions and off publish", async () => {
    const s = await setupPublisher({ trustRejectionRate: 50, trustWindowDays: 30, trustMinDecisions: 4 });
    await created(s, ORDINARY);
    await history(s, [{ state: "REJECTED" }, { state: "SPAM" }, { state: "APPROVED" }, { state: "APPROVED" }]);
    const held = await created(s, `${ORDINARY} Again.`);
    expect(held.is_published).toBe(false);
    expect(await reasonsOf(s, held.id)).toEqual([RULE_REASONS.untrusted]);

    // The same history decided outside the window: trusted.
    const old = await setupPublisher({ trustRejectionRate: 50, trustWindowDays: 30, trustMinDecisions: 4 });
    await created(old, ORDINARY);
    await history(old, [
      { state: "REJECTED", decidedDaysAgo: 31 },
      { state: "SPAM", decidedDaysAgo: 31 },
      { state: "APPROVED" },
      { state: "APPROVED" },
    ]);
    expect((await created(old, `${ORDINARY} Again.`)).is_published).toBe(true);

    const off = await setupPublisher();
    await created(off, ORDINARY);
    await history(off, [{ state: "REJECTED" }, { state: "REJECTED" }, { state: "REJECTED" }, { state: "REJECTED" }]);
    expect((await created(off, `${ORDINARY} Again.`)).is_published).toBe(true);
  });

  it("holds a link from a reader without trust who is not new; with the setting off it publishes", async () => {
    const settings = { trustRejectionRate: 50, trustMinDecisions: 4 };
    const link = `${ORDINARY} More at https://example.org/report`;
    const s = await setupPublisher(settings);
    await created(s, ORDINARY);
    // Not new (published comments, the first long ago), but rejected too often.
    await history(s, [
      {},
      {},
      {},
      { state: "REJECTED" },
      { state: "REJECTED" },
      { state: "APPROVED" },
      { state: "APPROVED" },
    ]);
    const held = await created(s, link);
    expect(await reasonsOf(s, held.id)).toEqual([RULE_REASONS.untrustedLink, RULE_REASONS.untrusted]);

    const off = await setupPublisher({ ...settings, holdLinksFromNewReaders: false });
    await created(off, ORDINARY);
    await history(off, [
      {},
      {},
      {},
      { state: "REJECTED" },
      { state: "REJECTED" },
      { state: "APPROVED" },
      { state: "APPROVED" },
    ]);
    expect(await reasonsOf(off, (await created(off, link)).id)).toEqual([RULE_REASONS.untrusted]);
  });

  it("holds the same text posted on another page within the window as spam; off publishes", async () => {
    const s = await setupPublisher({ repeatedPostWindowMinutes: 60 });
    expect((await created(s, ORDINARY, URL_A)).is_published).toBe(true);
    const repeat = await created(s, `  ${ORDINARY.replace("I enjoyed", "i enjoyed").replace(/,/g, "")}!!`, URL_B);
    expect(repeat).toMatchObject({ is_published: false, is_spam: true });
    expect(await reasonsOf(s, repeat.id)).toEqual([RULE_REASONS.repeatedPost]);

    const off = await setupPublisher();
    await created(off, ORDINARY, URL_A);
    expect((await created(off, ORDINARY, URL_B)).is_published).toBe(true);
  });

  it("holds readers with a disposable e-mail domain; off publishes", async () => {
    const s = await setupPublisher({ holdDisposableEmails: true });
    expect((await created(s, ORDINARY)).is_published).toBe(true);
    await s.db.member.update({ where: { id: (await ada(s)).id }, data: { email: "ada@mailinator.com" } });
    const held = await created(s, `${ORDINARY} Again.`);
    expect(held.is_published).toBe(false);
    expect(await reasonsOf(s, held.id)).toEqual([RULE_REASONS.disposableEmail]);

    const off = await setupPublisher();
    await created(off, ORDINARY);
    await off.db.member.update({ where: { id: (await ada(off)).id }, data: { email: "ada@mailinator.com" } });
    expect((await created(off, `${ORDINARY} Again.`)).is_published).toBe(true);
  });
});

// eslint-disable-next-line max-lines-per-function -- a describe block of short cases that share its setup
describe("page rules", () => {
  async function withPage() {
    const s = await setupPublisher();
    const staff = await createTestStaff(s.db, { account: s.account.id, roles: ["MODERATOR"] });
    await created(s, ORDINARY); // the page exists from its first comment
    return { ...s, caller: staff.caller };
  }

  function rulesOf(s: Setup, url = URL_A) {
    const b64 = pageId(url);
    return call(GET, "GET", "/x", { account_id: s.id, encoded_url: b64 });
  }

  it("closed: a new comment is 403, stated by comment_rules.json; open again publishes", async () => {
    const s = await withPage();
    const set = await s.caller.pageRules.set({ url: URL_A, mode: "closed", slowModeSeconds: 0 });
    expect(set).toMatchObject({ changed: true, page: { url: URL_A, mode: "closed", slowModeSeconds: 0 } });
    expect(await (await rulesOf(s)).json()).toEqual({ comment_mode: "closed", slow_mode_seconds: 0, surge: null });
    const res = await post(s, `${ORDINARY} Closed?`);
    expect(res.status).toBe(403);
    expect(((await res.json()) as ErrorBody).error).toMatchObject({
      code: "FORBIDDEN",
      message: "Comments are closed on this page.",
    });
    await s.caller.pageRules.set({ url: URL_A, mode: "open", slowModeSeconds: 0 });
    expect((await created(s, `${ORDINARY} Open again.`)).is_published).toBe(true);
    // Another page, or one never commented on, is open.
    expect(await (await rulesOf(s, URL_B)).json()).toEqual({ comment_mode: "open", slow_mode_seconds: 0, surge: null });
  });

  it("pre-moderation holds every comment on the page, and no other page's", async () => {
    const s = await withPage();
    await s.caller.pageRules.set({ url: URL_A, mode: "pre_moderation", slowModeSeconds: 0 });
    const held = await created(s, `${ORDINARY} Held.`);
    expect(held.is_published).toBe(false);
    expect(await reasonsOf(s, held.id)).toEqual([RULE_REASONS.pagePreModeration]);
    expect((await created(s, `${ORDINARY} Elsewhere.`, URL_B)).is_published).toBe(true);
  });

  it("slow mode: a reader's second comment within the seconds is 429 with Retry-After; off publishes", async () => {
    const s = await withPage();
    await s.caller.pageRules.set({ url: URL_A, mode: "open", slowModeSeconds: 120 });
    expect(await (await rulesOf(s)).json()).toEqual({ comment_mode: "open", slow_mode_seconds: 120, surge: null });
    const res = await post(s, `${ORDINARY} Too soon.`);
    expect(res.status).toBe(429);
    const wait = Number(res.headers.get("Retry-After"));
    expect(wait).toBeGreaterThan(100);
    expect(wait).toBeLessThanOrEqual(120);
    expect(((await res.json()) as ErrorBody).error.code).toBe("RATE_LIMITED");
    // Another page has no slow mode.
    expect((await created(s, `${ORDINARY} Elsewhere.`, URL_B)).is_published).toBe(true);
    await s.caller.pageRules.set({ url: URL_A, mode: "open", slowModeSeconds: 0 });
    expect((await created(s, `${ORDINARY} Now.`)).is_published).toBe(true);
  });

  it("an edit is moderated by the page's rules: allowed on a closed page, held on a pre-moderated one, never slowed", async () => {
    const s = await withPage();
    const mine = await created(s, `${ORDINARY} Mine.`, URL_B);
    const edit = async (text: string) =>
      call(
        PUT,
        "PUT",
        "/x",
        { account_id: s.id, encoded_url: pageId(URL_B), comment_id: String(mine.id) },
        { comment: { ops: [{ insert: text }] }, jwt: await readerJwt(ADA) },
      );
    await s.caller.pageRules.set({ url: URL_B, mode: "closed", slowModeSeconds: 600 });
    const closed = await edit(`${ORDINARY} Edited while closed.`);
    expect(closed.status).toBe(200);
    expect(((await closed.json()) as Created).comment.is_published).toBe(true);
    await s.caller.pageRules.set({ url: URL_B, mode: "pre_moderation", slowModeSeconds: 600 });
    const held = await edit(`${ORDINARY} Edited while pre-moderated.`);
    expect(held.status).toBe(200);
    expect(((await held.json()) as Created).comment.is_published).toBe(false);
    expect(await reasonsOf(s, mine.id)).toEqual([RULE_REASONS.pagePreModeration]);
  });

  it("comment_rules.json: a page id that is not base64 is 400", async () => {
    const s = await setupPublisher();
    const res = await call(GET, "GET", "/x", { account_id: s.id, encoded_url: "%%%" });
    expect(res.status).toBe(400);
    expect(((await res.json()) as ErrorBody).error.code).toBe("BAD_REQUEST");
  });

  it("is audited with the actor, lists the pages with rules, refuses bad input and unknown pages, and is moderators' only", async () => {
    const s = await withPage();
    await s.caller.pageRules.set({ url: URL_A, mode: "closed", slowModeSeconds: 30 });
    expect(await s.caller.pageRules.set({ url: URL_A, mode: "closed", slowModeSeconds: 30 })).toMatchObject({
      changed: false,
    });
    const audits = await s.db.auditLog.findMany({
      where: { accountId: s.account.id, action: "page_comment_rules.update" },
    });
    expect(audits).toHaveLength(1);
    expect(audits[0]!.actorId).not.toBeNull();
    expect(audits[0]!.metadata).toMatchObject({
      url: URL_A,
      from: { mode: "open", slowModeSeconds: 0 },
      to: { mode: "closed", slowModeSeconds: 30 },
    });
    expect((await s.caller.pageRules.list()).pages).toEqual([
      expect.objectContaining({ url: URL_A, mode: "closed", slowModeSeconds: 30 }),
    ]);
    const bad = [
      { url: URL_A, mode: "shut", slowModeSeconds: 0 },
      { url: URL_A, mode: "open", slowModeSeconds: -1 },
      { url: URL_A, mode: "open", slowModeSeconds: 1.5 },
      { url: URL_A, mode: "open", slowModeSeconds: 86_401 },
      { url: "not a url", mode: "open", slowModeSeconds: 0 },
    ];
    for (const input of bad) {
      expect(await trpcCodeOf(s.caller.pageRules.set(input as never))).toBe("BAD_REQUEST");
    }
    expect(await trpcCodeOf(s.caller.pageRules.set({ url: URL_B, mode: "closed", slowModeSeconds: 0 }))).toBe(
      "NOT_FOUND",
    );
    const editor = await createTestStaff(s.db, { account: s.account.id, roles: ["EDITOR"] });
    expect(await trpcCodeOf(editor.caller.pageRules.set({ url: URL_A, mode: "open", slowModeSeconds: 0 }))).toBe(
      "FORBIDDEN",
    );
  });

  it("finds the page by any form of its URL: scheme, www, trailing slash, tracking parameters, fragment", async () => {
    const s = await withPage();
    const forms = [
      "http://news.example.com/politics/a-story",
      "https://www.news.example.com/politics/a-story/",
      "HTTPS://News.Example.com/politics/a-story?utm_source=x&fbclid=1#comments",
      "http://www.news.example.com:80/politics/a-story/#top",
    ];
    for (const [i, url] of forms.entries()) {
      const set = await s.caller.pageRules.set({ url, mode: "open", slowModeSeconds: 10 + i });
      expect(set, url).toMatchObject({ changed: true, page: { url: URL_A, slowModeSeconds: 10 + i } });
    }
    expect(await s.db.page.count({ where: { accountId: s.account.id } })).toBe(1);
    // Another path, or another query parameter, is another page.
    expect(await trpcCodeOf(s.caller.pageRules.set({ url: `${URL_A}-2`, mode: "closed", slowModeSeconds: 0 }))).toBe(
      "NOT_FOUND",
    );
    expect(
      await trpcCodeOf(s.caller.pageRules.set({ url: `${URL_A}?page=2`, mode: "closed", slowModeSeconds: 0 })),
    ).toBe("NOT_FOUND");
    // Two pages that are forms of each other: the exact one is taken, a third form is ambiguous.
    await created(s, `${ORDINARY} On the slash page.`, `${URL_A}/`);
    expect((await s.db.page.findMany({ where: { accountId: s.account.id } })).map((p) => p.url).sort()).toEqual([
      URL_A,
      `${URL_A}/`,
    ]);
    const exact = await s.caller.pageRules.set({ url: URL_A, mode: "closed", slowModeSeconds: 0 });
    expect(exact.page.url).toBe(URL_A);
    const slash = await s.caller.pageRules.set({ url: `${URL_A}/`, mode: "closed", slowModeSeconds: 0 });
    expect(slash.page.url).toBe(`${URL_A}/`);
    const ambiguous = "http://www.news.example.com/politics/a-story";
    expect(await trpcCodeOf(s.caller.pageRules.set({ url: ambiguous, mode: "open", slowModeSeconds: 0 }))).toBe(
      "CONFLICT",
    );
  });

  it("takes the rule settings through moderation.updateSettings, validated", async () => {
    const s = await withPage();
    const result = await s.caller.moderation.updateSettings({
      preModerateUntilApproved: 3,
      holdDisposableEmails: true,
    });
    expect(result.changed.sort()).toEqual(["holdDisposableEmails", "preModerateUntilApproved"]);
    expect(await trpcCodeOf(s.caller.moderation.updateSettings({ trustRejectionRate: 101 }))).toBe("BAD_REQUEST");
    expect(await trpcCodeOf(s.caller.moderation.updateSettings({ trustWindowDays: 0 }))).toBe("BAD_REQUEST");
  });
});
