/**
 * One-click unsubscribe tokens (RFC 8058): `<member id>.<kind>.<HMAC>`, the HMAC-SHA-256 of the
 * account, the member and the kind under a key derived (HKDF-SHA-256) from AUTH_SECRET. A token
 * turns off exactly one reader's one kind (or "all"), in one account; anything else, or a changed
 * character, fails the constant-time comparison.
 */
import { createHmac, hkdfSync } from "node:crypto";

import { base64urlMacMatches } from "../../security/signed-token";
import type { TNotificationKind } from "./rules";

export type TUnsubscribeKind = TNotificationKind | "all";

/** Used only outside production when AUTH_SECRET is unset. */
const DEVELOPMENT_SECRET = "masthead-development-unsubscribe-secret-not-for-production";

/** The signing key, from AUTH_SECRET (required in production). */
export function unsubscribeKey(env: { AUTH_SECRET?: string; NODE_ENV?: string }): Buffer {
  if (!env.AUTH_SECRET && env.NODE_ENV === "production") throw new Error("AUTH_SECRET is required");
  return Buffer.from(
    hkdfSync("sha256", env.AUTH_SECRET ?? DEVELOPMENT_SECRET, "masthead-unsubscribe", "list-unsubscribe", 32),
  );
}

function mac(key: Buffer, accountId: number, memberId: number, kind: TUnsubscribeKind): Buffer {
  return createHmac("sha256", key).update(`v1\n${accountId}\n${memberId}\n${kind}`).digest();
}

export function signUnsubscribeToken(
  key: Buffer,
  args: { accountId: number; memberId: number; kind: TUnsubscribeKind },
): string {
  return `${args.memberId}.${args.kind}.${mac(key, args.accountId, args.memberId, args.kind).toString("base64url")}`;
}

const TOKEN_FORM = /^([1-9][0-9]{0,9})\.(replies|mentions|decisions|all)\.([A-Za-z0-9_-]{43})$/;

/** Whether a token has the form of one (a malformed one is the caller's mistake: 400). */
export function isUnsubscribeTokenForm(token: string): boolean {
  return TOKEN_FORM.test(token);
}

/** The member and kind a token of the account names, or null when it was not signed for it. */
export function verifyUnsubscribeToken(
  key: Buffer,
  accountId: number,
  token: string,
): { memberId: number; kind: TUnsubscribeKind } | null {
  const match = TOKEN_FORM.exec(token);
  if (!match) return null;
  const memberId = Number(match[1]);
  const kind = match[2] as TUnsubscribeKind;
  if (!base64urlMacMatches(match[3]!, mac(key, accountId, memberId, kind))) return null;
  return { memberId, kind };
}
