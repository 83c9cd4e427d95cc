/**
 * Login and sessions over HTTP: login by e-mail or username with the token in X-QT-AUTH and both
 * cookies, one 401 for an unknown e-mail and a wrong password, the per-e-mail limit; sessions by
 * header and cookie, expired and other publishers' sessions refused, logout; the CORS preflight;
 * the bridgekeeper-compatible aliases (/api/auth/v1). Route handlers are called directly.
 */
import { beforeEach, describe, expect, it } from "vitest";

import { POST as bkLogin } from "@/app/api/auth/v1/login/route";
import { GET as bkLogout } from "@/app/api/auth/v1/logout/route";
import { POST as bkSignup } from "@/app/api/auth/v1/signup/route";
import { GET as bkMe } from "@/app/api/auth/v1/users/me/route";
import { GET as logoutGet } from "@/app/api/logout/route";
import { POST as login } from "@/app/api/member/login/route";
import { OPTIONS as signupOptions } from "@/app/api/member/route";
import { GET as me } from "@/app/api/v1/members/me/route";
import { getDb } from "@/server/db";
import { BAD_CREDENTIALS_MESSAGE } from "@/server/members/members";
import { createMemberSession } from "@/server/members/sessions";
import { forgetPublisherCache } from "@/server/publishing/publisher";
import { hashToken } from "@/server/security/secret-tokens";
import {
  get,
  json,
  nextSeq,
  NO_PARAMS,
  post,
  setCookies,
  signupMember,
  uniqueEmail,
} from "@/server/testing/member-calls";
import { createTestPublisher } from "@/server/testing/publishing-factories";

beforeEach(() => forgetPublisherCache());

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

describe("bridgekeeper aliases (/api/auth/v1)", () => {
  it("signup, login and users/me answer {user}; users/me without a session is a 401 naming the header", async () => {
    await createTestPublisher(await getDb());
    const email = uniqueEmail();
    const created = await post(bkSignup, "/api/auth/v1/signup", {
      name: "Bridge",
      email,
      username: `bk${nextSeq()}`,
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
