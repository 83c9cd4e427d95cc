/**
 * Scoring that learns and is tried before it is trusted (docs/engagement.md "Scoring"):
 * - the adaptive layer: moderators' decisions move later comments' scores; a changed decision,
 *   undo, an edit sending an approved comment back and a deleted comment move the counts, never
 *   counting a comment twice;
 * - shadow mode: each new comment's shadow decision recorded beside the live one, without effect;
 *   the agreement figures (the rule for comments nobody decided); promote and discard, audited
 *   and for owners only;
 * - the external scorer over HTTP: its answer used, and the built-in scorer answering on a
 *   timeout, another status, an answer that is not JSON or not a score, and a private address;
 *   the token sent, never logged.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";

import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

import { resetEnvCache } from "../../../env.js";
import type { ApiUser } from "../../auth/api-auth";
import { getDb } from "../../db";
import type { Db } from "../../db/client";
import { log } from "../../log";
import { pageId } from "../../testing/engagement";
import { createTestPublisher } from "../../testing/publishing-factories";
import { createTestStaff, trpcCodeOf } from "../../testing/staff";
import { createComment, editComment } from "../comments";
import { externalScorer } from "./http-scorer";
import { lexiconScorer } from "./lexicon-scorer";
import { scoreWith, setCommentScorer } from "./registry";
import type { CommentScore, ScorerInput } from "./scorer";
import { scoringSettingsOf, setShadowScoring } from "./scoring-settings";

const URL_A = "https://news.example.com/politics/a-story";
const reader = (id: string): ApiUser => ({ id, name: id, email: null, avatarUrl: null, provider: null });

async function setup() {
  const db = await getDb();
  const account = await createTestPublisher(db);
  const owner = await createTestStaff(db, { account: account.id, roles: ["OWNER"], name: "Olive" });
  const moderator = await createTestStaff(db, { account: owner.account.id, roles: ["MODERATOR"], name: "Mo" });
  return { db, accountId: owner.account.id, owner, moderator };
}
type Setup = Awaited<ReturnType<typeof setup>>;

async function post(s: Setup, text: string, opts: { user?: ApiUser; now?: Date } = {}) {
  const { response } = await createComment(s.db, {
    account: { id: s.accountId, slug: "x", name: "x" },
    user: opts.user ?? reader("ada"),
    encodedUrl: pageId(URL_A),
    input: { comment: { body: { ops: [{ insert: text }] } } },
    now: opts.now ?? new Date(),
  });
  return s.db.comment.findUniqueOrThrow({ where: { id: response.comment.id } });
}

const stat = async (db: Db, accountId: number, term: string) =>
  (await db.commentTermStat.findUnique({
    where: { accountId_term: { accountId, term } },
    select: { approved: true, rejected: true, spam: true },
  })) ?? { approved: 0, rejected: 0, spam: 0 };

/**
 * The base scorer of these tests: fixed scores by phrase, so that what is tested is the layers over
 * it, whatever the built-in scorer's figures become.
 */
const PHRASES: [RegExp, number, string][] = [
  [/you idiot/i, 77.3, "toxicity.insult"],
  [/fucking/i, 45, "toxicity.profanity"],
  [/idiots everywhere/i, 35, "toxicity.insult"],
  [/bloody/i, 25, "toxicity.profanity"],
  [/pathetic/i, 20, "toxicity.insult"],
];
function fixedScore(input: ScorerInput): CommentScore {
  const found = PHRASES.find(([pattern]) => pattern.test(input.text));
  return { toxicity: found?.[1] ?? 0, isSpam: false, reasons: found ? [found[2]] : [], spam: 0 };
}

beforeEach(() => {
  setCommentScorer({ name: "fixed", score: fixedScore });
});

afterEach(() => {
  setCommentScorer(null);
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
  resetEnvCache();
});

describe("the scoring settings", () => {
  it("are kept in memory for comment creates and dropped when the row changes, by the service or by hand", async () => {
    const s = await setup();
    let reads = 0;
    const counted = new Proxy(s.db, {
      get(target, property, receiver) {
        if (property === "commentScoringSettings") reads++;
        return Reflect.get(target, property, receiver) as unknown;
      },
    }) as Db;
    // Read twice, the second from memory. Other test files share the database and its change
    // notices: a moderation change of theirs between the two reads drops the entry too, so the
    // pair is tried again (a cache that never keeps the row reads twice every time).
    let pairReads = 0;
    for (let attempt = 0; attempt < 5 && pairReads !== 1; attempt++) {
      const before = reads;
      expect(await scoringSettingsOf(counted, s.accountId)).toMatchObject({ adaptive: false, shadow: null });
      expect(await scoringSettingsOf(counted, s.accountId)).toMatchObject({ adaptive: false });
      pairReads = reads - before;
    }
    expect(pairReads).toBe(1);
    const beforeChange = reads;
    await s.moderator.caller.scoring.updateLive({ adaptive: true });
    expect(await scoringSettingsOf(counted, s.accountId)).toMatchObject({ adaptive: true });
    expect(reads).toBe(beforeChange + 1);
    // Written by hand: the table's trigger announces it all the same (decision 0004).
    await s.db.$executeRaw`UPDATE comment_scoring_settings SET adaptive = false WHERE account_id = ${s.accountId}`;
    await vi.waitFor(async () =>
      expect(await scoringSettingsOf(counted, s.accountId)).toMatchObject({ adaptive: false }),
    );
    // Audited, with what changed.
    const entry = await s.db.auditLog.findFirstOrThrow({
      where: { accountId: s.accountId, action: "comment_scoring.update" },
    });
    expect(entry).toMatchObject({
      actorId: s.moderator.user.id,
      metadata: { changed: ["adaptive"], adaptive: { from: false, to: true } },
    });
    // Nothing changed: nothing written.
    await s.db.$executeRaw`UPDATE comment_scoring_settings SET adaptive = true WHERE account_id = ${s.accountId}`;
    expect((await s.moderator.caller.scoring.updateLive({ adaptive: true })).changed).toEqual([]);
    expect(await s.db.auditLog.count({ where: { accountId: s.accountId, action: "comment_scoring.update" } })).toBe(1);
  });
});

describe("the adaptive layer", () => {
  it("moves later comments' scores by what moderators decided, once it has enough decisions", async () => {
    const s = await setup();
    await s.moderator.caller.scoring.updateLive({ adaptive: true });
    const before = await post(s, "the grifterati strike again today");
    expect(before.toxicity).toBe(0);

    for (let i = 0; i < 10; i++) {
      const c = await post(s, `the grifterati strike again ${i}`, { user: reader(`g${i}`) });
      await s.moderator.caller.moderation.act({ commentId: c.id, action: "reject" });
    }
    for (let i = 0; i < 12; i++) {
      const c = await post(s, `this bloody council never listens ${i}`, { user: reader(`b${i}`) });
      // The layer acts from the 20th decision on: before, the base score as it is.
      if (i < 10) expect([c.toxicity, c.moderationReasons]).toEqual([25, ["toxicity.profanity"]]);
      await s.moderator.caller.moderation.act({ commentId: c.id, action: "approve" });
    }
    expect(await stat(s.db, s.accountId, "")).toEqual({ approved: 12, rejected: 10, spam: 0 });
    expect(await stat(s.db, s.accountId, "grifterati")).toEqual({ approved: 0, rejected: 10, spam: 0 });

    const raised = await post(s, "the grifterati strike again this week");
    expect(raised.toxicity).toBeGreaterThan(15);
    expect(raised.toxicity).toBeLessThanOrEqual(25);
    expect(raised.moderationReasons).toContain("adaptive.raised");
    const lowered = await post(s, "the bloody council never listens to anyone");
    expect(lowered.toxicity).toBeLessThan(10);
    expect(lowered.moderationReasons).toContain("adaptive.lowered");
    // The moderators' queue says it in words.
    const [shown] = (await s.moderator.caller.moderation.act({ commentId: raised.id, action: "reject" })).comment
      .explainedReasons;
    expect(shown).toEqual({
      code: "adaptive.raised",
      text: "Toxicity raised: moderators here rejected comments with these words before",
    });

    // Off: the base scorer's answer again.
    await s.owner.caller.scoring.updateLive({ adaptive: false });
    expect((await post(s, "the grifterati strike again tomorrow")).toxicity).toBe(0);
  });

  it("counts a comment once, for its latest decision: changed, undone, sent back by an edit, deleted", async () => {
    const s = await setup();
    const ada = reader("ada");
    const c = await post(s, "the grifterati strike again", { user: ada });
    const counts = () => Promise.all([stat(s.db, s.accountId, ""), stat(s.db, s.accountId, "grifterati strike")]);

    const rejected = await s.moderator.caller.moderation.act({ commentId: c.id, action: "reject" });
    expect(await counts()).toEqual([
      { approved: 0, rejected: 1, spam: 0 },
      { approved: 0, rejected: 1, spam: 0 },
    ]);
    // Changed from the Rejected view: the count moves, it is not added.
    const approved = await s.moderator.caller.moderation.act({
      commentId: c.id,
      action: "approve",
      override: true,
      expectedVersion: rejected.comment.version,
    });
    expect(await counts()).toEqual([
      { approved: 1, rejected: 0, spam: 0 },
      { approved: 1, rejected: 0, spam: 0 },
    ]);
    // Undone: back to rejected.
    await s.moderator.caller.moderation.undo({ commentId: c.id, version: approved.comment.version });
    expect(await counts()).toEqual([
      { approved: 0, rejected: 1, spam: 0 },
      { approved: 0, rejected: 1, spam: 0 },
    ]);
    // Marked spam, then not spam (undecided again): nothing left.
    await s.moderator.caller.moderation.act({ commentId: c.id, action: "spam", override: true });
    expect((await counts())[0]).toEqual({ approved: 0, rejected: 0, spam: 1 });
    await s.moderator.caller.moderation.act({ commentId: c.id, action: "not_spam", override: true });
    expect(await counts()).toEqual([
      { approved: 0, rejected: 0, spam: 0 },
      { approved: 0, rejected: 0, spam: 0 },
    ]);

    // Approved, then edited into words that must wait: back to the queue, its approval uncounted.
    await s.moderator.caller.moderation.act({ commentId: c.id, action: "approve" });
    expect((await counts())[0]).toEqual({ approved: 1, rejected: 0, spam: 0 });
    await editComment(s.db, {
      accountId: s.accountId,
      user: ada,
      encodedUrl: pageId(URL_A),
      commentId: c.id,
      ops: [{ insert: "you idiot\n" }],
      now: new Date(),
    });
    expect((await s.db.comment.findUniqueOrThrow({ where: { id: c.id } })).moderationState).toBe("UNDECIDED");
    expect((await counts())[0]).toEqual({ approved: 0, rejected: 0, spam: 0 });

    // Rejected with its new words, then the comment row deleted: its counts go with it.
    await s.moderator.caller.moderation.act({ commentId: c.id, action: "reject" });
    expect(await stat(s.db, s.accountId, "you idiot")).toEqual({ approved: 0, rejected: 1, spam: 0 });
    expect((await counts())[1]).toEqual({ approved: 0, rejected: 0, spam: 0 });
    await s.db.comment.delete({ where: { id: c.id } });
    expect(await stat(s.db, s.accountId, "you idiot")).toEqual({ approved: 0, rejected: 0, spam: 0 });
    expect((await counts())[0]).toEqual({ approved: 0, rejected: 0, spam: 0 });
  });
});

describe("the counts when readers and accounts are deleted", () => {
  it("take a deleted reader's decided comments away, and go with a deleted account", async () => {
    const s = await setup();
    const c = await post(s, "the grifterati strike again", { user: reader("gone") });
    await s.moderator.caller.moderation.act({ commentId: c.id, action: "reject" });
    expect(await stat(s.db, s.accountId, "grifterati")).toEqual({ approved: 0, rejected: 1, spam: 0 });
    await s.db.member.delete({ where: { id: c.authorId } });
    expect(await stat(s.db, s.accountId, "grifterati")).toEqual({ approved: 0, rejected: 0, spam: 0 });
    const d = await post(s, "the grifterati strike once more", { user: reader("stays") });
    await s.moderator.caller.moderation.act({ commentId: d.id, action: "spam" });
    await s.db.account.delete({ where: { id: s.accountId } });
    expect(await s.db.commentTermStat.count({ where: { accountId: s.accountId } })).toBe(0);
  });
});

describe("shadow mode", () => {
  it("records what the shadow would have done beside each new comment, without effect, and compares both with the moderators", async () => {
    const s = await setup();
    const now = Date.now();
    const daysAgo = (d: number) => new Date(now - d * 24 * 60 * 60 * 1000);
    // Tried from three days ago, at threshold 30 (live: 70).
    await setShadowScoring(s.db, {
      actor: { kind: "staff", id: s.moderator.user.id, accountId: s.accountId, roles: ["MODERATOR"] },
      input: { adaptive: false, externalScorer: false, toxicityThreshold: 30 },
      now: daysAgo(3),
    });
    // 35: the shadow holds it, live publishes it; moderators reject it.
    const insult = await post(s, "idiots everywhere in this thread", { user: reader("a1"), now: daysAgo(2) });
    // 77.3: both hold it; moderators approve it.
    const aimed = await post(s, "you idiot", { user: reader("a2"), now: daysAgo(2) });
    // 20: neither holds it; published, nobody reviewed it for two days, never reported: approved.
    const quiet = await post(s, "the council is pathetic", { user: reader("a3"), now: daysAgo(2) });
    // 25: neither holds it; written an hour ago, nobody decided: left out.
    const recent = await post(s, "this bloody council never listens", {
      user: reader("a4"),
      now: new Date(now - 3_600_000),
    });
    // 45: the shadow holds it, live does not; moderators reject it.
    const sworn = await post(s, "this is fucking brilliant", { user: reader("a5"), now: daysAgo(1.5) });

    expect(insult.isPublished).toBe(true);
    expect(await s.db.commentShadowScore.findUniqueOrThrow({ where: { commentId: insult.id } })).toMatchObject({
      accountId: s.accountId,
      liveHeld: false,
      liveToxicity: 35,
      liveSpam: false,
      shadowHeld: true,
      shadowToxicity: 35,
      shadowSpam: false,
      shadowReasons: ["toxicity.insult", "held.toxicity"],
      shadowThreshold: 30,
      shadowAdaptive: false,
      shadowExternal: false,
    });
    expect(await s.db.commentShadowScore.count({ where: { accountId: s.accountId } })).toBe(5);

    await s.moderator.caller.moderation.act({ commentId: insult.id, action: "reject" });
    await s.moderator.caller.moderation.act({ commentId: aimed.id, action: "approve" });
    await s.moderator.caller.moderation.act({ commentId: sworn.id, action: "spam" });
    void quiet;
    void recent;

    const { figures, settings } = await s.moderator.caller.scoring.overview();
    expect(settings.shadow).toMatchObject({ adaptive: false, externalScorer: false, toxicityThreshold: 30 });
    expect(figures).toMatchObject({
      days: 30,
      compared: 5,
      judged: 4,
      rejected: 2,
      approved: 2,
      approvedUnreviewed: 1,
      undecided: 1,
      disagreements: 2,
      // Live held only "you idiot" (approved): precision 0; it missed both rejections.
      live: { held: 1, heldRejected: 0, heldApproved: 1, missed: 2, precision: 0, recall: 0 },
      // The shadow held three: two rejected, one approved; it missed none.
      shadow: { held: 3, heldRejected: 2, heldApproved: 1, missed: 0, precision: 0.667, recall: 1 },
    });

    // A reported comment nobody decided is left out.
    await s.db.commentReport.create({
      data: { accountId: s.accountId, commentId: quiet.id, memberId: insult.authorId, reason: "ABUSE" },
    });
    expect((await s.moderator.caller.scoring.overview()).figures).toMatchObject({ judged: 3, undecided: 2 });
  });

  it("is promoted or discarded by owners only, audited, and a new shadow starts its figures afresh", async () => {
    const s = await setup();
    expect((await s.moderator.caller.scoring.overview()).figures).toBeNull();
    // Validated at the edge, and the external scorer only when the operator configured one.
    expect(
      await trpcCodeOf(
        s.moderator.caller.scoring.setShadow({ adaptive: true, externalScorer: false, toxicityThreshold: 0 }),
      ),
    ).toBe("BAD_REQUEST");
    expect(
      await trpcCodeOf(
        s.moderator.caller.scoring.setShadow({ adaptive: true, externalScorer: true, toxicityThreshold: 50 }),
      ),
    ).toBe("UNPROCESSABLE_CONTENT");
    expect(await trpcCodeOf(s.owner.caller.scoring.promote())).toBe("CONFLICT");

    const set = await s.moderator.caller.scoring.setShadow({
      adaptive: true,
      externalScorer: false,
      toxicityThreshold: 50,
    });
    expect(set.changed).toEqual(["shadow"]);
    // The same again changes nothing and writes nothing.
    expect(
      (await s.moderator.caller.scoring.setShadow({ adaptive: true, externalScorer: false, toxicityThreshold: 50 }))
        .changed,
    ).toEqual([]);
    await post(s, "idiots everywhere in this thread");
    expect((await s.moderator.caller.scoring.overview()).figures).toMatchObject({ compared: 1 });

    expect(await trpcCodeOf(s.moderator.caller.scoring.promote())).toBe("FORBIDDEN");
    expect(await trpcCodeOf(s.moderator.caller.scoring.discard())).toBe("FORBIDDEN");
    const promoted = await s.owner.caller.scoring.promote();
    expect(promoted.changed).toEqual(["adaptive", "toxicityThreshold", "shadow"]);
    expect(promoted.settings).toMatchObject({
      live: { adaptive: true, externalScorer: false, toxicityThreshold: 50 },
      shadow: null,
    });
    expect((await s.moderator.caller.moderation.settings()).toxicityThreshold).toBe(50);
    // Live now: a 45 passes at 50, but the comment is scored with the adaptive layer on.
    expect((await post(s, "this is fucking brilliant", { user: reader("z") })).isPublished).toBe(true);

    // A new shadow, then discarded: its figures begin with it, and none after the discard.
    await s.moderator.caller.scoring.setShadow({ adaptive: false, externalScorer: false, toxicityThreshold: 20 });
    expect((await s.moderator.caller.scoring.overview()).figures).toMatchObject({ compared: 0 });
    await s.owner.caller.scoring.discard();
    expect((await s.moderator.caller.scoring.overview()).figures).toBeNull();
    expect(await trpcCodeOf(s.owner.caller.scoring.discard())).toBe("CONFLICT");

    const audit = await s.db.auditLog.findMany({
      where: { accountId: s.accountId, action: { startsWith: "comment_scoring." } },
      orderBy: { createdAt: "asc" },
      select: { action: true, actorId: true, metadata: true },
    });
    expect(audit.map((a) => [a.action, a.actorId])).toEqual([
      ["comment_scoring.shadow_set", s.moderator.user.id],
      ["comment_scoring.promote", s.owner.user.id],
      ["comment_scoring.shadow_set", s.moderator.user.id],
      ["comment_scoring.shadow_discard", s.owner.user.id],
    ]);
    expect(audit[1]!.metadata).toMatchObject({
      from: { adaptive: false, externalScorer: false, toxicityThreshold: 70 },
      to: { adaptive: true, externalScorer: false, toxicityThreshold: 50 },
    });
  });
});

// ─── the external scorer ─────────────────────────────────────────────────────────────────────

type Answer = { status?: number; body: string; delayMs?: number };

/** A scorer on 127.0.0.1 answering `answer`, recording what it was sent. */
async function scorerServer(answer: () => Answer) {
  const seen: { authorization?: string; body: unknown }[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      seen.push({
        authorization: req.headers.authorization,
        body: JSON.parse(Buffer.concat(chunks).toString("utf8")) as unknown,
      });
      const a = answer();
      setTimeout(() => {
        res.writeHead(a.status ?? 200, { "content-type": "application/json" });
        res.end(a.body);
      }, a.delayMs ?? 0);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/score`;
  return { url, seen, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

function configure(url: string, over: Record<string, string> = {}) {
  vi.stubEnv("MODERATION_SCORER_URL", url);
  vi.stubEnv("MODERATION_SCORER_TOKEN", "sekret-token-0123456789");
  vi.stubEnv("MODERATION_SCORER_ALLOW_PRIVATE_URLS", "true");
  vi.stubEnv("MODERATION_SCORER_TIMEOUT_MS", "300");
  for (const [k, v] of Object.entries(over)) vi.stubEnv(k, v);
  resetEnvCache();
}

const INPUT: ScorerInput = {
  text: "you idiot",
  links: [],
  mentions: [],
  images: [],
  reader: { isNew: false, publishedComments: 4, firstCommentAt: new Date("2026-11-01T00:00:00Z") },
};

describe("the external scorer over HTTP", () => {
  it("scores an account's comments when it turns it on: the input as JSON, the token as a bearer", async () => {
    const s = await setup();
    const server = await scorerServer(() => ({
      body: JSON.stringify({ toxicity: 88, isSpam: false, reasons: ["mymodel.rude"] }),
    }));
    try {
      // The answer, not the timeout, is tested here: a loaded machine can take longer than 300 ms
      // for the first request, which would fall back to the built-in scorer.
      configure(server.url, { MODERATION_SCORER_TIMEOUT_MS: "5000" });
      const overview = await s.moderator.caller.scoring.overview();
      expect(overview.settings.externalScorerHost).toBe(new URL(server.url).host);
      await s.moderator.caller.scoring.updateLive({ externalScorer: true });
      const c = await post(s, "A perfectly calm remark");
      expect(c).toMatchObject({ toxicity: 88, isPublished: false });
      expect(c.moderationReasons).toEqual(["mymodel.rude", "held.toxicity"]);
      expect(server.seen).toHaveLength(1);
      expect(server.seen[0]!.authorization).toBe("Bearer sekret-token-0123456789");
      expect(server.seen[0]!.body).toMatchObject({
        text: "A perfectly calm remark\n",
        links: [],
        reader: { isNew: true, publishedComments: 0, firstCommentAt: null },
      });
      // Tried in shadow instead: live scores with the built-in scorer, the shadow asks the server.
      await s.moderator.caller.scoring.updateLive({ externalScorer: false });
      await s.moderator.caller.scoring.setShadow({ adaptive: false, externalScorer: true, toxicityThreshold: 70 });
      const shadowed = await post(s, "Another calm remark");
      expect(shadowed).toMatchObject({ toxicity: 0, isPublished: true });
      expect(await s.db.commentShadowScore.findUniqueOrThrow({ where: { commentId: shadowed.id } })).toMatchObject({
        liveHeld: false,
        shadowHeld: true,
        shadowToxicity: 88,
      });
      expect(server.seen).toHaveLength(2);
    } finally {
      await server.close();
    }
  });

  it("falls back to the built-in scorer on a timeout, another status, not JSON, not a score, and logs it without the token", async () => {
    const answers: Answer[] = [
      { body: JSON.stringify({ toxicity: 10, isSpam: false, reasons: [] }), delayMs: 2_000 },
      { status: 503, body: JSON.stringify({ toxicity: 10, isSpam: false, reasons: [] }) },
      { body: "<html>oops</html>" },
      { body: JSON.stringify({ toxicity: 500, isSpam: "no", reasons: [] }) },
    ];
    let next = 0;
    const server = await scorerServer(() => answers[next++]!);
    const warn = vi.spyOn(log, "warn");
    try {
      configure(server.url);
      const external = externalScorer()!;
      expect(external.timeoutMs).toBe(300);
      const builtIn = await lexiconScorer.score(INPUT); // loaded before the clock starts
      for (let i = 0; i < answers.length; i++) {
        const started = Date.now();
        const score = await scoreWith(external.scorer, INPUT, { timeoutMs: external.timeoutMs });
        // Well before the slow answer's 2 s: the timeout stopped the wait (a loaded machine adds lag).
        expect(Date.now() - started, `answer ${i}`).toBeLessThan(1_500);
        expect(score.toxicity, `answer ${i}`).toBe(builtIn.toxicity);
        expect(score.reasons, `answer ${i}`).toContain("scorer.fallback");
      }
      expect(warn).toHaveBeenCalledTimes(answers.length);
      const logged = JSON.stringify(warn.mock.calls, (_k, v: unknown) => (v instanceof Error ? v.message : v));
      expect(logged).not.toContain("sekret-token");
      expect(logged).toContain("scorer timed out after 300 ms");
      expect(logged).toContain("HTTP 503");
      expect(logged).toContain("not JSON");
    } finally {
      await server.close();
    }
  });

  it("does not reach a private or loopback address unless the operator allows it", async () => {
    const server = await scorerServer(() => ({ body: JSON.stringify({ toxicity: 5, isSpam: false, reasons: [] }) }));
    try {
      configure(server.url, { MODERATION_SCORER_ALLOW_PRIVATE_URLS: "false" });
      const external = externalScorer()!;
      const score = await scoreWith(external.scorer, INPUT, { timeoutMs: external.timeoutMs });
      expect(score.reasons).toContain("scorer.fallback");
      expect(score.toxicity).toBe((await lexiconScorer.score(INPUT)).toxicity);
      expect(server.seen).toHaveLength(0);
      // Allowed: it is asked.
      configure(server.url);
      const allowed = externalScorer()!;
      expect((await scoreWith(allowed.scorer, INPUT, { timeoutMs: allowed.timeoutMs })).toxicity).toBe(5);
      expect(server.seen).toHaveLength(1);
    } finally {
      await server.close();
    }
  });
});
