/**
 * Members over HTTP: sign-up, login (and its limits), sessions by header and cookie, logout,
 * forgot/reset password through the outbox, metadata, the member-signup webhook event, and the
 * bridgekeeper-compatible aliases. Route handlers are called directly.
 */
import { beforeEach, describe, expect, it } from "vitest";

import { POST as bkLogin } from "@/app/api/auth/v1/login/route";
import { GET as bkLogout } from "@/app/api/auth/v1/logout/route";
import { POST as bkSignup } from "@/app/api/auth/v1/signup/route";
import { POST as bkForgot } from "@/app/api/auth/v1/users/forgot-password/route";
import { GET as bkMe } from "@/app/api/auth/v1/users/me/route";
import { POST as bkReset } from "@/app/api/auth/v1/users/reset-password-with-token/route";
import { GET as logoutGet } from "@/app/api/logout/route";
import { POST as forgotPassword } from "@/app/api/member/forgot-password/route";
import { POST as login } from "@/app/api/member/login/route";
import { GET as metadataGet, POST as metadataPost } from "@/app/api/member/metadata/route";
import { POST as passwordReset } from "@/app/api/member/password/reset/route";
import { POST as passwordAlias } from "@/app/api/member/password/route";
import { POST as signup, OPTIONS as signupOptions } from "@/app/api/member/route";
import { GET as me } from "@/app/api/v1/members/me/route";
import { verifyPassword } from "@/server/auth/password";
import { getDb } from "@/server/db";
import {
  BAD_CREDENTIALS_MESSAGE,
  FORGOT_PASSWORD_MESSAGE,
  memberToWire,
  PASSWORD_RESET_KIND,
  signUpMember,
} from "@/server/members/members";
import { createMemberSession, hashToken } from "@/server/members/sessions";
import { forgetPublisherCache, resolvePublisher } from "@/server/publishing/publisher";
import { runJobsNow } from "@/server/testing/jobs";
import { createTestPublisher } from "@/server/testing/publishing-factories";

const NO_PARAMS = { params: Promise.resolve({}) };
type Handler = (req: Request, ctx: typeof NO_PARAMS) => Promise<Response>;

let seq = 0;
const uniqueEmail = (prefix = "reader") => `${prefix}.${Date.now().toString(36)}.${seq++}@example.com`;

function post(handler: Handler, path: string, body: unknown, headers: Record<string, string> = {}) {
  return postRaw(handler, path, JSON.stringify(body), headers);
}
/** POST a body exactly as given (JSON text that JSON.stringify would not write). */
function postRaw(handler: Handler, path: string, body: string, headers: Record<string, string> = {}) {
  return handler(
    new Request(`http://localhost${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body,
    }),
    NO_PARAMS,
  );
}
function get(handler: Handler, path: string, headers: Record<string, string> = {}) {
  return handler(new Request(`http://localhost${path}`, { headers }), NO_PARAMS);
}
async function json(res: Response) {
  return (await res.json()) as Record<string, unknown> & {
    error: { code: string; message: string; details?: { field: string; issue: string }[] };
  };
}
const setCookies = (res: Response) => res.headers.getSetCookie();

/** Sign up through the route (counts against the route's per-IP limit: use for route behaviour). */
async function signupViaRoute(overrides: Record<string, unknown> = {}) {
  const email = uniqueEmail();
  const body = { name: "Ada Reader", username: `ada${seq++}`, email, password: "correct horse battery", ...overrides };
  const res = await post(signup, "/api/member", body);
  expect(res.status).toBe(201);
  const data = await json(res);
  return {
    res,
    email: body.email,
    username: body.username,
    password: body.password,
    member: data.member as Record<string, unknown>,
    token: res.headers.get("X-QT-AUTH"),
  };
}

/** A member with a session, made by the domain functions the route uses. */
async function signupMember() {
  const db = await getDb();
  const publisher = await resolvePublisher(db, { host: "localhost" });
  const email = uniqueEmail();
  const username = `ada${seq++}`;
  const password = "correct horse battery";
  const { member } = await signUpMember(db, {
    publisher,
    input: { name: "Ada Reader", username, email, password, "dont-login": true },
    now: new Date(),
  });
  const { token } = await createMemberSession(db, { memberId: member.id, now: new Date(), days: 30 });
  return {
    email,
    username,
    password,
    member: memberToWire(member) as Record<string, unknown>,
    token: token as string | null,
  };
}

beforeEach(() => forgetPublisherCache());

describe("POST /api/member (sign-up)", () => {
  it("creates the member, answers the wire object without secrets, and logs them in with header and cookies", async () => {
    const publisher = await createTestPublisher(await getDb());
    const { res, member, token, email } = await signupViaRoute({ "first-name": "Ada", "last-name": "Lovelace" });
    expect(Object.keys(member).sort()).toEqual(
      [
        "id",
        "name",
        "username",
        "first-name",
        "last-name",
        "email",
        "email-verified",
        "phone-number",
        "communication-email",
        "bio",
        "avatar-url",
        "avatar-s3-key",
        "twitter-handle",
        "source",
        "publisher-id",
        "metadata",
        "created-at",
        "updated-at",
      ].sort(),
    );
    expect(member).toMatchObject({
      name: "Ada Reader",
      email,
      "first-name": "Ada",
      "last-name": "Lovelace",
      source: "email",
      "publisher-id": publisher.id,
      metadata: {},
    });
    expect(typeof member["created-at"]).toBe("number");
    expect(JSON.stringify(member)).not.toMatch(/scrypt|password/i);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const cookies = setCookies(res);
    expect(cookies).toHaveLength(2);
    for (const name of ["qt-auth", "session-cookie"]) {
      const cookie = cookies.find((c) => c.startsWith(`${name}=`))!;
      expect(cookie).toContain(`${name}=${token}`);
      expect(cookie).toMatch(/HttpOnly/);
      expect(cookie).toMatch(/SameSite=Lax/);
      expect(cookie).toMatch(/Path=\//);
      expect(cookie).not.toMatch(/Secure/); // plain http
    }
    // Stored: scrypt hash, session digest only.
    const db = await getDb();
    const row = await db.member.findFirstOrThrow({ where: { email }, omit: { passwordHash: false } });
    expect(row.passwordHash).toMatch(/^scrypt\$/);
    expect(await verifyPassword("correct horse battery", row.passwordHash)).toBe(true);
    const session = await db.memberSession.findFirstOrThrow({ where: { memberId: row.id } });
    expect(session.tokenHash).toBe(hashToken(token!));
    expect(session.tokenHash).not.toContain(token!);
    // 30 days by default (MEMBER_SESSION_DAYS).
    expect(Math.round((session.expiresAt.getTime() - session.createdAt.getTime()) / 86_400_000)).toBe(30);
  });

  it("does not log in with dont-login, and marks cookies Secure over https", async () => {
    await createTestPublisher(await getDb());
    const quiet = await post(signup, "/api/member", {
      name: "Q",
      email: uniqueEmail(),
      password: "long enough pw",
      "dont-login": true,
    });
    expect(quiet.status).toBe(201);
    expect(quiet.headers.get("X-QT-AUTH")).toBeNull();
    expect(setCookies(quiet)).toEqual([]);
    expect(await (await getDb()).memberSession.count()).toBe(0);

    const secure = await signup(
      new Request("https://localhost/api/member", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ name: "S", email: uniqueEmail(), password: "long enough pw" }),
      }),
      NO_PARAMS,
    );
    expect(secure.status).toBe(201);
    expect(setCookies(secure).every((c) => /; Secure/.test(c))).toBe(true);
  });

  it("answers 409 for a taken e-mail (any case) or username, and 400 for bad input", async () => {
    await createTestPublisher(await getDb());
    const first = await signupMember();
    const sameEmail = await post(signup, "/api/member", {
      name: "X",
      username: "someone-else",
      email: first.email.toUpperCase(),
      password: "long enough pw",
    });
    expect(sameEmail.status).toBe(409);
    expect((await json(sameEmail)).error).toMatchObject({ code: "CONFLICT", details: [{ field: "body.email" }] });
    const sameUsername = await post(signup, "/api/member", {
      name: "X",
      username: first.username,
      email: uniqueEmail(),
      password: "long enough pw",
    });
    expect(sameUsername.status).toBe(409);
    expect((await json(sameUsername)).error.details?.[0]?.field).toBe("body.username");

    const bad = [
      { name: "X", email: "not-an-email", password: "long enough pw" },
      { name: "X", email: uniqueEmail(), password: "short" },
      { name: "X", email: uniqueEmail(), password: "x".repeat(201) },
      { name: "X", email: uniqueEmail() },
      { name: "X", email: uniqueEmail(), password: 12345678 },
      { name: "X", username: "has space", email: uniqueEmail(), password: "long enough pw" },
    ];
    for (const body of bad) {
      const res = await post(signup, "/api/member", body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect((await json(res)).error.code).toBe("BAD_REQUEST");
    }
    expect(await (await getDb()).member.count()).toBe(1);
  });

  it("gives one 201 and one 409 when the same e-mail signs up twice at once", async () => {
    await createTestPublisher(await getDb());
    const email = uniqueEmail();
    const results = await Promise.all(
      [0, 1].map(() =>
        post(signup, "/api/member", { name: "Twin", email, password: "long enough pw", "dont-login": true }),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, 409]);
    expect(await (await getDb()).member.count({ where: { email } })).toBe(1);
  });

  it("emits member-signup to subscribed content webhooks, with the member and no secret", async () => {
    const db = await getDb();
    const publisher = await createTestPublisher(db);
    const subscribed = await db.webhookEndpoint.create({
      data: { accountId: publisher.id, kind: "CONTENT", url: "https://hooks.example.com/a", events: ["member-signup"] },
    });
    await db.webhookEndpoint.create({
      data: { accountId: publisher.id, kind: "CONTENT", url: "https://hooks.example.com/b", events: ["story-publish"] },
    });
    const { member } = await signupViaRoute();

    const events = await db.webhookEvent.findMany({ where: { name: "member-signup" }, include: { deliveries: true } });
    expect(events).toHaveLength(1);
    const event = events[0]!;
    expect(event).toMatchObject({ accountId: publisher.id, kind: "CONTENT" });
    expect(event.payload).toEqual({ member });
    expect(JSON.stringify(event.payload)).not.toMatch(/scrypt|passwordHash|password-hash/);
    expect(event.deliveries.map((d) => d.endpointId)).toEqual([subscribed.id]);
    expect(event.deliveries[0]!.status).toBe("PENDING");
  });
});

describe("POST /api/member/login", () => {
  it("logs in by e-mail (any case) or username, with the token in X-QT-AUTH and both cookies", async () => {
    await createTestPublisher(await getDb());
    const { email, username, password, member } = await signupMember();
    for (const body of [
      { email: email.toUpperCase(), password },
      { username, password },
      { username: email, password },
    ]) {
      const res = await post(login, "/api/member/login", body);
      expect(res.status, JSON.stringify(body)).toBe(200);
      const data = await json(res);
      expect(data.member).toMatchObject({ id: member.id, email });
      const token = res.headers.get("X-QT-AUTH")!;
      expect(token).toBeTruthy();
      expect(setCookies(res).map((c) => c.split(";")[0])).toEqual([`qt-auth=${token}`, `session-cookie=${token}`]);
      expect((await get(me, "/api/v1/members/me", { "X-QT-AUTH": token })).status).toBe(200);
    }
  });

  it("answers one 401 for an unknown e-mail and a wrong password, after comparable work", async () => {
    await createTestPublisher(await getDb());
    const { email } = await signupMember();
    const wrong: number[] = [];
    const unknown: number[] = [];
    let wrongBody: unknown;
    let unknownBody: unknown;
    for (let i = 0; i < 3; i++) {
      let t = performance.now();
      const a = await post(login, "/api/member/login", { email, password: `wrong password ${i}` });
      wrong.push(performance.now() - t);
      t = performance.now();
      const b = await post(login, "/api/member/login", { email: uniqueEmail("nobody"), password: "whatever it is" });
      unknown.push(performance.now() - t);
      expect(a.status).toBe(401);
      expect(b.status).toBe(401);
      wrongBody = (await json(a)).error;
      unknownBody = (await json(b)).error;
    }
    expect(wrongBody).toEqual({ code: "UNAUTHORIZED", message: BAD_CREDENTIALS_MESSAGE });
    expect(unknownBody).toEqual(wrongBody);
    // An unknown e-mail still pays for a scrypt verification: without it, it would be ~100x faster.
    expect(Math.min(...unknown)).toBeGreaterThan(0.3 * Math.min(...wrong));
  });

  it("answers 400 without credentials", async () => {
    await createTestPublisher(await getDb());
    expect((await post(login, "/api/member/login", { password: "x" })).status).toBe(400);
    expect((await post(login, "/api/member/login", { email: "a@example.com" })).status).toBe(400);
  });

  it("refuses the 11th attempt on one e-mail within 15 minutes with 429 and Retry-After, even with the right password", async () => {
    await createTestPublisher(await getDb());
    const { email, password } = await signupMember();
    for (let i = 0; i < 10; i++)
      expect((await post(login, "/api/member/login", { email, password: "not the password" })).status).toBe(401);
    const limited = await post(login, "/api/member/login", { email, password });
    expect(limited.status).toBe(429);
    expect((await json(limited)).error.code).toBe("RATE_LIMITED");
    const retryAfter = Number(limited.headers.get("Retry-After"));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
    // Another e-mail is not affected.
    const other = await signupMember();
    expect((await post(login, "/api/member/login", { email: other.email, password: other.password })).status).toBe(200);
  });
});

describe("sessions: GET /api/v1/members/me, logout", () => {
  it("authenticates by X-QT-AUTH, qt-auth or session-cookie, and refuses a missing or bogus token with 401", async () => {
    await createTestPublisher(await getDb());
    const { token, member } = await signupMember();
    const ways: Record<string, string>[] = [
      { "X-QT-AUTH": token! },
      { cookie: `qt-auth=${token}` },
      { cookie: `other=1; session-cookie=${token}` },
    ];
    for (const headers of ways) {
      const res = await get(me, "/api/v1/members/me", headers);
      expect(res.status, JSON.stringify(headers)).toBe(200);
      expect((await json(res)).member).toEqual(expect.objectContaining({ id: member.id }));
      expect(res.headers.get("Cache-Control")).toMatch(/no-store/);
    }
    const bad: Record<string, string>[] = [
      {},
      { "X-QT-AUTH": "bogus" },
      { "X-QT-AUTH": "x".repeat(5000) },
      { cookie: "qt-auth=bogus" },
    ];
    for (const headers of bad) {
      const res = await get(me, "/api/v1/members/me", headers);
      expect(res.status).toBe(401);
      const { error } = await json(res);
      expect(error.code).toBe("UNAUTHORIZED");
      expect(error.message).toContain("X-QT-AUTH");
    }
  });

  it("refuses an expired session, and a session of another publisher's member", async () => {
    const db = await getDb();
    const home = await createTestPublisher(db, { domain: "home.example.com" });
    const other = await createTestPublisher(db, { domain: "other.example.com" });
    const stranger = await db.member.create({
      data: { accountId: other.id, name: "S", email: uniqueEmail(), passwordHash: "x" },
    });
    const strangerSession = await createMemberSession(db, { memberId: stranger.id, now: new Date(), days: 30 });
    expect(
      (await get(me, "/api/v1/members/me", { host: "other.example.com", "X-QT-AUTH": strangerSession.token })).status,
    ).toBe(200);
    expect(
      (await get(me, "/api/v1/members/me", { host: "home.example.com", "X-QT-AUTH": strangerSession.token })).status,
    ).toBe(401);

    const local = await db.member.create({
      data: { accountId: home.id, name: "L", email: uniqueEmail(), passwordHash: "x" },
    });
    const expired = await createMemberSession(db, {
      memberId: local.id,
      now: new Date(Date.now() - 31 * 86_400_000),
      days: 30,
    });
    expect((await get(me, "/api/v1/members/me", { host: "home.example.com", "X-QT-AUTH": expired.token })).status).toBe(
      401,
    );
  });

  it("GET /api/logout revokes the session and clears the cookies; so does the bridgekeeper path", async () => {
    await createTestPublisher(await getDb());
    for (const handler of [logoutGet, bkLogout]) {
      const { token } = await signupMember();
      const res = await get(handler, "/api/logout", { cookie: `qt-auth=${token}` });
      expect(res.status).toBe(204);
      const cleared = setCookies(res);
      expect(cleared.map((c) => c.split(";")[0])).toEqual(["qt-auth=", "session-cookie="]);
      expect(cleared.every((c) => /Max-Age=0/.test(c))).toBe(true);
      expect((await get(me, "/api/v1/members/me", { "X-QT-AUTH": token! })).status).toBe(401);
      const session = await (
        await getDb()
      ).memberSession.findUniqueOrThrow({ where: { tokenHash: hashToken(token!) } });
      expect(session.revokedAt).toBeInstanceOf(Date);
    }
    // Without a session it is still a 204.
    expect((await get(logoutGet, "/api/logout")).status).toBe(204);
  });

  it("answers CORS preflights allowing X-QT-AUTH", async () => {
    const res = await signupOptions(
      new Request("http://localhost/api/member", {
        method: "OPTIONS",
        headers: { origin: "https://news.example.com", "access-control-request-method": "POST" },
      }),
      NO_PARAMS,
    );
    expect(res.status).toBe(204);
    expect(res.headers.get("Access-Control-Allow-Headers")).toContain("X-QT-AUTH");
  });
});

describe("forgot and reset password", () => {
  async function latestResetMail(to: string) {
    const mail = await (
      await getDb()
    ).outgoingEmail.findFirstOrThrow({ where: { to }, orderBy: { createdAt: "desc" } });
    const token = /reset-password\?token=([A-Za-z0-9_-]+)/.exec(mail.text)?.[1];
    return { mail, token: token! };
  }

  it("answers the same whether or not the e-mail exists, and mails a single-use link only to a member", async () => {
    const db = await getDb();
    await createTestPublisher(db, { siteUrl: "https://news.example.com/" });
    const { email, token: oldSession, password: oldPassword } = await signupMember();

    const known = await post(forgotPassword, "/api/member/forgot-password", { email: email.toUpperCase() });
    const unknown = await post(forgotPassword, "/api/member/forgot-password", { email: uniqueEmail("nobody") });
    expect(known.status).toBe(200);
    expect(unknown.status).toBe(200);
    const knownBody: unknown = await known.json();
    expect(knownBody).toEqual({ message: FORGOT_PASSWORD_MESSAGE });
    expect(await unknown.json()).toEqual(knownBody);
    expect(await db.outgoingEmail.count()).toBe(1);
    expect(await db.passwordResetToken.count()).toBe(1);

    // Sent by the job engine once the request's transaction committed.
    await runJobsNow(db);
    const { mail, token } = await latestResetMail(email);
    expect(mail).toMatchObject({ kind: PASSWORD_RESET_KIND, status: "SENT", to: email });
    expect(mail.sentAt).toBeInstanceOf(Date);
    expect(mail.text).toContain(`https://news.example.com/reset-password?token=${token}`);
    const stored = await db.passwordResetToken.findFirstOrThrow();
    expect(stored.tokenHash).toBe(hashToken(token));
    expect(stored.expiresAt.getTime() - stored.createdAt.getTime()).toBe(3600_000);

    const reset = await post(passwordReset, "/api/member/password/reset", { token, password: "brand new password" });
    expect(reset.status).toBe(200);
    expect(typeof (await json(reset)).message).toBe("string");
    // The old session is over, the old password too; the new one works.
    expect((await get(me, "/api/v1/members/me", { "X-QT-AUTH": oldSession! })).status).toBe(401);
    expect((await post(login, "/api/member/login", { email, password: oldPassword })).status).toBe(401);
    expect((await post(login, "/api/member/login", { email, password: "brand new password" })).status).toBe(200);

    // Single use.
    const again = await post(passwordReset, "/api/member/password/reset", { token, password: "another new password" });
    expect(again.status).toBe(422);
    expect((await json(again)).error.message).toMatch(/invalid, expired or already used/);
  });

  it("refuses an expired or unknown token with 422, and a weak new password with 400", async () => {
    const db = await getDb();
    await createTestPublisher(db);
    const { email } = await signupMember();
    await post(forgotPassword, "/api/member/forgot-password", { email });
    const { token } = await latestResetMail(email);
    expect((await post(passwordReset, "/api/member/password/reset", { token, password: "short" })).status).toBe(400);
    await db.passwordResetToken.updateMany({ data: { expiresAt: new Date(Date.now() - 1000) } });
    expect(
      (await post(passwordReset, "/api/member/password/reset", { token, password: "long enough pw" })).status,
    ).toBe(422);
    expect(
      (await post(passwordAlias, "/api/member/password", { token: "no-such-token", password: "long enough pw" }))
        .status,
    ).toBe(422);
    expect((await post(passwordReset, "/api/member/password/reset", { password: "long enough pw" })).status).toBe(400);
  });

  it("lets one of two parallel resets with the same token through", async () => {
    const db = await getDb();
    await createTestPublisher(db);
    const { email } = await signupMember();
    await post(forgotPassword, "/api/member/forgot-password", { email });
    const { token } = await latestResetMail(email);
    const results = await Promise.all(
      ["first new password", "second new password"].map((password) =>
        post(passwordReset, "/api/member/password/reset", { token, password }),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 422]);
  });

  it("limits reset mails per e-mail (5 an hour) with the same 429 for members and strangers", async () => {
    await createTestPublisher(await getDb());
    const { email } = await signupMember();
    for (const address of [email, uniqueEmail("nobody")]) {
      for (let i = 0; i < 5; i++)
        expect((await post(forgotPassword, "/api/member/forgot-password", { email: address })).status).toBe(200);
      const limited = await post(forgotPassword, "/api/member/forgot-password", { email: address });
      expect(limited.status).toBe(429);
      expect(limited.headers.get("Retry-After")).toBeTruthy();
    }
    expect(await (await getDb()).outgoingEmail.count()).toBe(5);
  });

  it("bridgekeeper: forgot-password, and reset-password-with-token checking confirm-password", async () => {
    await createTestPublisher(await getDb());
    const { email } = await signupMember();
    const forgot = await post(bkForgot, "/api/auth/v1/users/forgot-password", { email });
    expect(forgot.status).toBe(200);
    expect(await forgot.json()).toEqual({ message: FORGOT_PASSWORD_MESSAGE });
    const { token } = await latestResetMail(email);
    const mismatch = await post(bkReset, "/api/auth/v1/users/reset-password-with-token", {
      token,
      "new-password": "long enough pw",
      "confirm-password": "different pw",
    });
    expect(mismatch.status).toBe(400);
    expect((await json(mismatch)).error.details?.[0]?.field).toBe("body.confirm-password");
    const ok = await post(bkReset, "/api/auth/v1/users/reset-password-with-token", {
      token,
      "new-password": "long enough pw",
      "confirm-password": "long enough pw",
    });
    expect(ok.status).toBe(200);
    expect((await json(ok)).message).toEqual(expect.any(String));
    expect((await post(bkLogin, "/api/auth/v1/login", { email, password: "long enough pw" })).status).toBe(200);
  });
});

describe("GET/POST /api/member/metadata", () => {
  it("answers 401 with an error message when not logged in", async () => {
    await createTestPublisher(await getDb());
    for (const res of [
      await get(metadataGet, "/api/member/metadata"),
      await post(metadataPost, "/api/member/metadata", { a: 1 }, { "X-QT-AUTH": "bogus" }),
    ]) {
      expect(res.status).toBe(401);
      const body = await json(res);
      expect(body.error.code).toBe("UNAUTHORIZED");
      expect(body.error.message.length).toBeGreaterThan(10);
    }
  });

  it("stores the posted object (replacing the previous one), unwraps {metadata}, and returns it", async () => {
    await createTestPublisher(await getDb());
    const { token, email } = await signupMember();
    const auth = { "X-QT-AUTH": token! };
    expect(await (await get(metadataGet, "/api/member/metadata", auth)).json()).toEqual({});

    const first = await post(metadataPost, "/api/member/metadata", { theme: "dark", topics: ["politics"] }, auth);
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ theme: "dark", topics: ["politics"] });
    // Replaced, not merged; the quintype-ruby wrapper is unwrapped.
    const second = await post(metadataPost, "/api/member/metadata", { metadata: { newsletter: true } }, auth);
    expect(await second.json()).toEqual({ newsletter: true });
    expect(await (await get(metadataGet, "/api/member/metadata", { cookie: `qt-auth=${token}` })).json()).toEqual({
      newsletter: true,
    });
    // And /members/me shows it.
    expect((await json(await get(me, "/api/v1/members/me", auth))).member).toMatchObject({
      email,
      metadata: { newsletter: true },
    });
  });

  it("refuses a non-object body with 400 and one over 16 KB with 413 or 400", async () => {
    await createTestPublisher(await getDb());
    const { token } = await signupMember();
    const auth = { "X-QT-AUTH": token! };
    for (const body of [[1, 2], "text", 42, null])
      expect((await post(metadataPost, "/api/member/metadata", body, auth)).status).toBe(400);
    const big = await post(metadataPost, "/api/member/metadata", { blob: "x".repeat(17 * 1024) }, auth);
    expect(big.status).toBe(413);
    const justOver = await post(
      metadataPost,
      "/api/member/metadata",
      { metadata: { blob: "x".repeat(16 * 1024) } },
      auth,
    );
    expect(justOver.status).toBe(400);
    expect(await (await get(metadataGet, "/api/member/metadata", auth)).json()).toEqual({});
  });

  it("refuses metadata holding an unpaired UTF-16 surrogate (which jsonb cannot store) with 400, not 500", async () => {
    await createTestPublisher(await getDb());
    const { token } = await signupMember();
    for (const body of ['{"a":"x\\ud800"}', '{"a\\udc00":"x"}', '{"a":["\\udc00\\ud800"]}']) {
      const res = await postRaw(metadataPost, "/api/member/metadata", body, { "X-QT-AUTH": token! });
      expect(res.status, body).toBe(400);
    }
    const paired = await post(metadataPost, "/api/member/metadata", { emoji: "\u{1F600}" }, { "X-QT-AUTH": token! });
    expect(paired.status).toBe(200);
    expect(await paired.json()).toEqual({ emoji: "\u{1F600}" });
  });

  it("refuses metadata nested too deep to store with 400, not 500", async () => {
    await createTestPublisher(await getDb());
    const { token } = await signupMember();
    const body = `{"a":${"[".repeat(5000)}${"]".repeat(5000)}}`;
    const res = await postRaw(metadataPost, "/api/member/metadata", body, { "X-QT-AUTH": token! });
    expect(res.status).toBe(400);
    expect((await json(res)).error.code).toBe("BAD_REQUEST");
    expect(await (await get(metadataGet, "/api/member/metadata", { "X-QT-AUTH": token! })).json()).toEqual({});
  });
});

describe("bridgekeeper aliases (/api/auth/v1)", () => {
  it("signup, login and users/me answer {user}; users/me without a session is a 401 naming the header", async () => {
    await createTestPublisher(await getDb());
    const email = uniqueEmail();
    const created = await post(bkSignup, "/api/auth/v1/signup", {
      name: "Bridge",
      email,
      username: `bk${seq++}`,
      password: "long enough pw",
    });
    expect(created.status).toBe(201);
    const user = (await json(created)).user as Record<string, unknown>;
    expect(user).toMatchObject({ email, name: "Bridge" });
    expect(created.headers.get("X-QT-AUTH")).toBeTruthy();

    const logged = await post(bkLogin, "/api/auth/v1/login", { username: "", email, password: "long enough pw" });
    expect(logged.status).toBe(200);
    expect((await json(logged)).user).toEqual(user);
    const token = logged.headers.get("X-QT-AUTH")!;

    const current = await get(bkMe, "/api/auth/v1/users/me", { cookie: `qt-auth=${token}` });
    expect(current.status).toBe(200);
    expect(await current.json()).toEqual({ user, "active-sessions-count": 2, source: "email" });

    const anonymous = await get(bkMe, "/api/auth/v1/users/me");
    expect(anonymous.status).toBe(401);
    expect((await json(anonymous)).error.message).toBe(
      "Could not find qt-auth cookie or X-QT-AUTH header, please Login.",
    );
  });
});
