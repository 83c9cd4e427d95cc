/**
 * How a member's session travels over HTTP. The token (server/members/sessions.ts) is sent, at
 * login or sign-up, in the response header X-QT-AUTH and the cookies `qt-auth` and
 * `session-cookie` (the names real clients read: @quintype/backend and quintype-ruby read the
 * header, quintype-api-php the `session-cookie` cookie, bridgekeeper relies on `qt-auth`), and
 * comes back in either.
 *
 * The cookies are set only on a request this site (or an origin the publisher allows) made
 * (./session-origin.ts): a request from another site gets the token in X-QT-AUTH and the body's
 * answer, never the cookies, so no page elsewhere can sign a reader's browser in (login CSRF).
 */
import type { MemberSession } from "../members/sessions";
import { json } from "./respond";
import { crossSiteSessionProblem } from "./session-origin";

const SESSION_HEADER = "X-QT-AUTH";
const SESSION_COOKIES = ["qt-auth", "session-cookie"] as const;

/** Longer than any token we issue: anything longer is not one, and is not looked up. */
const MAX_TOKEN_LENGTH = 200;

/** The session token a request carries: the X-QT-AUTH header, else the qt-auth or session-cookie cookie. */
export function memberTokenFromRequest(req: Pick<Request, "headers">): string | null {
  const header = req.headers.get(SESSION_HEADER)?.trim();
  if (header) return header.length <= MAX_TOKEN_LENGTH ? header : null;
  const cookies = parseCookies(req.headers.get("cookie"));
  for (const name of SESSION_COOKIES) {
    const value = cookies.get(name)?.trim();
    if (value) return value.length <= MAX_TOKEN_LENGTH ? value : null;
  }
  return null;
}

// ─── Cookies ─────────────────────────────────────────────────────────────────────────────────

/**
 * Set-Cookie values for a new session: HttpOnly (scripts cannot read it), SameSite=Lax (not sent
 * on cross-site POSTs), Secure when the request came over https.
 */
export function sessionCookies(token: string, args: { expiresAt: Date; now: Date; secure: boolean }): string[] {
  const maxAge = Math.max(0, Math.floor((args.expiresAt.getTime() - args.now.getTime()) / 1000));
  return SESSION_COOKIES.map((name) => cookie(name, token, { maxAge, expires: args.expiresAt, secure: args.secure }));
}

/** Set-Cookie values that remove the session cookies. */
export function clearedSessionCookies(args: { secure: boolean }): string[] {
  return SESSION_COOKIES.map((name) => cookie(name, "", { maxAge: 0, expires: new Date(0), secure: args.secure }));
}

/** Whether the request came over https (directly, or per the proxy's X-Forwarded-Proto). */
export function isSecureRequest(req: Request): boolean {
  const forwarded = req.headers.get("x-forwarded-proto")?.split(",")[0]?.trim().toLowerCase();
  if (forwarded) return forwarded === "https";
  return new URL(req.url).protocol === "https:";
}

function cookie(name: string, value: string, options: { maxAge: number; expires: Date; secure: boolean }): string {
  return [
    `${name}=${value}`,
    "Path=/",
    `Max-Age=${options.maxAge}`,
    `Expires=${options.expires.toUTCString()}`,
    "HttpOnly",
    "SameSite=Lax",
    ...(options.secure ? ["Secure"] : []),
  ].join("; ");
}

function parseCookies(header: string | null): Map<string, string> {
  const cookies = new Map<string, string>();
  if (!header) return cookies;
  for (const part of header.split(";")) {
    const index = part.indexOf("=");
    if (index <= 0) continue;
    const name = part.slice(0, index).trim();
    if (!cookies.has(name)) cookies.set(name, decodeURIComponentSafe(part.slice(index + 1).trim()));
  }
  return cookies;
}

function decodeURIComponentSafe(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

// ─── Responses ───────────────────────────────────────────────────────────────────────────────

/** JSON that no cache may keep (member data). */
export function privateJson(body: unknown, status = 200): Response {
  return json(body, { status, headers: { "Cache-Control": "private, no-store" } });
}

/** `body` as private JSON, with a new session's token in X-QT-AUTH and in the cookies (none: just the JSON). */
export function jsonWithMemberSession(
  req: Request,
  body: unknown,
  session: MemberSession | null,
  options: { status?: number; now?: Date } = {},
): Response {
  const response = privateJson(body, options.status ?? 200);
  if (!session) return response;
  response.headers.set(SESSION_HEADER, session.token);
  return withSessionCookies(req, response, session, options.now);
}

/**
 * `response` with the session's cookies set (Secure when the request came over https); none on a
 * request from another site (./session-origin.ts; `navigation`: a top-level GET navigation from
 * another site is allowed, for the OAuth redirect back).
 */
export function withSessionCookies(
  req: Request,
  response: Response,
  session: MemberSession,
  now = new Date(),
  options: { navigation?: boolean } = {},
): Response {
  if (crossSiteSessionProblem(req, options)) return response;
  for (const value of sessionCookies(session.token, {
    expiresAt: session.expiresAt,
    now,
    secure: isSecureRequest(req),
  })) {
    response.headers.append("Set-Cookie", value);
  }
  return response;
}

/** 204 that removes the session cookies (logout). */
export function loggedOutResponse(req: Request): Response {
  const headers = new Headers({ "Cache-Control": "no-store" });
  for (const value of clearedSessionCookies({ secure: isSecureRequest(req) })) headers.append("Set-Cookie", value);
  return new Response(null, { status: 204, headers });
}
