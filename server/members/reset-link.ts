/**
 * Where a member's password reset e-mail links to. Two pages can set the new password:
 * - the publisher's own page, `<siteUrl>/reset-password?token=` (API clients build it and post
 *   the token to POST /api/member/password/reset): the link for every request made through the API;
 * - Masthead's hosted page, `/member/reset-password?token=` (app/member/reset-password), for a
 *   request made on the hosted "Forgot password?" page.
 * The hosted link is never built from the request's Host header (a forged Host would otherwise
 * send the token to another site). Its origin is APP_URL when APP_URL serves this publisher (its
 * host resolves to the publisher: the account's domain, PUBLISHING_ACCOUNT or the only account),
 * else the account's domain (the host Masthead serves the publisher at) with APP_URL's scheme;
 * with neither, the publisher's own page.
 */
import "server-only";

import type { Db } from "../db/client";
import { resolvePublisherAccountId, type Publisher } from "../publishing/publisher";

const HOSTED_RESET_PATH = "/member/reset-password";
const DOMAIN = /^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*(:\d{1,5})?$/;

/** Which page the reset link opens: the publisher's own ("site") or Masthead's hosted page. */
export type ResetPage = "site" | "hosted";

function withToken(base: string, path: string, token: string): string {
  return `${base.replace(/\/+$/, "")}${path}?token=${encodeURIComponent(token)}`;
}

/** The origin of the hosted member pages for this publisher, or null when Masthead serves it at no known host. */
export async function hostedMemberOrigin(
  db: Db,
  args: { publisher: Publisher; appUrl: string; fallbackSlug?: string },
): Promise<string | null> {
  const app = new URL(args.appUrl);
  const servedAtAppUrl = await resolvePublisherAccountId(db, { host: app.host, fallbackSlug: args.fallbackSlug }).then(
    (id) => id === args.publisher.accountId,
    () => false,
  );
  if (servedAtAppUrl) return app.origin;
  const domain = args.publisher.domain?.trim().toLowerCase();
  if (domain && DOMAIN.test(domain)) return `${app.protocol}//${domain}`;
  return null;
}

/** The link a reset e-mail carries (see the module comment for which page and why). */
export async function passwordResetLink(
  db: Db,
  args: { publisher: Publisher; token: string; page: ResetPage; appUrl: string; fallbackSlug?: string },
): Promise<string> {
  if (args.page === "hosted") {
    const origin = await hostedMemberOrigin(db, args);
    if (origin) return withToken(origin, HOSTED_RESET_PATH, args.token);
  }
  return withToken(args.publisher.siteUrl, "/reset-password", args.token);
}
