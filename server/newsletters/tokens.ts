/**
 * Signed tokens in newsletter links: `<purpose>.<id>.<HMAC>`, the HMAC-SHA-256 of the account, the
 * purpose and the id under a key derived (HKDF-SHA-256) from AUTH_SECRET.
 *
 * - "confirm": a newsletter subscription's id, in the double opt-in mail's link, signed over the
 *   nonce of the sign-up request the mail was sent for (`confirmNonce`), so a later request of the
 *   same address (a new nonce) is not confirmed by an older mail's link;
 * - "unsubscribe": a newsletter subscription's id, outside any send (the confirmation mail, a test send);
 * - "delivery": one mail of a send (its open pixel, its redirected links, its one-click unsubscribe),
 *   so what a reader does is counted for that send.
 *
 * A token names exactly one row of one account for one purpose; anything else, or a changed
 * character, fails the constant-time comparison.
 */
import { createHmac, hkdfSync } from "node:crypto";

import { getEnv } from "../../env.js";
import { base64urlMacMatches } from "../security/signed-token";

const NEWSLETTER_TOKEN_PURPOSES = ["confirm", "unsubscribe", "delivery"] as const;
export type TNewsletterTokenPurpose = (typeof NEWSLETTER_TOKEN_PURPOSES)[number];

/** Used only outside production when AUTH_SECRET is unset. */
const DEVELOPMENT_SECRET = "masthead-development-newsletter-secret-not-for-production";

/** The signing key, from AUTH_SECRET (required in production). */
export function newsletterTokenKey(env: { AUTH_SECRET?: string; NODE_ENV?: string } = getEnv()): Buffer {
  if (!env.AUTH_SECRET && env.NODE_ENV === "production") throw new Error("AUTH_SECRET is required");
  return Buffer.from(hkdfSync("sha256", env.AUTH_SECRET ?? DEVELOPMENT_SECRET, "masthead-newsletters", "links", 32));
}

function mac(
  key: Buffer,
  accountId: number,
  purpose: TNewsletterTokenPurpose,
  id: string,
  nonce?: string | null,
): Buffer {
  const bound = nonce ? `\n${nonce}` : "";
  return createHmac("sha256", key).update(`v1\n${accountId}\n${purpose}\n${id}${bound}`).digest();
}

/**
 * A token for one row (`id`: a subscription's or a delivery's id) of the account; `nonce` binds it
 * to one request of that row too (a confirmation's sign-up).
 */
export function signNewsletterToken(
  key: Buffer,
  args: { accountId: number; purpose: TNewsletterTokenPurpose; id: number | bigint | string; nonce?: string | null },
): string {
  const id = String(args.id);
  if (!/^[1-9][0-9]{0,18}$/.test(id)) throw new Error(`not a row id: ${id}`);
  return `${args.purpose}.${id}.${mac(key, args.accountId, args.purpose, id, args.nonce).toString("base64url")}`;
}

const TOKEN_FORM = /^(confirm|unsubscribe|delivery)\.([1-9][0-9]{0,18})\.([A-Za-z0-9_-]{43})$/;

/** Whether a string has the form of a token (a malformed one is the caller's mistake: 400). */
export function isNewsletterTokenForm(token: string): boolean {
  return TOKEN_FORM.test(token);
}

/**
 * The purpose and row id a token of the account names, or null when it was not signed for this
 * account (or for one of `purposes`, when given; with the row's `nonce` when it was signed over one).
 * The id is a decimal string (delivery ids are bigints).
 */
export function verifyNewsletterToken(
  key: Buffer,
  accountId: number,
  token: string,
  purposes: readonly TNewsletterTokenPurpose[] = NEWSLETTER_TOKEN_PURPOSES,
  nonce?: string | null,
): { purpose: TNewsletterTokenPurpose; id: string } | null {
  const match = TOKEN_FORM.exec(token);
  if (!match) return null;
  const purpose = match[1] as TNewsletterTokenPurpose;
  const id = match[2]!;
  if (!purposes.includes(purpose)) return null;
  if (!base64urlMacMatches(match[3]!, mac(key, accountId, purpose, id, nonce))) return null;
  return { purpose, id };
}
