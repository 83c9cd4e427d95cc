/**
 * Guest commenting with the proof-of-work captcha, confidential comments, and the per-reader and
 * per-guest rate limits of the create (docs/engagement.md, "Guest commenting and the captcha",
 * "Confidential comments", "Limits").
 */
import { createChallenge } from "altcha-lib";
import { deriveKey } from "altcha-lib/algorithms/pbkdf2";
import { describe, expect, it } from "vitest";

import { CAPTCHA } from "@/server/engagement/captcha";
import type { TCommentList, TCommentWire } from "@/server/engagement/comments.schema";
import { ENGAGEMENT_RATE_LIMITS } from "@/server/http/engagement-limits";
import { encodeCaptcha, solve, solvedCaptcha } from "@/server/testing/captcha";
import { setupPublisher } from "@/server/testing/comment-calls";
import { call, pageId, readerJwt } from "@/server/testing/engagement";

import { GET as CHALLENGE } from "../../../captcha/challenge/route";
import { POST as REACT } from "../comments/[comment_id]/reactions/[reaction_id]/route";
import { PUT } from "../comments/[comment_id]/route";
import { GET, POST } from "./route";

const URL_A = "https://news.example.com/politics/a-story";
const B64 = pageId(URL_A);

type Created = { total_count: number; comment: TCommentWire; total_parent_comments_count: number };
type ErrorBody = { error: { code: string; message: string; details?: { field: string; issue: string }[] } };

function post(id: string, body: unknown) {
  return call(POST, "POST", "/x", { account_id: id, encoded_url: B64 }, body);
}

const guestBody = (insert: string, captcha: string | undefined, extra: Record<string, unknown> = {}) => ({
  comment: { body: { ops: [{ insert }], captcha_response: captcha, ...extra } },
});

/** Start the rate-limit counts again (as each test does): a test here posts more than guests may. */
function resetRateLimits() {
  (globalThis as { mastheadRateLimitStore?: unknown }).mastheadRateLimitStore = undefined;
}

async function errorOf(res: Response) {
  return ((await res.json()) as ErrorBody).error;
}

// eslint-disable-next-line max-lines-per-function -- a describe block of short cases that share its setup
describe("guest commenting", () => {
  // Solving the challenge is proof of work: CPU the test must wait for on a busy machine.
  it(
    "takes a comment without jwt with a captcha solved from the challenge endpoint, as a guest",
    { timeout: 90_000 },
    async () => {
      const { db, id, account } = await setupPublisher({ guestCommentsAllowed: true });
      const res = await call(CHALLENGE, "GET", `/api/v1/accounts/${id}/captcha/challenge`, { account_id: id });
      expect(res.status).toBe(200);
      expect(res.headers.get("cache-control")).toBe("no-store");
      const challenge = (await res.json()) as Parameters<typeof encodeCaptcha>[0];
      expect(challenge.parameters).toMatchObject({
        algorithm: CAPTCHA.algorithm,
        cost: CAPTCHA.cost,
        data: { account: account.id },
      });
      expect(challenge.parameters.expiresAt! * 1000 - Date.now()).toBeGreaterThan((CAPTCHA.ttlSeconds - 5) * 1000);
      const captcha = encodeCaptcha(challenge, await solve(challenge));

      const created = await post(id, {
        ...guestBody("Hello from a guest", captcha, { guest_name: "Zoë K" }),
        mobile: true,
      });
      expect(created.status, JSON.stringify(await created.clone().json())).toBe(201);
      const { comment } = (await created.json()) as Created;
      expect(comment.author).toEqual({
        id: comment.author_id,
        name: "Zoë K",
        avatar: null,
        slug: "guest",
        guest: true,
        bio: "",
        accounts: [],
      });
      expect(comment.is_published).toBe(true);
      const row = await db.comment.findUniqueOrThrow({ where: { id: comment.id } });
      expect(row).toMatchObject({ guest: true, guestName: "Zoë K", mobile: true });

      // A second guest comment: the same guest member, no new member; "Guest" without a name.
      const second = await post(id, guestBody("Another guest", await solvedCaptcha(account.id)));
      expect(second.status).toBe(201);
      const secondComment = ((await second.json()) as Created).comment;
      expect(secondComment.author).toMatchObject({ name: "Guest", guest: true, id: comment.author_id });
      expect(await db.member.count()).toBe(1);

      const list = (await (await call(GET, "GET", `/x`, { account_id: id, encoded_url: B64 })).json()) as TCommentList;
      expect(list.comments.map((c) => c.author?.name).sort()).toEqual(["Guest", "Zoë K"]);
      expect(list.comments.every((c) => c.author?.guest === true)).toBe(true);
    },
  );

  it("without jwt and captcha is 401; with a captcha where guests are not allowed 403; nothing stored", async () => {
    const { db, id, account } = await setupPublisher();
    const none = await post(id, guestBody("Hi", undefined));
    expect(none.status).toBe(401);
    expect((await errorOf(none)).message).toMatch(/does not take guest comments/);
    const off = await post(id, guestBody("Hi", await solvedCaptcha(account.id)));
    expect(off.status).toBe(403);
    expect((await errorOf(off)).message).toBe("This publication does not take guest comments: sign in to comment.");
    expect(await db.comment.count({ where: { accountId: account.id } })).toBe(0);

    const { id: openId } = await setupPublisher({ guestCommentsAllowed: true });
    const missing = await post(openId, guestBody("Hi", undefined));
    expect(missing.status).toBe(401);
    expect((await errorOf(missing)).message).toMatch(/solve the captcha/);
  });

  it("refuses malformed (400), forged, unsolved, expired and other accounts' captchas (403)", async () => {
    const { db, id, account } = await setupPublisher({ guestCommentsAllowed: true });
    const field = "body.comment.body.captcha_response";

    for (const bad of ["not base64!", Buffer.from("{}").toString("base64"), Buffer.from("[1,2]").toString("base64")]) {
      const res = await post(id, guestBody("Hi", bad));
      expect(res.status).toBe(400);
      expect((await errorOf(res)).details).toEqual([{ field, issue: "is not a base64 ALTCHA payload" }]);
    }

    // Signed with another key: forged.
    const forgedChallenge = await createChallenge({
      algorithm: CAPTCHA.algorithm,
      cost: 10,
      counter: 7,
      deriveKey,
      data: { account: account.id },
      expiresAt: new Date(Date.now() + 60_000),
      hmacSignatureSecret: "somebody-else".repeat(4),
      hmacKeySignatureSecret: "somebody-else-too".repeat(4),
    });
    const forged = await post(id, guestBody("Hi", encodeCaptcha(forgedChallenge, await solve(forgedChallenge))));
    expect(forged.status).toBe(403);
    expect((await errorOf(forged)).details).toEqual([{ field, issue: "is forged" }]);

    // A genuine challenge whose parameters were changed (an easier prefix): forged too.
    const genuine = JSON.parse(Buffer.from(await solvedCaptcha(account.id), "base64").toString()) as {
      challenge: { parameters: Record<string, unknown> };
      solution: { counter: number; derivedKey: string };
    };
    const tampered = structuredClone(genuine);
    tampered.challenge.parameters.expiresAt = Number(tampered.challenge.parameters.expiresAt) + 3600;
    const tamperedRes = await post(id, guestBody("Hi", Buffer.from(JSON.stringify(tampered)).toString("base64")));
    expect((await errorOf(tamperedRes)).details).toEqual([{ field, issue: "is forged" }]);

    // Right challenge, wrong answer.
    const wrong = structuredClone(genuine);
    wrong.solution = { counter: wrong.solution.counter + 1, derivedKey: "ab".repeat(32) };
    const wrongRes = await post(id, guestBody("Hi", Buffer.from(JSON.stringify(wrong)).toString("base64")));
    expect(wrongRes.status).toBe(403);
    expect((await errorOf(wrongRes)).details).toEqual([{ field, issue: "is not solved" }]);

    resetRateLimits();
    // Issued 11 minutes ago: expired after 10.
    const old = await solvedCaptcha(account.id, { now: new Date(Date.now() - 11 * 60_000) });
    const expired = await post(id, guestBody("Hi", old));
    expect(expired.status).toBe(403);
    expect((await errorOf(expired)).message).toBe("The captcha has expired: solve a new challenge.");

    // Issued for another publication.
    const other = await setupPublisher({ guestCommentsAllowed: true });
    const foreign = await post(id, guestBody("Hi", await solvedCaptcha(other.account.id)));
    expect(foreign.status).toBe(403);
    expect((await errorOf(foreign)).details).toEqual([{ field, issue: "is of another account" }]);

    expect(await db.comment.count({ where: { accountId: account.id } })).toBe(0);
    // The genuine one is still good: none of the refusals used it up.
    expect((await post(id, guestBody("Hi", Buffer.from(JSON.stringify(genuine)).toString("base64")))).status).toBe(201);
  });

  it("uses a captcha once: again is 403, and two comments at once with one solution make exactly one", async () => {
    const { db, id, account } = await setupPublisher({ guestCommentsAllowed: true });
    const captcha = await solvedCaptcha(account.id);
    expect((await post(id, guestBody("first", captcha))).status).toBe(201);
    const again = await post(id, guestBody("second", captcha));
    expect(again.status).toBe(403);
    expect((await errorOf(again)).message).toBe("This captcha was used already: solve a new challenge.");

    const shared = await solvedCaptcha(account.id);
    const results = await Promise.all(
      ["a", "b", "c", "d"].map((text) => post(id, guestBody(`parallel ${text}`, shared))),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, 403, 403, 403]);
    expect(await db.comment.count({ where: { accountId: account.id } })).toBe(2);
    expect(await db.usedCaptcha.count()).toBe(2);
  });

  it("makes a comment of each guest's post, the same words within 10 s too (docs/decisions/0016)", async () => {
    const { db, id, account } = await setupPublisher({ guestCommentsAllowed: true });
    const first = await post(id, guestBody("Thanks!", await solvedCaptcha(account.id)));
    const second = await post(id, guestBody("Thanks!", await solvedCaptcha(account.id)));
    expect([first.status, second.status]).toEqual([201, 201]);
    const ids = await Promise.all([first, second].map(async (r) => ((await r.json()) as Created).comment.id));
    expect(ids[0]).not.toBe(ids[1]);
    expect(await db.comment.count({ where: { accountId: account.id } })).toBe(2);
  });

  it("holds a guest's link as a new reader's, refuses a bad name, and lets guests neither edit nor react", async () => {
    const { id, account } = await setupPublisher({ guestCommentsAllowed: true });
    const held = await post(id, {
      comment: {
        body: {
          ops: [{ insert: "see " }, { attributes: { link: "https://example.org/x" }, insert: "this" }],
          captcha_response: await solvedCaptcha(account.id),
        },
      },
    });
    expect(held.status).toBe(201);
    const comment = ((await held.json()) as Created).comment;
    expect(comment.is_published).toBe(false);

    const badName = await post(
      id,
      guestBody("Hi", await solvedCaptcha(account.id), { guest_name: "visit evil.example" }),
    );
    expect(badName.status).toBe(400);
    expect((await errorOf(badName)).details?.[0]?.field).toBe("body.comment.body.guest_name");

    const published = await post(id, guestBody("plain words", await solvedCaptcha(account.id)));
    const guestComment = ((await published.json()) as Created).comment;
    const params = { account_id: id, encoded_url: B64, comment_id: String(guestComment.id) };
    expect((await call(PUT, "PUT", "/x", params, { comment: { ops: [{ insert: "changed" }] } })).status).toBe(401);
    // A signed-in reader is not the guest either.
    const jwt = await readerJwt();
    expect((await call(PUT, "PUT", "/x", params, { comment: { ops: [{ insert: "changed" }] }, jwt })).status).toBe(403);
    expect((await call(REACT, "POST", "/x", { ...params, reaction_id: "like" }, {})).status).toBe(401);
  });
});

describe("confidential comments", () => {
  it("are refused to guests (403) and where the publication does not allow them (403)", async () => {
    const { db, id, account } = await setupPublisher({ guestCommentsAllowed: true });
    const guest = await post(id, { ...guestBody("secret", await solvedCaptcha(account.id)), confidential: true });
    expect(guest.status).toBe(403);
    expect((await errorOf(guest)).details).toEqual([{ field: "body.confidential", issue: "needs a signed-in reader" }]);

    const closed = await setupPublisher({ confidentialCommentsAllowed: false });
    const jwt = await readerJwt();
    const refused = await post(closed.id, {
      comment: { body: { ops: [{ insert: "secret" }] } },
      confidential: true,
      jwt,
    });
    expect(refused.status).toBe(403);
    expect((await errorOf(refused)).message).toBe("This publication does not take confidential comments.");
    // Not confidential: fine there.
    expect((await post(closed.id, { comment: { body: { ops: [{ insert: "open" }] } }, jwt })).status).toBe(201);
    // Of the two publications, only the open comment was made.
    const accounts = [account.id, closed.account.id];
    expect(await db.comment.count({ where: { accountId: { in: accounts } } })).toBe(1);
  });

  it("show no author in the create answer, in lists and in replies", async () => {
    const { id } = await setupPublisher();
    const jwt = await readerJwt({ id: "whistle", name: "Deep Throat" });
    const top = await post(id, { comment: { body: { ops: [{ insert: "secret" }] } }, confidential: true, jwt });
    expect(top.status).toBe(201);
    const created = ((await top.json()) as Created).comment;
    expect(created.author).toBeNull();
    const reply = await post(id, {
      comment: { body: { ops: [{ insert: "secret reply" }] }, parent_comment_id: created.id },
      confidential: "true",
      jwt,
    });
    expect(reply.status).toBe(201);
    const list = (await (await call(GET, "GET", `/x`, { account_id: id, encoded_url: B64 })).json()) as TCommentList;
    expect(list.comments).toHaveLength(1);
    expect(list.comments[0]!.author).toBeNull();
    expect(list.comments[0]!.replies?.[0]?.author).toBeNull();
    expect(JSON.stringify(list)).not.toContain("Deep Throat");
  });
});

describe("create rate limits", () => {
  it("limits each signed-in reader (429 with Retry-After) while other readers go on", async () => {
    const { id } = await setupPublisher();
    const perReader = ENGAGEMENT_RATE_LIMITS.commentCreate.find((r) => r.by === "reader")!.limit;
    const ada = await readerJwt({ id: "ada", name: "Ada" });
    for (let i = 0; i < perReader; i++) {
      expect((await post(id, { comment: { body: { ops: [{ insert: `c${i}` }] } }, jwt: ada })).status).toBe(201);
    }
    const refused = await post(id, { comment: { body: { ops: [{ insert: "one more" }] } }, jwt: ada });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(refused.headers.get("ratelimit-limit")).toBe(String(perReader));
    const bo = await readerJwt({ id: "bo", name: "Bo" });
    expect((await post(id, { comment: { body: { ops: [{ insert: "mine" }] } }, jwt: bo })).status).toBe(201);
  });

  it("limits guests per IP more tightly than readers", async () => {
    const { id } = await setupPublisher({ guestCommentsAllowed: true });
    const perGuest = ENGAGEMENT_RATE_LIMITS.commentCreate.find((r) => r.by === "guest")!;
    const statuses: number[] = [];
    for (let i = 0; i <= perGuest.limit; i++) statuses.push((await post(id, guestBody(`g${i}`, undefined))).status);
    expect(statuses).toEqual([...Array<number>(perGuest.limit).fill(401), 429]);
    // Signed-in readers from the same IP are not counted by the guests' rule.
    const jwt = await readerJwt();
    expect((await post(id, { comment: { body: { ops: [{ insert: "reader" }] } }, jwt })).status).toBe(201);
  });
});
