/**
 * Dashboard sign-in with e-mail and password: the logic behind next-auth's Credentials provider
 * (server/auth/next-auth.ts), kept free of next-auth so it is tested against a real database.
 *
 * Every failure looks the same to the caller (null): wrong password, unknown e-mail, disabled
 * user. Each of them also costs one scrypt verification, so the response time does not tell them
 * apart either.
 */
import "server-only";

import { ownValue } from "@/server/own-keys";

import { recordAudit } from "../audit/audit-log";
import type { Db } from "../db/client";
import { AppError } from "../errors";
import { PEER_ADDRESS_HEADER, servedPeerAddress } from "../security/peer-address.js";
import { unsafeInputFindings } from "../validation";
import { staffActor } from "./actor";
import type { AdminSessionUser } from "./admin-session";
import { SESSION_USER_SELECT, toSessionUser } from "./admin-sessions";
import { getDummyPasswordHash, verifyPassword } from "./password";
import { getSignInThrottle, type SignInThrottle } from "./sign-in-rate-limit";
import { ZAdminSignInInput } from "./sign-in.schema";

type AuthorizeOptions = {
  /** The client's address, for the rate limit and the audit entry. */
  ip: string | null;
  throttle?: SignInThrottle;
  now?: () => Date;
};

/**
 * The admin user for these credentials, or null. Throws AppError RATE_LIMITED past the sign-in
 * limit. A success updates `lastLoginAt` and records "admin.sign_in" in the audit log.
 */
export async function authorizeAdminCredentials(
  db: Db,
  credentials: unknown,
  options: AuthorizeOptions,
): Promise<AdminSessionUser | null> {
  // Text the database cannot store (a NUL character) matches no user: a failed sign-in, like a malformed one.
  const parsed = unsafeInputFindings(credentials).length === 0 ? ZAdminSignInInput.safeParse(credentials) : null;
  if (!parsed?.success) return null;
  const { email, password } = parsed.data;
  const now = options.now ?? (() => new Date());
  const throttle = options.throttle ?? getSignInThrottle();

  const decision = await throttle.attempt({ email, ip: options.ip }, now());
  if (!decision.allowed) {
    throw new AppError("RATE_LIMITED", "Too many sign-in attempts.", {
      headers: { "Retry-After": String(decision.retryAfterSeconds) },
    });
  }

  const user = await db.adminUser.findUnique({
    where: { email },
    select: { ...SESSION_USER_SELECT, passwordHash: true },
  });
  if (!user || user.disabledAt) {
    await verifyPassword(password, await getDummyPasswordHash());
    return null;
  }
  if (!(await verifyPassword(password, user.passwordHash))) return null;

  const at = now();
  await db.adminUser.update({ where: { id: user.id }, data: { lastLoginAt: at }, select: { id: true } });
  await recordAudit(db, {
    actor: staffActor(user),
    action: "admin.sign_in",
    targetType: "admin_user",
    targetId: user.id,
    metadata: { method: "password" },
    ip: options.ip,
    now: at,
  });
  await throttle.succeeded({ email, ip: options.ip });
  return toSessionUser(user);
}

/**
 * The client's IP from request headers. Behind a proxy you run (TRUST_PROXY=true) the first
 * X-Forwarded-For entry is the client. Otherwise the socket's address scripts/serve.mjs recorded;
 * where it does not run (Vercel), the last X-Forwarded-For entry, the nearest hop we can see, which
 * a client can forge by sending the header itself: the per-e-mail limit covers that case
 * (sign-in-rate-limit.ts).
 */
export function clientIpFromHeaders(
  headers: Record<string, string | string[] | undefined> | Headers | undefined,
  trustProxy: boolean,
): string | null {
  const read = (name: string): string | undefined => {
    if (!headers) return undefined;
    if (headers instanceof Headers) return headers.get(name) ?? undefined;
    const value = ownValue(headers, name);
    return Array.isArray(value) ? value.join(",") : value;
  };
  const forwarded = (read("x-forwarded-for") ?? "")
    .split(",")
    .map((part) => part.trim())
    .filter(Boolean);
  const ip = trustProxy
    ? (forwarded[0] ?? read("x-real-ip"))
    : (servedPeerAddress(read(PEER_ADDRESS_HEADER)) ?? forwarded.at(-1));
  return ip ? ip.slice(0, 64) : null;
}
