/**
 * OAuth clients (docs/engagement.md "OAuth 2.0"): the applications an account registers to sign
 * its readers in through Masthead. Shared by the tRPC router and the dashboard form. zod only.
 */
import { z } from "zod";

const OAUTH_CLIENT_NAME_MAX = 100;
const OAUTH_REDIRECT_URIS_MAX = 10;
const OAUTH_REDIRECT_URI_MAX = 2_048;

/** Hosts that may use plain http (a developer's machine): RFC 8252 §7.3 loopback redirects. */
const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

/**
 * Why `value` cannot be a registered redirect URI, or null when it can: an absolute https URL
 * (http only on localhost), without credentials or fragment (RFC 6749 §3.1.2), written in its
 * canonical form so the exact comparison at /oauth/authorize compares what browsers send.
 */
function redirectUriProblem(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return "must be an absolute URL";
  }
  if (url.protocol !== "https:" && !(url.protocol === "http:" && LOOPBACK_HOSTS.has(url.hostname))) {
    return "must use https (http only for localhost)";
  }
  if (url.username || url.password) return "must not contain credentials";
  if (value.includes("#")) return "must not contain a fragment";
  if (url.href !== value) return `must be written in canonical form: ${url.href}`;
  return null;
}

const zRedirectUri = z
  .string()
  .trim()
  .min(1, "must not be empty")
  .max(OAUTH_REDIRECT_URI_MAX, `must be at most ${OAUTH_REDIRECT_URI_MAX} characters`)
  .superRefine((value, ctx) => {
    const problem = redirectUriProblem(value);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  });

const zRedirectUris = z
  .array(zRedirectUri)
  .min(1, "add at least one redirect URI")
  .max(OAUTH_REDIRECT_URIS_MAX, `at most ${OAUTH_REDIRECT_URIS_MAX} redirect URIs`)
  .superRefine((uris, ctx) => {
    uris.forEach((uri, index) => {
      if (uris.indexOf(uri) !== index) ctx.addIssue({ code: "custom", path: [index], message: "is listed twice" });
    });
  });

const zClientName = z
  .string()
  .trim()
  .min(1, "must not be empty")
  .max(OAUTH_CLIENT_NAME_MAX, `must be at most ${OAUTH_CLIENT_NAME_MAX} characters`);

export const ZCreateOAuthClientInput = z.object({ name: zClientName, redirectUris: zRedirectUris });
export type TCreateOAuthClientInput = z.input<typeof ZCreateOAuthClientInput>;

export const ZUpdateOAuthClientInput = ZCreateOAuthClientInput.partial().extend({ id: z.uuid() });
export type TUpdateOAuthClientInput = z.input<typeof ZUpdateOAuthClientInput>;

/** A client as the dashboard sees it: never the secret (nor its hash). */
export const ZOAuthClientView = z.object({
  id: z.uuid(),
  clientId: z.string(),
  name: z.string(),
  redirectUris: z.array(z.string()),
  createdAt: z.date(),
  updatedAt: z.date(),
  secretRotatedAt: z.date().nullable(),
  revokedAt: z.date().nullable(),
});
export type TOAuthClientView = z.output<typeof ZOAuthClientView>;

/** The secret, returned once by create and rotate. */
export const ZOAuthClientSecretOnce = z.object({ clientSecret: z.string() });
