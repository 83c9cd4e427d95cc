/**
 * Sign-up over HTTP (POST /api/member): the member created and answered without secrets, logged in
 * by header and cookies (Secure over https) unless told not to; 409 for a taken e-mail or username,
 * one winner when the same e-mail signs up twice at once, 400 for bad input; the member-signup
 * webhook event. Route handlers are called directly.
 */
import { beforeEach, describe, expect, it } from "vitest";

import { POST as signup } from "@/app/api/member/route";
import { verifyPassword } from "@/server/auth/password";
import { getDb } from "@/server/db";
import { forgetPublisherCache } from "@/server/publishing/publisher";
import { hashToken } from "@/server/security/secret-tokens";
import { json, nextSeq, NO_PARAMS, post, setCookies, signupMember, uniqueEmail } from "@/server/testing/member-calls";
import { createTestPublisher } from "@/server/testing/publishing-factories";

/** Sign up through the route (counts against the route's per-IP limit: use for route behaviour). */
async function signupViaRoute(overrides: Record<string, unknown> = {}) {
  const email = uniqueEmail();
  const body = {
    name: "Ada Reader",
    username: `ada${nextSeq()}`,
    email,
    password: "correct horse battery",
    ...overrides,
  };
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
