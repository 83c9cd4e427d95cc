/**
 * The proof-of-work captcha of guest commenting (docs/engagement.md, "Guest commenting and the
 * captcha"): self-hosted, no third-party service.
 *
 * Built on `altcha-lib` (MIT, maintained, the server side of the ALTCHA widget; v2 protocol): the
 * server issues an HMAC-signed challenge, the browser (the ALTCHA widget, or a mobile app with
 * the same algorithm) spends about a second finding the counter whose PBKDF2 key starts with the
 * challenge's prefix, and sends back `captcha_response`: base64 of the JSON
 * `{challenge: {parameters, signature}, solution: {counter, derivedKey}}`.
 *
 * - Challenge: PBKDF2/SHA-256, CAPTCHA.cost iterations per try, the solution a random counter
 *   between CAPTCHA.counterMin and counterMax (deterministic mode: the prefix is that counter's
 *   key, so the work is the counter's value, not luck). Measured on one busy server core: 0.5 s
 *   for 1,869 tries, 1.6 s for 3,914 (Chromium's WebCrypto: 0.77 s for 3,500); a phone, 3 to 5
 *   times slower a core, some 2 to 4 s on one thread, about 1 s in the widget's workers. It expires after CAPTCHA.ttlSeconds and names the account it was issued for (in its
 *   signed `data`).
 * - Verification (`verifyCaptcha`), all cheap for the server (two HMACs, no key derivation): the
 *   payload's shape (400), the expiry, the signature (403), the account, the solution (the
 *   derived key's own HMAC, `keySignature`). Single use (the comment's own statement,
 *   ./comment-write.ts): the digest of the challenge's signature is inserted into used_captchas, whose primary key lets exactly one
 *   request through, also when two arrive at once; the row is kept until the challenge expires
 *   (maintenance.purge deletes it after).
 * - Keys: two HMAC secrets derived (HKDF-SHA-256) from CAPTCHA_SECRET, or from AUTH_SECRET when it
 *   is unset (required in production), or outside production from a fixed development key.
 */
import "server-only";

import { createHash, hkdfSync } from "node:crypto";

import { createChallenge, randomInt, verifySolution, type Challenge } from "altcha-lib";
import { deriveKey } from "altcha-lib/algorithms/pbkdf2";
import { z } from "zod";

import type { Env } from "../../env.js";
import type { Db } from "../db/client";
import { AppError } from "../errors";

export const CAPTCHA = {
  algorithm: "PBKDF2/SHA-256",
  /** PBKDF2 iterations per try. */
  cost: 1_000,
  /** The solution's counter is drawn between these (the tries a solver makes). */
  counterMin: 2_000,
  counterMax: 5_000,
  /** A challenge is good for this long after it is issued. */
  ttlSeconds: 600,
} as const;

type CaptchaDifficulty = { cost: number; counterMin: number; counterMax: number };

/** Used only outside production when neither CAPTCHA_SECRET nor AUTH_SECRET is set. */
const DEVELOPMENT_SECRET = "masthead-development-captcha-secret-not-for-production";

export type CaptchaSecrets = { signature: string; key: string };

/** The two HMAC secrets (challenge signature, derived-key signature), from the configuration. */
export function captchaSecrets(env: Pick<Env, "CAPTCHA_SECRET" | "AUTH_SECRET" | "NODE_ENV">): CaptchaSecrets {
  const base = env.CAPTCHA_SECRET ?? env.AUTH_SECRET;
  if (!base && env.NODE_ENV === "production") throw new Error("CAPTCHA_SECRET or AUTH_SECRET is required");
  const derive = (info: string) =>
    Buffer.from(hkdfSync("sha256", base ?? DEVELOPMENT_SECRET, "masthead-captcha", info, 32)).toString("hex");
  return { signature: derive("challenge-signature"), key: derive("derived-key-signature") };
}

/** A signed challenge for the account, expiring CAPTCHA.ttlSeconds after `now`. */
export async function createCaptchaChallenge(args: {
  accountId: number;
  now: Date;
  secrets: CaptchaSecrets;
  difficulty?: CaptchaDifficulty;
}): Promise<Challenge> {
  const difficulty = args.difficulty ?? CAPTCHA;
  return createChallenge({
    algorithm: CAPTCHA.algorithm,
    cost: difficulty.cost,
    counter: randomInt(difficulty.counterMax, difficulty.counterMin),
    deriveKey,
    data: { account: args.accountId },
    expiresAt: new Date(args.now.getTime() + CAPTCHA.ttlSeconds * 1000),
    hmacSignatureSecret: args.secrets.signature,
    hmacKeySignatureSecret: args.secrets.key,
  });
}

const FIELD = "body.comment.body.captcha_response";

const hex = z.string().regex(/^(?:[0-9a-f]{2})+$/);
const ZCaptchaPayload = z.object({
  challenge: z.object({
    parameters: z
      .object({
        algorithm: z.literal(CAPTCHA.algorithm),
        nonce: hex.max(256),
        salt: hex.max(256),
        cost: z.number().int().positive().max(1_000_000),
        keyLength: z.number().int().positive().max(64),
        keyPrefix: hex.max(128),
        keySignature: hex.max(256),
        expiresAt: z.number().int().positive(),
        data: z.object({ account: z.number().int() }).loose(),
      })
      .loose(),
    signature: hex.max(256),
  }),
  solution: z.object({
    counter: z.number().int().min(0).max(0xffffffff),
    derivedKey: hex.max(256),
    time: z.number().optional(),
  }),
});
type TCaptchaPayload = z.output<typeof ZCaptchaPayload>;

/** `captcha_response` decoded (base64 of JSON, standard or URL-safe), or null when it is not an ALTCHA payload. */
export function parseCaptchaResponse(raw: string): TCaptchaPayload | null {
  const text = raw.trim();
  if (!text || text.length > 4096 || !/^[A-Za-z0-9+/_-]+={0,2}$/.test(text)) return null;
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(text, "base64").toString("utf8"));
  } catch {
    return null;
  }
  const parsed = ZCaptchaPayload.safeParse(json);
  return parsed.success ? parsed.data : null;
}

/** What a verified solution is remembered by until its challenge expires (single use). */
export type VerifiedCaptcha = { digest: string; expiresAt: Date };

const refused = (message: string, issue: string) =>
  new AppError("FORBIDDEN", message, { details: [{ field: FIELD, issue }] });

/**
 * Check a `captcha_response` for the account: 400 when it is not an ALTCHA payload; 403 when it
 * is forged, of another account, expired or wrong. Does not use it up: the statement that writes
 * what it pays for does (./comment-write.ts), so a comment that is not written frees it.
 */
export async function verifyCaptcha(args: {
  accountId: number;
  response: string;
  now: Date;
  secrets: CaptchaSecrets;
}): Promise<VerifiedCaptcha> {
  const payload = parseCaptchaResponse(args.response);
  if (!payload) {
    throw new AppError("BAD_REQUEST", "captcha_response is not a solved captcha: solve a new challenge.", {
      details: [{ field: FIELD, issue: "is not a base64 ALTCHA payload" }],
    });
  }
  const { parameters } = payload.challenge;
  const expiresAt = new Date(parameters.expiresAt * 1000);
  const result = await verifySolution({
    challenge: payload.challenge as Challenge,
    solution: payload.solution,
    deriveKey,
    hmacSignatureSecret: args.secrets.signature,
    hmacKeySignatureSecret: args.secrets.key,
  });
  // altcha-lib looks at the expiry before the signature (an expired payload is refused unread);
  // otherwise the signature holds before anything else in the payload is believed.
  if (result.expired || expiresAt.getTime() <= args.now.getTime()) {
    throw refused("The captcha has expired: solve a new challenge.", "has expired");
  }
  if (result.invalidSignature) throw refused("The captcha was not issued here: solve a new challenge.", "is forged");
  if (parameters.data.account !== args.accountId) {
    throw refused("The captcha was issued for another publication: solve a new challenge.", "is of another account");
  }
  if (!result.verified) throw refused("The captcha is not solved: solve a new challenge.", "is not solved");
  return { digest: createHash("sha256").update(payload.challenge.signature).digest("hex"), expiresAt };
}

/**
 * Use a verified captcha up, in the caller's transaction (so a rolled-back comment leaves it
 * usable): 403 when it was used before. The primary key decides between two requests at once.
 */
/** A captcha solution used before (the comment's statement uses it up: ./comment-write.ts). */
export function captchaUsedError(): AppError {
  return refused("This captcha was used already: solve a new challenge.", "was used already");
}

/** Forget used captchas whose challenges have expired (maintenance.purge). */
export async function purgeUsedCaptchas(db: Db, args: { now: Date }): Promise<number> {
  const { count } = await db.usedCaptcha.deleteMany({ where: { expiresAt: { lt: args.now } } });
  return count;
}
