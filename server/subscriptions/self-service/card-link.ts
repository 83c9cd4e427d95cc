/**
 * The "update your card" link of a subscription in its grace period (the dunning e-mail, the
 * paywall's banner): a signed, expiring, single-purpose token, so a reader the publisher knows only
 * by its JWT (no password, no session) can update the card of that one subscription and nothing
 * else. The token is "<account>.<subscription>.<member>.<expiry seconds>.<HMAC-SHA256, base64url>";
 * the HMAC (key derived by HKDF-SHA-256 from AUTH_SECRET, as the attempt tokens) covers the purpose,
 * the ids and the expiry, and is compared in constant time. It lets its bearer see the
 * subscription's plan and replace its payment method (`updateSelfServicePaymentMethod`), no more.
 */
import { createHmac, hkdfSync } from "node:crypto";

import { getEnv, type Env } from "../../../env.js";
import type { Db, TransactionClient } from "../../db/client";
import { base64urlMacMatches } from "../../security/signed-token";

/** How long a link works at most (the grace period usually ends sooner: then the link ends with it). */
const CARD_LINK_MAX_TTL_MS = 14 * 86_400_000;
/** Where the link lands (app/member/card/[token]). */
const CARD_LINK_PATH = "/member/card";

const DEVELOPMENT_SECRET = "masthead-development-card-link-secret-not-for-production";
const TOKEN = /^([1-9]\d{0,9})\.([1-9]\d{0,12})\.([1-9]\d{0,12})\.([1-9]\d{0,11})\.([A-Za-z0-9_-]{43})$/;

export type CardLinkClaims = { accountId: number; subscriptionId: number; memberId: number; expiresAt: Date };

function cardLinkKey(env: Pick<Env, "AUTH_SECRET" | "NODE_ENV"> = getEnv()): Buffer {
  const base = env.AUTH_SECRET;
  if (!base && env.NODE_ENV === "production") throw new Error("AUTH_SECRET is required");
  return Buffer.from(hkdfSync("sha256", base ?? DEVELOPMENT_SECRET, "masthead-card-link", "card-link-v1", 32));
}

function mac(payload: string, key: Buffer): Buffer {
  return createHmac("sha256", key).update(`subscription.card_update:v1:${payload}`).digest();
}

/** The token of a link for this reader's subscription, valid until `expiresAt` (whole seconds). */
export function signCardLink(
  claims: Omit<CardLinkClaims, "expiresAt"> & { expiresAt: Date },
  key: Buffer = cardLinkKey(),
): string {
  const exp = Math.floor(claims.expiresAt.getTime() / 1000);
  const payload = `${claims.accountId}.${claims.subscriptionId}.${claims.memberId}.${exp}`;
  return `${payload}.${mac(payload, key).toString("base64url")}`;
}

/** The link's expiry: the grace period's end, at most CARD_LINK_MAX_TTL_MS from now. */
export function cardLinkExpiry(now: Date, graceEndsAt: Date | null): Date {
  const max = now.getTime() + CARD_LINK_MAX_TTL_MS;
  return new Date(graceEndsAt ? Math.min(graceEndsAt.getTime(), max) : max);
}

/** The claims of a token Masthead signed and that has not expired at `now`; otherwise null. */
export function verifyCardLink(token: unknown, now: Date, key: Buffer = cardLinkKey()): CardLinkClaims | null {
  if (typeof token !== "string" || token.length > 200) return null;
  const m = TOKEN.exec(token);
  if (!m) return null;
  const payload = `${m[1]}.${m[2]}.${m[3]}.${m[4]}`;
  if (!base64urlMacMatches(m[5]!, mac(payload, key))) return null;
  const expiresAt = new Date(Number(m[4]) * 1000);
  if (expiresAt.getTime() <= now.getTime()) return null;
  return { accountId: Number(m[1]), subscriptionId: Number(m[2]), memberId: Number(m[3]), expiresAt };
}

/** The signed link to the card update of a reader's subscription, on the given origin. */
export async function cardLinkUrl(
  tx: TransactionClient | Db,
  args: { origin: string; subscriptionId: number; now: Date },
): Promise<string | null> {
  const sub = await tx.subscription.findUnique({
    where: { id: args.subscriptionId },
    select: { accountId: true, memberId: true, graceEndsAt: true },
  });
  if (!sub) return null;
  const token = signCardLink({
    accountId: sub.accountId,
    subscriptionId: args.subscriptionId,
    memberId: sub.memberId,
    expiresAt: cardLinkExpiry(args.now, sub.graceEndsAt),
  });
  return `${args.origin}${CARD_LINK_PATH}/${token}`;
}
