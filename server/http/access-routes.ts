/**
 * The route handlers of the access decision (docs/subscriptions.md, "Access and metering"), made
 * once here for the route files under app/api/access/v1/stories/[storyId]/: the web check
 * (`access`), AMP's authorization (`amp-access`) and both pingbacks (`amp-pingback`, `pingback`).
 * Each answers the access grant object (pingbacks: `{}`), never cached by anyone (it is the
 * reader's), with AMP's CORS headers when AMP calls (./amp-cors.ts).
 */
import { getEnv } from "../../env.js";
import type { ApiAccount } from "../auth/api-auth";
import type { Db } from "../db/client";
import { AppError, isAppError } from "../errors";
import { authenticateMember } from "../members/sessions";
import { getPublisher } from "../publishing/publisher";
import { decideAccess, recordPingback, toAccessGrant } from "../subscriptions/access/access";
import { grantWords } from "../subscriptions/access/access-words";
import {
  PINGBACK_MAX_BODY_BYTES,
  ZAccessParams,
  ZAccessQuery,
  ZMeterObject,
  ZWebAccessQuery,
} from "../subscriptions/access/access.schema";
import { noteAccessCheck } from "../subscriptions/reports/conversion-record";
import { ampCorsHeaders } from "./amp-cors";
import { memberTokenFromRequest } from "./member-session";
import { json } from "./respond";
import { apiRoute } from "./route";

const NO_STORE = { "Cache-Control": "private, no-store" };

/** AMP's CORS headers for this account's publication (publisher settings come from the process cache). */
async function ampHeaders(db: Db, req: Request, account: ApiAccount, sourceOrigin: string | undefined) {
  if (sourceOrigin === undefined && req.headers.get("amp-same-origin") !== "true") return {};
  const publisher = await getPublisher(db, account.id, { appUrl: getEnv().APP_URL });
  return ampCorsHeaders(req, sourceOrigin, publisher);
}

/** Run `fn`, adding `headers` to its answer or to the error it throws (AMP must be able to read both). */
async function withHeaders(headers: Record<string, string>, fn: () => Promise<Response>): Promise<Response> {
  try {
    const response = await fn();
    for (const [name, value] of Object.entries({ ...NO_STORE, ...headers })) response.headers.set(name, value);
    return response;
  } catch (error) {
    if (!isAppError(error)) throw error;
    throw new AppError(error.code, error.message, {
      details: error.details,
      headers: { ...error.headers, ...NO_STORE, ...headers },
      cause: error,
    });
  }
}

/**
 * AMP's calls name the reader (`readerId`, AMP's READER_ID; spec: required): without it there is
 * nobody to meter, so the call is refused, 400, with AMP's CORS headers (AMP reads the error).
 * The web's calls may come before the SDK set its reader cookie: optional there.
 */
function assertReaderNamed(kind: "amp" | "web", readerId: string | null): void {
  if (kind === "amp" && !readerId) {
    throw new AppError("BAD_REQUEST", "readerId is required: AMP's READER_ID (readerId=READER_ID in the URL).", {
      details: [{ field: "readerId", issue: "required" }],
    });
  }
}

/**
 * The web's calls from a page of the publication may carry the reader's Masthead session (the
 * X-QT-AUTH header or the session cookie the member pages and the registration wall's sign-up
 * set): with no publisher JWT, its member is the logged-in reader. A session that is not live, or
 * another account's, is no reader (anonymous), never an error. AMP's calls know readers by JWT only.
 */
async function sessionMemberId(db: Db, req: Request, kind: "amp" | "web", accountId: number, hasJwt: boolean) {
  if (kind === "amp" || hasJwt) return null;
  const token = memberTokenFromRequest(req);
  if (!token) return null;
  const found = await authenticateMember(db, { accountId, token, now: new Date() }).catch(() => null);
  return found?.member.id ?? null;
}

const AMP_AUTH =
  "X-SUBAUTH (the server key, added by the publisher's first-party endpoint) is required: 401 without it or with a wrong key, unless the account allows direct AMP calls (Settings).";

const GRANT_SHAPE =
  "{granted, grantReason (FREE, LOGGED_IN, SUBSCRIBER, ASSET, METERING; null when denied), data: {numberRemaining, isLoggedIn, isLast, wall}} (wall: the wall a denied reader meets, registration (sign up or sign in: the registration wall, a login story) or paid; null when granted); with `locale` (the page's language tag, 400 when it is not one), data also has {locale, dir, messages: {notice, subscribe, signIn}}: the reader's words in the offered locale it names, else the account's default";

/** GET …/amp-access (AMP) and GET …/access (web; `count=true` counts a metered read at once). */
export function accessCheckRoute(kind: "amp" | "web") {
  return apiRoute(
    {
      auth: kind === "amp" ? "amp" : "serverOrClient+optionalUser",
      params: ZAccessParams,
      query: kind === "web" ? ZWebAccessQuery : ZAccessQuery,
      cors: true,
      summary:
        kind === "amp"
          ? `AMP's authorization (amp-access / amp-subscriptions): may the reader (readerId, required: 400 without it; optional JWT) read the story? → ${GRANT_SHAPE}. Never counts (AMP counts on pingback). disable-meter=true: only subscribers. AMP CORS (__amp_source_origin) for the publication's origins and AMP caches. ${AMP_AUTH} 404 for an unknown story.`
          : `The web's isAssetAccessible: ${GRANT_SHAPE}. count=true counts a METERING read on the reader's meter in the same call (otherwise send the pingback). 404 for an unknown story.`,
    },
    async ({ db, req, account, user, params, query }) => {
      const headers = await ampHeaders(db, req, account, query.__amp_source_origin);
      return withHeaders(headers, async () => {
        assertReaderNamed(kind, query.readerId);
        const count = "count" in query && query.count === true;
        const args = {
          accountId: account.id,
          storyId: params.storyId,
          disableMeter: query["disable-meter"],
          now: new Date(),
        };
        const memberId = await sessionMemberId(db, req, kind, account.id, Boolean(user));
        const decision = count
          ? await recordPingback(db, { ...args, user, sessionMemberId: memberId, readerId: query.readerId })
          : await decideAccess(db, {
              ...args,
              reader: {
                memberId,
                jwtUserId: user?.id ?? null,
                readerId: query.readerId,
                loggedIn: Boolean(user) || memberId !== null,
              },
              meter: "check",
            });
        const grant = toAccessGrant(decision);
        // A denied check is a wall hit; a reader id beside a JWT or a session names its member (conversions).
        const userId = user?.id ?? null;
        await noteAccessCheck(db, { ...args, readerId: query.readerId, userId, memberId, grant });
        // Asked with the page's language: the reader's words go with the grant (access-words.ts).
        if (query.locale === undefined) return json(grant);
        const words = await grantWords(db, account.id, query.locale || null, decision);
        return json({ ...grant, data: { ...grant.data, ...words } });
      });
    },
  );
}

/** POST …/amp-pingback (AMP) and POST …/pingback (web, sendBeacon): text/plain or JSON body → {}. */
export function pingbackRoute(kind: "amp" | "web") {
  return apiRoute(
    {
      auth: kind === "amp" ? "amp" : "serverOrClient+optionalUser",
      params: ZAccessParams,
      query: ZAccessQuery,
      body: ZMeterObject,
      bodyTypes: ["text-json", "json"],
      maxBodyBytes: PINGBACK_MAX_BODY_BYTES,
      cors: true,
      summary: `${kind === "amp" ? `AMP's pingback (readerId required: 400 without it; ${AMP_AUTH})` : "The web's pingback (navigator.sendBeacon)"}: the body is the meter object (text/plain or JSON; not JSON: 400). The read is decided again and counted on the reader's meter when it is METERING: once per story and period, repeated pingbacks change nothing. → {}. 404 for an unknown story.`,
    },
    async ({ db, req, account, user, params, query }) => {
      const headers = await ampHeaders(db, req, account, query.__amp_source_origin);
      return withHeaders(headers, async () => {
        assertReaderNamed(kind, query.readerId);
        const now = new Date();
        const memberId = await sessionMemberId(db, req, kind, account.id, Boolean(user));
        await recordPingback(db, {
          accountId: account.id,
          storyId: params.storyId,
          user,
          sessionMemberId: memberId,
          readerId: query.readerId,
          disableMeter: query["disable-meter"],
          now,
        });
        // The pingback may have made the JWT's member: link the reader id to it (conversions).
        const ids = { accountId: account.id, storyId: params.storyId, readerId: query.readerId };
        await noteAccessCheck(db, { ...ids, userId: user?.id ?? null, memberId, grant: null, now });
        return json({});
      });
    },
  );
}
