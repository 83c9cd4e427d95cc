/**
 * The OAuth 2.0 endpoints over HTTP (docs/engagement.md "OAuth 2.0"), each made once here and
 * bound by the route files of both forms: /oauth/… and the auth component's /api/auth/v1/oauth/….
 * The protocol is server/oauth/provider.ts; this file only reads and writes HTTP.
 *
 * The token endpoint answers errors in RFC 6749 §5.2's shape ({error, error_description}, 400 or
 * 401), not the project's {error: {code, message}}: OAuth client libraries read that shape. Only
 * a rate limit (429) keeps the project's shape, as it is answered before the endpoint runs.
 */
import { getEnv } from "../../env.js";
import { AppError } from "../errors";
import {
  authorize,
  exchangeAuthorizationCode,
  exchangeCodeForSession,
  memberLoginPath,
  OAuthError,
  type AuthorizeOutcome,
  type BasicCredentials,
} from "../oauth/provider";
import {
  ZAuthorizeQuery,
  ZInternalExchangeQuery,
  ZTokenRequestReference,
  type TTokenRequest,
} from "../oauth/provider.schema";
import { withSessionCookies } from "./member-session";
import { readBody } from "./request-body";
import { json } from "./respond";
import { apiRoute, type RouteHandler } from "./route";
import { assertSessionRequestSameSite } from "./session-origin";

const perIp = (name: string, limit: number) => ({ name, limit, windowSeconds: 60, by: "ip" as const });
const NO_STORE = { "Cache-Control": "no-store", Pragma: "no-cache" };

/**
 * GET authorize. `autoSso`: a reader who is not signed in goes back to redirect_uri with
 * error=login_required instead of to the login page. allow_ajax=true answers 200
 * {redirect_uri: <where the browser should go>} instead of a 302 (bridgekeeper's oauthAuthorize).
 */
export function authorizeRoute(options: { autoSso: boolean; summary: string }): RouteHandler {
  return apiRoute(
    {
      auth: "member?",
      query: ZAuthorizeQuery,
      produces: "any",
      rateLimit: perIp("oauth.authorize", 120),
      summary: options.summary,
    },
    async ({ db, url, publisher, member, query }) => {
      const outcome = await authorize(db, {
        publisher,
        query,
        memberId: member?.member.id ?? null,
        autoSso: options.autoSso,
        now: new Date(),
      });
      return goTo(locationOf(outcome, url), query.allow_ajax === "true");
    },
  );
}

function locationOf(outcome: AuthorizeOutcome, url: URL): string {
  // Back to this very request once signed in: a path on this host, which the login page accepts.
  return outcome.kind === "login" ? memberLoginPath(url.pathname + url.search) : outcome.location;
}

function goTo(location: string, asJson: boolean): Response {
  if (asJson) return json({ redirect_uri: location }, { headers: NO_STORE });
  return new Response(null, { status: 302, headers: { Location: location, ...NO_STORE } });
}

/** POST token: the code for an access token, opaque (/oauth/token) or a JWT (the auth component's form). */
export function tokenRoute(options: { format: "opaque" | "jwt"; summary: string }): RouteHandler {
  return apiRoute(
    {
      auth: "public",
      rawBody: true,
      // Shown in the API reference only: rawBody leaves the checking to the provider (RFC errors).
      body: ZTokenRequestReference,
      bodyTypes: ["form", "json"],
      rateLimit: perIp("oauth.token", 60),
      summary: options.summary,
    },
    async ({ req, db }) => {
      try {
        const body = await readTokenRequest(req);
        const token = await exchangeAuthorizationCode(db, {
          body,
          basic: basicCredentials(req.headers.get("authorization")),
          format: options.format,
          now: new Date(),
        });
        return json(token, { headers: NO_STORE });
      } catch (error) {
        if (error instanceof OAuthError) {
          return json(
            { error: error.error, error_description: error.description },
            { status: error.status, headers: { ...NO_STORE, ...error.headers } },
          );
        }
        throw error;
      }
    },
  );
}

/** The body as form-urlencoded or JSON; anything unreadable is invalid_request (RFC shape). */
async function readTokenRequest(req: Request): Promise<TTokenRequest> {
  let body: unknown;
  try {
    body = await readBody(req, ["form", "json"], getEnv().MAX_BODY_BYTES);
  } catch (error) {
    if (error instanceof AppError) throw new OAuthError("invalid_request", error.message, error.status);
    throw error;
  }
  if (!body || typeof body !== "object" || Array.isArray(body)) {
    throw new OAuthError("invalid_request", "The body must be form parameters or a JSON object.");
  }
  return body;
}

/** client_id:client_secret from `Authorization: Basic`, each form-urlencoded (RFC 6749 §2.3.1). */
function basicCredentials(header: string | null): BasicCredentials | "malformed" {
  if (!header || !/^basic /i.test(header)) return null;
  const decoded = Buffer.from(header.slice(6).trim(), "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (colon < 0) return "malformed";
  try {
    const formDecode = (value: string) => decodeURIComponent(value.replace(/\+/g, " "));
    return { clientId: formDecode(decoded.slice(0, colon)), clientSecret: formDecode(decoded.slice(colon + 1)) };
  } catch {
    return "malformed";
  }
}

/**
 * GET /api/auth/v1/oauth/token?code=&callback_uri=: the auth component's internal exchange. The
 * code becomes a member session on this (the publisher's) host, and the browser goes on to
 * callback_uri.
 */
export function internalExchangeRoute(summary: string): RouteHandler {
  return apiRoute(
    {
      auth: "publisher",
      query: ZInternalExchangeQuery,
      produces: "any",
      rateLimit: perIp("oauth.internal-exchange", 60),
      summary,
    },
    async ({ req, db, publisher, query }) => {
      // Its only product is the cookies: from another site, only a top-level navigation (the redirect back).
      assertSessionRequestSameSite(req, { navigation: true });
      const now = new Date();
      const { session, location } = await exchangeCodeForSession(db, {
        publisher,
        code: query.code,
        callbackUri: query.callback_uri,
        codeVerifier: query.code_verifier,
        now,
      });
      return withSessionCookies(req, goTo(location, false), session, now, { navigation: true });
    },
  );
}
