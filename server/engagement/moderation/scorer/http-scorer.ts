/**
 * The external scorer over HTTP (docs/engagement.md "Plugging in another scorer", docs/operations.md):
 * an operator sets MODERATION_SCORER_URL (MODERATION_SCORER_TIMEOUT_MS, default 800;
 * MODERATION_SCORER_TOKEN, sent as a bearer token) and each account chooses on its Scoring page
 * whether it scores live or in shadow.
 *
 * Masthead POSTs the ScorerInput as JSON (`reader.firstCommentAt` an ISO 8601 string or null) and
 * expects a CommentScore (scorer.ts ZCommentScore) with a 2xx. A timeout, another status, a body
 * that is not JSON or not a CommentScore, or an address it may not reach is a failure:
 * registry.ts scoreWith logs a warning (the scorer's name is its host: never the token nor the
 * URL's credentials) and the built-in scorer answers for that comment (reason "scorer.fallback").
 *
 * The URL must not reach loopback, private, link-local or reserved addresses (the webhooks' rules,
 * url-guard.ts, checked on every connection) unless MODERATION_SCORER_ALLOW_PRIVATE_URLS=true.
 * Redirects are not followed; at most 64 KiB of answer is read.
 */
import "server-only";

import { getEnv } from "../../../../env.js";
import { guardedFetch, type GuardedFetch } from "../../../webhooks/guarded-fetch";
import type { CommentScore, CommentScorer, ScorerInput } from "./scorer";

const MAX_ANSWER_BYTES = 64 * 1024;

type HttpScorerConfig = {
  url: string;
  timeoutMs: number;
  token?: string;
  allowPrivate: boolean;
};

/** A scorer that asks `config.url`; `fetch` is for tests. */
function httpScorer(config: HttpScorerConfig, fetch?: GuardedFetch): CommentScorer {
  const host = new URL(config.url).host;
  const send =
    fetch ??
    guardedFetch({
      allowPrivate: config.allowPrivate,
      // The socket's own limit; scoreWith's timer gives up at the same time.
      timeoutMs: config.timeoutMs,
      maxBytes: MAX_ANSWER_BYTES,
    });
  return {
    name: `http ${host}`,
    async score(input: ScorerInput) {
      const response = await send(config.url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json",
          ...(config.token ? { authorization: `Bearer ${config.token}` } : {}),
        },
        body: JSON.stringify(input),
      });
      if (response.status < 200 || response.status > 299) {
        throw new Error(`the external scorer at ${host} answered HTTP ${response.status}`);
      }
      const text = await response.text();
      let answer: unknown;
      try {
        answer = JSON.parse(text);
      } catch {
        throw new Error(`the external scorer at ${host} answered something that is not JSON`);
      }
      // scoreWith validates it (ZCommentScore): anything else is a failure there.
      return answer as CommentScore;
    },
  };
}

let built: { key: string; scorer: CommentScorer } | null = null;

/** The configuration's external scorer, or null when MODERATION_SCORER_URL is unset. */
export function externalScorer(): { scorer: CommentScorer; timeoutMs: number } | null {
  const env = getEnv();
  if (!env.MODERATION_SCORER_URL) return null;
  const config: HttpScorerConfig = {
    url: env.MODERATION_SCORER_URL,
    timeoutMs: env.MODERATION_SCORER_TIMEOUT_MS,
    token: env.MODERATION_SCORER_TOKEN,
    allowPrivate: env.MODERATION_SCORER_ALLOW_PRIVATE_URLS,
  };
  const key = JSON.stringify(config);
  if (built?.key !== key) built = { key, scorer: httpScorer(config) };
  return { scorer: built.scorer, timeoutMs: config.timeoutMs };
}

/** The external scorer's host for the dashboard (never the URL's path, query or credentials), or null. */
export function externalScorerHost(): string | null {
  const url = getEnv().MODERATION_SCORER_URL;
  return url ? new URL(url).host : null;
}
