/**
 * The one wrapper every REST route handler goes through (docs/api-conventions.md). A route
 * declares whom it serves, and the handler gets a context that already holds them:
 *
 *   export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
 *     GET: apiRoute({ auth: "publisher", query: ZListQuery }, async ({ db, publisher, query }) =>
 *       json(await listThings(db, { accountId: publisher.accountId, ...query }))),
 *   });
 *
 * In order: request id → CORS preflight → Accept (406) → input guard and zod validation of params
 * → authentication (401/403) → rate limit (429) → body: size (413), type (415), JSON (400) → input
 * guard and zod validation of query and body (400) → handler → (a write: this process has heard
 * what it committed, so the caches it answers the next read from know it) → errors mapped to the
 * one JSON shape.
 * Every response carries X-Request-Id. No handler reads the Host header, a member token or a
 * dashboard session itself (server/http/conventions.test.ts checks every route file).
 */
import { randomUUID, timingSafeEqual } from "node:crypto";

import type { z } from "zod";

import { getEnv } from "../../env.js";
import type { StaffActor } from "../auth/actor";
import {
  authenticateClient,
  authenticatePublisherJwt,
  authenticateServerKey,
  USER_JWT_PARAMS,
  verifyPublisherJwt,
  type ApiAccount,
  type ApiUser,
} from "../auth/api-auth";
import type { AdminRole } from "../auth/roles";
import { ownWritesHeard } from "../cache/process-cache";
import { getDb, type Db } from "../db";
import { AppError, zodIssuesToDetails, type ErrorDetail } from "../errors";
import { authenticateMember, type AuthenticatedMember } from "../members/sessions";
import { recordRequest, routeTemplate } from "../metrics";
import { authenticateAccessToken } from "../oauth/provider";
import { resolvePublisher, type Publisher } from "../publishing/publisher";
import { checkRateLimit, rateLimitHeaders, type RateLimitResult } from "../rate-limit";
import { getRateLimitStore } from "../rate-limit/store";
import { PEER_ADDRESS_HEADER, servedPeerAddress } from "../security/peer-address.js";
import { authenticateAmpCall } from "../subscriptions/access/amp-calls";
import { assertSafeInput } from "../validation";
import { corsHeaders, preflightResponse } from "./cors";
import { requestIdFrom } from "./edge.js";
import { allowHeader, methodNotAllowed, toErrorResponse } from "./errors";
import { memberTokenFromRequest } from "./member-session";
import { parseQueryString } from "./query-string";
import { rateLimitIdentity, type RouteRateLimit } from "./rate-limit-rules";
import { readBody, searchParamsToObject, type BodyType } from "./request-body";

/**
 * Whom a route serves, and so what its handler's context holds:
 * - "public": nobody in particular (health, the bench baseline): nothing;
 * - "publisher": a reader on the publisher's site, found by the request's host (the content API):
 *   `publisher`;
 * - "member" / "member?": the same, with the member signed in (X-QT-AUTH or the session cookie),
 *   required (401 without) or optional (null): `publisher`, `member`;
 * - "server": an account's server key in X-SUBAUTH: `account`;
 * - "serverOrClient": the server key when X-SUBAUTH is sent, otherwise the client key in `key`
 *   (catalogue listings that back ends and browsers both call by one path): `account`;
 * - "serverOrClient+optionalUser": the same, with the publisher-signed user JWT when one is sent
 *   (the web's paywall calls): `account`, `user`;
 * - "amp": AMP's paywall calls (spec §5 "X-SUBAUTH, query key, optional svc_jwt"): the server key
 *   in X-SUBAUTH (a `key` beside it must be the same account's), or the client key alone when the
 *   account allows direct AMP calls (server/subscriptions/access/amp-calls.ts): `account`, `user`;
 * - "client", "client+user", "client+optionalUser": an account's client key in `key`, and the
 *   publisher-signed user JWT (masthead_jwt, accesstype_jwt): `account`, `user`;
 * - "publisherJwt", "publisherJwt+user": the account in the path and a publisher-signed `jwt`:
 *   `account`, `user`;
 * - "admin": a dashboard session holding one of `roles` (OWNER passes): `admin`;
 * - "oauth": an OAuth access token (server/oauth/provider.ts) as `Authorization: Bearer` or the
 *   `access_token` query parameter (not both, RFC 6750 §2): `oauth` (the member, the client);
 * - "operator": the operator's METRICS_TOKEN as a bearer token (metrics); the route is not served
 *   (404) while METRICS_TOKEN is unset: nothing.
 */
export type AuthScheme =
  | "public"
  | "publisher"
  | "member"
  | "member?"
  | "server"
  | "serverOrClient"
  | "serverOrClient+optionalUser"
  | "amp"
  | "client"
  | "client+user"
  | "client+optionalUser"
  | "publisherJwt"
  | "publisherJwt+user"
  | "admin"
  | "oauth"
  | "operator";

/** Who an OAuth access token speaks for. */
export type OAuthBearer = Awaited<ReturnType<typeof authenticateAccessToken>>;

type SchemeContext = {
  public: object;
  publisher: { publisher: Publisher };
  member: { publisher: Publisher; member: AuthenticatedMember };
  "member?": { publisher: Publisher; member: AuthenticatedMember | null };
  server: { account: ApiAccount };
  serverOrClient: { account: ApiAccount };
  "serverOrClient+optionalUser": { account: ApiAccount; user: ApiUser | null };
  amp: { account: ApiAccount; user: ApiUser | null };
  client: { account: ApiAccount };
  "client+user": { account: ApiAccount; user: ApiUser };
  "client+optionalUser": { account: ApiAccount; user: ApiUser | null };
  publisherJwt: { account: ApiAccount; user: ApiUser | null };
  "publisherJwt+user": { account: ApiAccount; user: ApiUser };
  admin: { admin: StaffActor };
  oauth: { oauth: OAuthBearer };
  operator: object;
};

export type RouteOptions<A extends AuthScheme, Q extends z.ZodType, B extends z.ZodType, P extends z.ZodType> = {
  auth: A;
  /** With auth "admin": the roles that may call it (OWNER always may). */
  roles?: readonly AdminRole[];
  query?: Q;
  body?: B;
  params?: P;
  /** Content types accepted for the body: JSON (default), JSON sent as text/plain, form-urlencoded. */
  bodyTypes?: BodyType[];
  maxBodyBytes?: number;
  /** The handler reads the body itself (multipart uploads): no body parsing here. */
  rawBody?: boolean;
  /** One rule or several (each counted; the request is refused when any is over): see RouteRateLimit. */
  rateLimit?: RouteRateLimit | readonly RouteRateLimit[];
  /** Browser-facing: answer preflights and add CORS headers. */
  cors?: boolean;
  /** What the endpoint answers; "json" refuses an Accept that rules JSON out (406). */
  produces?: "json" | "any";
  /** One line for the API reference. */
  summary?: string;
};

export type HandlerContext<A extends AuthScheme, Q extends z.ZodType, B extends z.ZodType, P extends z.ZodType> = {
  req: Request;
  url: URL;
  /** The query, parsed once (parseQueryString; `url.searchParams` would parse it again). */
  search: URLSearchParams;
  requestId: string;
  ip: string;
  db: Db;
  query: z.output<Q>;
  body: z.output<B>;
  params: z.output<P>;
} & SchemeContext[A];

type NextContext = { params: Promise<RouteParams> };
export type RouteHandler = ((req: Request, ctx: NextContext) => Promise<Response>) & {
  meta: RouteOptions<AuthScheme, z.ZodType, z.ZodType, z.ZodType>;
};

export function apiRoute<
  A extends AuthScheme,
  Q extends z.ZodType = z.ZodType,
  B extends z.ZodType = z.ZodType,
  P extends z.ZodType = z.ZodType,
>(options: RouteOptions<A, Q, B, P>, handler: (ctx: HandlerContext<A, Q, B, P>) => Promise<Response>): RouteHandler {
  if (options.auth === "admin" && !options.roles?.length) throw new Error('apiRoute: auth "admin" needs roles');
  const route = async (req: Request, ctx: NextContext): Promise<Response> => {
    const started = performance.now();
    const { url, params } = await requestTarget(req, ctx);
    const response = await answer(req, url, params);
    recordRequest({
      method: req.method,
      route: routeTemplate(url.pathname, params),
      status: response.status,
      seconds: (performance.now() - started) / 1000,
    });
    return response;
  };
  const answer = async (req: Request, url: URL, rawParams: RouteParams | undefined): Promise<Response> => {
    const requestId = requestIdFrom(req.headers.get("x-request-id")) ?? randomUUID();
    const env = getEnv();
    const cors = options.cors ? corsHeaders(req.headers.get("origin"), env.CORS_ALLOWED_ORIGINS) : {};
    let extra: Record<string, string> = { ...cors };
    try {
      if ((options.produces ?? "json") === "json" && !acceptsJson(req.headers.get("accept"))) {
        throw new AppError("NOT_ACCEPTABLE", "This endpoint answers application/json; the Accept header rules it out.");
      }
      const ip = clientIp(req, env.TRUST_PROXY);
      const params = parseWith(options.params, rawParams, "params");
      const search = parseQueryString(url.search);
      const db = await getDb();
      // Read once, within its limit: a publisher-JWT route looks for its jwt in it (jwtFromBody).
      let bodyRead: Promise<unknown> | undefined;
      const readBodyOnce = options.rawBody
        ? null
        : () => (bodyRead ??= readBody(req, options.bodyTypes ?? ["json"], options.maxBodyBytes ?? env.MAX_BODY_BYTES));
      const who = await authenticate(db, options, req, search, params, readBodyOnce);

      if (options.rateLimit) {
        const result = await checkRules([options.rateLimit].flat(), {
          ip,
          accountId: who.account?.id ?? who.publisher?.accountId,
          reader: readerOf(who),
        });
        if (result) {
          extra = { ...extra, ...rateLimitHeaders(result.result, result.now) };
          if (!result.result.allowed) {
            throw new AppError("RATE_LIMITED", "Too many requests: slow down and try again later.");
          }
        }
      }

      const body = options.body && readBodyOnce ? parseWith(options.body, await readBodyOnce(), "body") : undefined;
      const query = parseWith(options.query, searchParamsToObject(search), "query");

      const response = await handler({
        req,
        url,
        search,
        requestId,
        ip,
        db,
        query,
        body,
        params,
        ...who,
      } as HandlerContext<A, Q, B, P>);
      if (req.method !== "GET" && req.method !== "HEAD") await ownWritesHeard(db);
      response.headers.set("X-Request-Id", requestId);
      for (const [name, value] of Object.entries(extra)) {
        // A handler may expose headers of its own (AMP's CORS): both lists are exposed.
        const own = name === "Access-Control-Expose-Headers" ? response.headers.get(name) : null;
        response.headers.set(name, own ? `${value}, ${own}` : value);
      }
      return response;
    } catch (error) {
      return toErrorResponse(error, requestId, extra);
    }
  };
  return Object.assign(route, { meta: options });
}

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
type Method = (typeof METHODS)[number];

/**
 * All exports of a route file: the given handlers, a JSON 405 with `Allow` for every other
 * method, and OPTIONS (a CORS preflight when any handler is browser-facing; otherwise the Allow list).
 */
export function routes(
  handlers: Partial<Record<Method, RouteHandler>>,
): Record<Method | "OPTIONS", (req: Request, ctx: NextContext) => Promise<Response>> {
  const allowed = METHODS.filter((m) => handlers[m]);
  const allow = allowHeader(allowed);
  const notAllowed = async () => methodNotAllowed(allowed, randomUUID());
  const browserFacing = allowed.some((m) => handlers[m]!.meta.cors);
  const result = {} as Record<Method | "OPTIONS", (req: Request, ctx: NextContext) => Promise<Response>>;
  for (const method of METHODS) result[method] = handlers[method] ?? notAllowed;
  result.OPTIONS = async (req) =>
    browserFacing
      ? preflightResponse(req, getEnv().CORS_ALLOWED_ORIGINS, allowed)
      : new Response(null, { status: 204, headers: { Allow: allow } });
  return result;
}

// ─── helpers ─────────────────────────────────────────────────────────────────────────────────

function acceptsJson(accept: string | null): boolean {
  if (!accept || !accept.trim()) return true;
  return accept.split(",").some((part) => {
    const [type = "", ...params] = part.trim().toLowerCase().split(";");
    const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    if (q && Number(q.slice(2)) === 0) return false;
    return ["*/*", "application/*", "application/json"].includes(type.trim()) || type.trim().endsWith("+json");
  });
}

type RouteParams = Record<string, string | string[] | undefined>;

/**
 * The request's URL (parsed once, for the handler and the metric: a Request's URL is always
 * absolute and valid) and its path's parameters, as Next.js's router hands them over.
 */
async function requestTarget(req: Request, ctx: NextContext): Promise<{ url: URL; params: RouteParams | undefined }> {
  return { url: new URL(req.url), params: await Promise.resolve(ctx?.params).catch(() => undefined) };
}

/**
 * The caller's IP, as rate limits count it:
 * - behind a proxy you run (TRUST_PROXY): the first X-Forwarded-For hop (else X-Real-IP);
 * - otherwise the socket's address, which scripts/serve.mjs puts in PEER_ADDRESS_HEADER over
 *   whatever a client sent;
 * - where serve.mjs is not in front (Vercel, a handler called directly) the header is never read:
 *   every caller is the one "untrusted" IP, rather than one a client could choose.
 */
function clientIp(req: Request, trustProxy: boolean): string {
  if (!trustProxy) {
    return servedPeerAddress(req.headers.get(PEER_ADDRESS_HEADER)) ?? "untrusted";
  }
  const forwarded = req.headers.get("x-forwarded-for")?.split(",")[0]?.trim();
  return forwarded || req.headers.get("x-real-ip")?.trim() || "unknown";
}

/** Everything a scheme may put in the context. */
type Who = {
  publisher?: Publisher;
  member?: AuthenticatedMember | null;
  account?: ApiAccount;
  user?: ApiUser | null;
  admin?: StaffActor;
  oauth?: OAuthBearer;
};

/** The signed-in reader of a request, as a rate-limit identity: the JWT's user or the member. */
function readerOf(who: Who): string | null {
  if (who.user) return `user:${who.user.id}`;
  if (who.member) return `member:${who.member.member.id}`;
  return null;
}

/**
 * Count the request on every rule that applies to it; the answer's headers come from the rule
 * that refused it (the one that frees up last), or else from the one closest to its limit.
 */
async function checkRules(
  rules: readonly RouteRateLimit[],
  request: { ip: string; accountId: number | undefined; reader: string | null },
): Promise<{ result: RateLimitResult; now: Date } | null> {
  const now = new Date();
  const store = await getRateLimitStore();
  let shown: RateLimitResult | null = null;
  for (const rule of rules) {
    const identity = rateLimitIdentity(rule.by, request);
    if (identity === null) continue;
    const result = await checkRateLimit(store, rule, identity, now);
    if (
      !shown ||
      (!result.allowed && (shown.allowed || result.resetAt > shown.resetAt)) ||
      (result.allowed && shown.allowed && result.remaining < shown.remaining)
    ) {
      shown = result;
    }
  }
  return shown ? { result: shown, now } : null;
}

/** Who the request is for and from, per the route's scheme (see AuthScheme). */
async function authenticate(
  db: Db,
  options: { auth: AuthScheme; roles?: readonly AdminRole[] },
  req: Request,
  search: URLSearchParams,
  params: unknown,
  readBodyOnce: (() => Promise<unknown>) | null,
): Promise<Who> {
  const scheme = options.auth;
  switch (scheme) {
    case "public":
      return {};
    case "publisher":
    case "member":
    case "member?": {
      const publisher = await resolvePublisher(db, { host: req.headers.get("host") });
      if (scheme === "publisher") return { publisher };
      const token = memberTokenFromRequest(req);
      if (!token && scheme === "member?") return { publisher, member: null };
      const member = await authenticateMember(db, { accountId: publisher.accountId, token, now: new Date() }).catch(
        (error: unknown) => {
          if (scheme === "member?") return null;
          throw error;
        },
      );
      return { publisher, member };
    }
    case "server":
      return { account: await authenticateServerKey(db, req.headers.get("x-subauth")) };
    case "serverOrClient":
      if (req.headers.has("x-subauth"))
        return { account: await authenticateServerKey(db, req.headers.get("x-subauth")) };
      return { account: (await authenticateClient(db, search, { user: "none" })).account };
    case "serverOrClient+optionalUser":
      // Asked on every page view (the paywall): the key may come from the process cache.
      if (req.headers.has("x-subauth")) {
        const account = await authenticateServerKey(db, req.headers.get("x-subauth"), new Date(), { cached: true });
        return { account, user: await optionalUserOf(db, account.id, search) };
      }
      return authenticateClient(db, search, { user: "optional", cached: true });
    case "amp":
      return authenticateAmpCall(db, {
        serverKey: req.headers.get("x-subauth"),
        query: search,
        userOf: (accountId) => optionalUserOf(db, accountId, search),
      });
    case "client":
      return { account: (await authenticateClient(db, search, { user: "none" })).account };
    case "client+user":
      return authenticateClient(db, search, { user: "required" });
    case "client+optionalUser":
      return authenticateClient(db, search, { user: "optional" });
    case "publisherJwt":
    case "publisherJwt+user": {
      const raw = (params as { account_id?: unknown } | undefined)?.account_id;
      const accountId = typeof raw === "string" || typeof raw === "number" ? String(raw) : "";
      const token = search.get("jwt") ?? (await jwtFromBody(req, readBodyOnce));
      return authenticatePublisherJwt(db, accountId, token, {
        user: scheme === "publisherJwt+user" ? "required" : "optional",
      });
    }
    case "oauth":
      return {
        oauth: await authenticateAccessToken(db, { token: bearerToken(req, search), now: new Date() }),
      };
    case "operator":
      requireOperatorToken(req.headers.get("authorization"), getEnv().METRICS_TOKEN);
      return {};
    case "admin": {
      // Loaded on use: next-auth needs the Next.js runtime, which tools that read route files
      // (npm run docs:api) lack.
      const { requireAdminActor } = await import("../auth/admin-actor");
      return { admin: await requireAdminActor(options.roles ?? []) };
    }
  }
}

/** The user JWT of the query (masthead_jwt, accesstype_jwt, svc_jwt) verified for the account, or null without one. */
async function optionalUserOf(db: Db, accountId: number, query: URLSearchParams): Promise<ApiUser | null> {
  const token = USER_JWT_PARAMS.map((name) => query.get(name)).find(Boolean);
  return token ? verifyPublisherJwt(db, accountId, token) : null;
}

/** "Bearer <METRICS_TOKEN>", compared in constant time; without a configured token the route does not exist. */
function requireOperatorToken(authorization: string | null, token: string | undefined): void {
  if (!token) throw new AppError("NOT_FOUND", "Not found.");
  const given = Buffer.from(/^Bearer (.+)$/i.exec(authorization ?? "")?.[1] ?? "");
  const expected = Buffer.from(token);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw new AppError("UNAUTHORIZED", "Send the operator's token: Authorization: Bearer <METRICS_TOKEN>.", {
      headers: { "WWW-Authenticate": 'Bearer realm="masthead-metrics"' },
    });
  }
}

/** An OAuth access token from `Authorization: Bearer` or `access_token` (RFC 6750 §2.1, §2.3), not both. */
function bearerToken(req: Request, search: URLSearchParams): string | null {
  const header = req.headers.get("authorization");
  const fromHeader = header ? (/^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i.exec(header)?.[1] ?? "") : null;
  const fromQuery = search.get("access_token");
  if (fromHeader !== null && fromQuery !== null) {
    throw new AppError("BAD_REQUEST", "Send the access token one way: the Authorization header or access_token.", {
      details: [{ field: "query.access_token", issue: "is also in the Authorization header" }],
    });
  }
  return fromHeader ?? fromQuery;
}

/** `jwt` in a JSON body as the route reads it: none in a raw body or malformed JSON; too large a body is 413 (415…). */
async function jwtFromBody(req: Request, readBodyOnce: (() => Promise<unknown>) | null): Promise<string | null> {
  if (!readBodyOnce || !req.body || !(req.headers.get("content-type") ?? "").includes("json")) return null;
  const data = await readBodyOnce().catch((error: unknown) => {
    if (error instanceof AppError && error.code === "BAD_REQUEST") return null;
    throw error;
  });
  return data && typeof data === "object" && "jwt" in data && typeof data.jwt === "string" ? data.jwt : null;
}

function parseWith<S extends z.ZodType | undefined>(schema: S, value: unknown, where: string): unknown {
  assertSafeInput(value, where);
  if (!schema) return value;
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const details: ErrorDetail[] = zodIssuesToDetails(result.error, where);
  throw new AppError(
    "BAD_REQUEST",
    `Invalid ${where === "body" ? "request body" : where === "query" ? "query parameters" : "path"}.`,
    { details },
  );
}
