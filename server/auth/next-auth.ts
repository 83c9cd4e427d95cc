/**
 * Dashboard sessions with next-auth v4: the Credentials provider (e-mail and password), JWT
 * sessions in an HttpOnly cookie, and the helpers pages use to require a signed-in admin.
 *
 * 1. Secret      AUTH_SECRET (env.js; required in production, always passed by `npm start`).
 * 2. Sign-in     server/auth/credentials.ts does the work (throttle, scrypt, audit entry); each
 *                sign-in gets a server-side session row (admin-sessions.ts) that the JWT names (`sid`).
 * 3. Each request  the `jwt` callback re-reads the user and their session (one indexed query), so
 *                signing out, disabling or deleting a user, changing their password or roles
 *                (server/auth/staff.ts) takes effect on the next request of every copy of the
 *                cookie, not only in the browser that signed out.
 * 4. Pages       getAdminSession() (cached per request) and requireAdmin({ roles, from }).
 *
 * The route app/api/auth/[...nextauth] serves next-auth's endpoints (csrf, callback/credentials,
 * session, signout). Static routes under /api/auth/v1/* win over that catch-all.
 */
import { randomBytes } from "node:crypto";

import type { AuthOptions } from "next-auth";
import { getServerSession } from "next-auth/next";
import CredentialsProvider from "next-auth/providers/credentials";
import { headers } from "next/headers";
import { forbidden, redirect } from "next/navigation";
import { cache } from "react";

import { ownValue } from "@/server/own-keys";

import { getEnv } from "../../env.js";
import { recordAudit } from "../audit/audit-log";
import { getDb } from "../db";
import { isAppError } from "../errors";
import { log } from "../log";
import { staffActor } from "./actor";
import type { AdminSession, AdminSessionUser } from "./admin-session";
import {
  ADMIN_SESSION_MAX_AGE_SECONDS,
  createAdminSession,
  findActiveAdminSession,
  revokeAdminSession,
} from "./admin-sessions";
import { authorizeAdminCredentials, clientIpFromHeaders } from "./credentials";
import { hasAnyRole, type AdminRole } from "./roles";
import type { SignInErrorCode } from "./sign-in.schema";

declare module "next-auth" {
  interface User {
    accountId: number;
    accountName: string;
    roles: AdminRole[];
    /** The server-side session this sign-in opened (AdminSession.id). */
    sessionId: string;
  }
  interface Session {
    /** Absent when the cookie's session was signed out, revoked or expired, or its user no longer exists or was disabled. */
    user?: AdminSessionUser;
  }
}

declare module "next-auth/jwt" {
  interface JWT {
    accountId?: number;
    accountName?: string;
    roles?: AdminRole[];
    /** The server-side session (AdminSession.id): the cookie is honoured only while it is live. */
    sid?: string;
    /** Set once the user or the session was found gone, disabled, revoked or expired: the cookie is dead from then on. */
    revoked?: boolean;
  }
}

const SIGN_IN_PATH = "/admin/sign-in";

/** Admin sessions last 12 hours from sign-in (the session row's expiry enforces it; see admin-sessions.ts). */
const SESSION_MAX_AGE_SECONDS = ADMIN_SESSION_MAX_AGE_SECONDS;

// ─── 1. Secret ───────────────────────────────────────────────────────────────────────────────
const globalForAuth = globalThis as unknown as { mastheadEphemeralAuthSecret?: string };

/**
 * AUTH_SECRET, or, outside production when it is unset (`next dev` run by hand rather than through
 * `npm run dev`), a random secret for this process: sessions then end when the process does.
 * Nothing is derived from predictable values. Kept on globalThis because Next.js loads this
 * module once per bundle (route handlers and pages), and they must agree.
 */
function getAuthSecret(): string {
  const configured = getEnv().AUTH_SECRET;
  if (configured) return configured;
  if (!globalForAuth.mastheadEphemeralAuthSecret) {
    globalForAuth.mastheadEphemeralAuthSecret = randomBytes(32).toString("base64url");
    log.warn(
      "[masthead] AUTH_SECRET is not set: admin sessions use a random secret and end when this process stops (npm run dev keeps one in DATA_DIR).",
    );
  }
  return globalForAuth.mastheadEphemeralAuthSecret;
}

// ─── 2-3. next-auth ──────────────────────────────────────────────────────────────────────────
const signInError = (code: SignInErrorCode) => new Error(code);

export const authOptions: AuthOptions = {
  secret: getAuthSecret(),
  session: { strategy: "jwt", maxAge: SESSION_MAX_AGE_SECONDS },
  pages: { signIn: SIGN_IN_PATH, error: SIGN_IN_PATH },
  // next-auth's own messages go through the logger, one line each. A cookie that does not decrypt
  // (forged, or from another secret) is the client's doing, not a server error with a stack trace.
  logger: {
    error(code, metadata) {
      const message = metadata instanceof Error ? metadata.message : (metadata as { message?: string })?.message;
      if (code === "JWT_SESSION_ERROR") log.warn("dashboard session cookie rejected", { code, message });
      // A callbackUrl that is neither a path nor a URL: the client's mistake (next-auth answers the error page).
      else if (code === "INVALID_CALLBACK_URL_ERROR") log.warn("next-auth refused a callback URL", { code, message });
      else log.error("next-auth error", { code, message });
    },
    warn(code) {
      log.warn("next-auth warning", { code });
    },
    debug() {},
  },
  providers: [
    CredentialsProvider({
      id: "credentials",
      name: "E-mail and password",
      credentials: {
        email: { label: "E-mail", type: "email" },
        password: { label: "Password", type: "password" },
      },
      async authorize(credentials, req) {
        try {
          const ip = clientIpFromHeaders(req.headers, getEnv().TRUST_PROXY);
          const db = await getDb();
          const user = await authorizeAdminCredentials(db, credentials, { ip });
          if (!user) return null;
          const session = await createAdminSession(db, {
            userId: user.id,
            ip,
            userAgent: headerValue(req.headers, "user-agent"),
            now: new Date(),
            maxAgeSeconds: SESSION_MAX_AGE_SECONDS,
          });
          return { ...user, sessionId: session.id };
        } catch (error) {
          // next-auth puts a thrown error's message in the redirect URL: only our codes go there.
          if (isAppError(error) && error.code === "RATE_LIMITED") throw signInError("RateLimited");
          log.error("admin sign-in failed unexpectedly", { error });
          throw signInError("SignInUnavailable");
        }
      },
    }),
  ],
  callbacks: {
    // Where signing in or out returns: a path of this site or a URL on its origin; anything else
    // (another origin, or text that is no URL, which next-auth's own callback throws on) the site's root.
    redirect({ url, baseUrl }) {
      if (url.startsWith("/")) return `${baseUrl}${url}`;
      return URL.canParse(url) && new URL(url).origin === new URL(baseUrl).origin ? url : baseUrl;
    },
    async jwt({ token, user }) {
      if (user) {
        // Sign-in: the token names the user and the session; the rest is refreshed from the database below on later requests.
        return {
          sub: user.id,
          sid: user.sessionId,
          name: user.name,
          email: user.email,
          accountId: user.accountId,
          accountName: user.accountName,
          roles: user.roles,
        };
      }
      // A cookie without a session id predates server-side sessions: it cannot be revoked, so it is not honoured.
      if (token.revoked || !token.sub || !token.sid) return { revoked: true };
      const current = await findActiveAdminSession(await getDb(), {
        sessionId: token.sid,
        userId: token.sub,
        now: new Date(),
      });
      if (!current) return { revoked: true };
      return {
        ...token,
        name: current.name,
        email: current.email,
        accountId: current.accountId,
        accountName: current.accountName,
        roles: current.roles,
      };
    },
    async session({ session, token }) {
      if (token.revoked || !token.sub || token.accountId === undefined || !token.roles)
        return { expires: session.expires };
      return {
        expires: session.expires,
        user: {
          id: token.sub,
          name: token.name ?? "",
          email: token.email ?? "",
          accountId: token.accountId,
          accountName: token.accountName ?? "",
          roles: token.roles,
          ...(token.sid ? { sessionId: token.sid } : {}),
        },
      };
    },
  },
  events: {
    async signOut({ token }) {
      if (token.revoked || !token.sub || !token.sid) return;
      try {
        const db = await getDb();
        const now = new Date();
        // Ends the session on the server: every copy of this cookie is signed out, not only this browser's.
        const ended = await revokeAdminSession(db, { sessionId: token.sid, userId: token.sub, now });
        if (ended && token.accountId !== undefined) {
          await recordAudit(db, {
            actor: staffActor({ id: token.sub, accountId: token.accountId, roles: token.roles ?? [] }),
            action: "admin.sign_out",
            targetType: "admin_user",
            targetId: token.sub,
            now,
          });
        }
      } catch (error) {
        // The cookie is cleared regardless; the session row then lives on until it expires.
        log.error("could not end a dashboard session on sign-out", { error });
      }
    },
  },
};

// ─── 4. Pages ────────────────────────────────────────────────────────────────────────────────

/** The signed-in admin of this request, or null. Cached per request (layout and page share it). */
export const getAdminSession = cache(async (): Promise<AdminSession | null> => {
  const session = await getServerSession(authOptions);
  return session?.user ? { user: session.user } : null;
});

/**
 * Where signing in comes back to: `from` (the page's path) with the query the page was opened
 * with, which the server in front of Next.js passes for dashboard paths (server/http/edge.js
 * `pageAddress`: scripts/serve.mjs, or the proxy a Vercel build installs). The header counts only
 * when it names `from` itself; the sign-in page checks the result again.
 */
async function returnPath(from: string): Promise<string> {
  const opened = (await headers()).get("x-masthead-page"); // edge.js PAGE_ADDRESS_HEADER
  if (!opened) return from;
  const query = opened.indexOf("?");
  return query >= 0 && opened.slice(0, query) === from ? opened : from;
}

/**
 * For dashboard pages: the session, or a redirect to the sign-in page (which comes back to
 * `from` and the query it was opened with) when signed out, or the 403 page (inside the
 * dashboard's frame: app/(admin)/admin/forbidden.tsx) when the user holds none of `roles`. OWNER
 * passes every check; no `roles` means any admin user.
 */
export async function requireAdmin(options: { from: string; roles?: readonly AdminRole[] }): Promise<AdminSession> {
  const session = await getAdminSession();
  if (!session)
    redirect(`${SIGN_IN_PATH}?${new URLSearchParams({ callbackUrl: await returnPath(options.from) }).toString()}`);
  if (!hasAnyRole(session.user.roles, options.roles)) forbidden();
  return session;
}

function headerValue(
  headers: Record<string, string | string[] | undefined> | Headers | undefined,
  name: string,
): string | null {
  if (!headers) return null;
  if (headers instanceof Headers) return headers.get(name);
  const value = ownValue(headers, name);
  return (Array.isArray(value) ? value.join(", ") : value) ?? null;
}
