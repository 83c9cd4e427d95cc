/**
 * The external scorer over HTTP (docs/engagement.md "Scoring"): its answer used for an account
 * that turns it on, live or in shadow, with the input as JSON and the token as a bearer; the
 * built-in scorer answering on a timeout, another status, an answer that is not JSON or not a
 * score, and a private address unless the operator allows it; the token never logged.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";

import { describe, expect, it, vi } from "vitest";

import { resetEnvCache } from "../../../../env.js";
import { log } from "../../../log";
import { postComment, scoringSetup, withFixedScorer } from "../../../testing/comment-scoring";
import { lexiconScorer } from "../lexicon/lexicon-scorer";
import { externalScorer } from "./http-scorer";
import { scoreWith } from "./registry";
import type { ScorerInput } from "./scorer";

withFixedScorer();

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
    const s = await scoringSetup();
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
      const c = await postComment(s, "A perfectly calm remark");
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
      const shadowed = await postComment(s, "Another calm remark");
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
        // Only the slow answer meets the account's 300 ms; the others get time enough that a loaded
        // machine cannot turn their own failure (a status, not JSON, not a score) into a timeout.
        const timeoutMs = i === 0 ? external.timeoutMs : 1_200;
        const score = await scoreWith(external.scorer, INPUT, { timeoutMs });
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
