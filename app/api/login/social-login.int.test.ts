/**
 * POST /api/login/<provider> against a local OpenID provider and a fake Graph API
 * (server/testing/oidc-provider.ts) over real HTTP: members created and found, linking by
 * verified e-mail only, forged, foreign and expired tokens, access tokens, Facebook, concurrency.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";

import { resetEnvCache } from "@/env.js";
import { verifyPassword } from "@/server/auth/password";
import { getDb } from "@/server/db";
import { signUpMember } from "@/server/members/members";
import { logInWithProvider } from "@/server/members/social-login";
import { forgetProviderCaches, verifyProviderToken } from "@/server/members/social-tokens";
import { forgetPublisherCache, resolvePublisher } from "@/server/publishing/publisher";
import { startTestOidcProvider, type TestOidcProvider } from "@/server/testing/oidc-provider";
import { createTestPublisher } from "@/server/testing/publishing-factories";
import { createTestStaff } from "@/server/testing/staff";

import { POST } from "./[provider]/route";

let op: TestOidcProvider;
let accountId: number;
let seq = 0;
const unique = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${seq++}`;

beforeAll(async () => {
  op = await startTestOidcProvider();
});
afterAll(async () => {
  await op.close();
});

beforeEach(async () => {
  forgetProviderCaches();
  forgetPublisherCache();
  const db = await getDb();
  const publisher = await createTestPublisher(db);
  accountId = publisher.id;
  const owner = await createTestStaff(db, { roles: ["OWNER"], account: publisher.id });
  await owner.caller.loginProviders.save({ name: "google", issuer: op.issuer, clientIds: [op.clientId, "other-app"] });
  await owner.caller.loginProviders.save({
    name: "corp",
    kind: "oidc",
    issuer: op.issuer,
    clientIds: [op.clientId],
    clientSecret: op.clientSecret,
  });
  await owner.caller.loginProviders.save({
    name: "facebook",
    issuer: op.issuer,
    clientIds: ["1234"],
    clientSecret: "fb-app-secret",
  });
});

function login(provider: string, body: unknown, headers: Record<string, string> = {}) {
  return POST(
    new Request(`http://localhost/api/login/${provider}`, {
      method: "POST",
      headers: { "content-type": "application/json", host: "localhost", ...headers },
      body: typeof body === "string" ? body : JSON.stringify(body),
    }),
    { params: Promise.resolve({ provider }) },
  );
}
type Answer = { member: { id: number; email: string }; user: { id: number }; error: { code: string } };
const read = async (res: Response) => (await res.json()) as Answer;

// eslint-disable-next-line max-lines-per-function -- a describe block of short cases that share its setup
describe("POST /api/login/<provider> with an OpenID Connect ID token", () => {
  it("creates a member on first login, sets the session like /api/auth/v1/login, and finds the same member again", async () => {
    const email = `${unique("ada")}@example.com`;
    const sub = unique("sub");
    const res = await login("google", {
      token: await op.idToken({ sub, email, email_verified: true, name: "Ada Social" }),
      "set-session": true,
    });
    expect(res.status).toBe(200);
    const body = await read(res);
    expect(body.member).toMatchObject({ email, name: "Ada Social", source: "google" });
    expect(body.user).toEqual(body.member);
    const token = res.headers.get("X-QT-AUTH");
    expect(token).toBeTruthy();
    expect(res.headers.getSetCookie().join("\n")).toContain(`qt-auth=${token}`);
    expect(res.headers.get("cache-control")).toContain("no-store");

    const again = await login("google", { token: await op.idToken({ sub, email, email_verified: true }) });
    expect(again.status).toBe(200);
    expect((await read(again)).member.id).toBe(body.member.id);
    expect(again.headers.get("X-QT-AUTH")).toBeNull(); // no "set-session": no session

    const db = await getDb();
    expect(await db.member.count({ where: { accountId } })).toBe(1);
    const row = await db.member.findUniqueOrThrow({ where: { id: body.member.id }, omit: { passwordHash: false } });
    expect(row.emailVerified).toBe(true);
    expect(await verifyPassword("anything", row.passwordHash)).toBe(false);
    expect(await db.webhookEvent.count({ where: { accountId, name: "member-signup" } })).toBe(1);
  });

  it("keeps the language a new reader signs up in (Accept-Language), and leaves a known reader's alone", async () => {
    const email = `${unique("asha")}@example.com`;
    const sub = unique("sub");
    const first = await login(
      "google",
      { token: await op.idToken({ sub, email, email_verified: true, name: "आशा" }) },
      { "accept-language": "hi-IN,hi;q=0.9" },
    );
    expect(first.status).toBe(200);
    const { member } = await read(first);
    const db = await getDb();
    expect((await db.member.findUniqueOrThrow({ where: { id: member.id } })).locale).toBe("hi");
    const again = await login(
      "google",
      { token: await op.idToken({ sub, email, email_verified: true }) },
      { "accept-language": "ar" },
    );
    expect(again.status).toBe(200);
    expect((await db.member.findUniqueOrThrow({ where: { id: member.id } })).locale).toBe("hi");
  });

  it("links a verified e-mail to the existing password member (one reader, one member), ending the unproven password", async () => {
    const db = await getDb();
    const publisher = await resolvePublisher(db, { host: "localhost" });
    const email = `${unique("pw")}@example.com`;
    const { member: existing, session } = await signUpMember(db, {
      publisher,
      input: { email, password: "correct horse battery", name: "Pat" },
      now: new Date(),
    });
    const res = await login("google", {
      token: await op.idToken({ sub: unique("sub"), email: email.toUpperCase(), email_verified: true }),
      "set-session": true,
    });
    expect(res.status).toBe(200);
    expect((await read(res)).member.id).toBe(existing.id);
    const row = await db.member.findUniqueOrThrow({ where: { id: existing.id }, omit: { passwordHash: false } });
    expect(row.emailVerified).toBe(true);
    // The password was set by someone who never proved the address: it and its sessions end.
    expect(await verifyPassword("correct horse battery", row.passwordHash)).toBe(false);
    // The sign-up's session ended; the social login's is live.
    expect(session).not.toBeNull();
    const sessions = await db.memberSession.findMany({
      where: { memberId: existing.id },
      orderBy: { createdAt: "asc" },
    });
    expect(sessions.map((s) => s.revokedAt === null)).toEqual([false, true]);
    expect(await db.member.count({ where: { accountId } })).toBe(1);
  });

  it("keeps the password of a member who had verified the e-mail", async () => {
    const db = await getDb();
    const publisher = await resolvePublisher(db, { host: "localhost" });
    const email = `${unique("ver")}@example.com`;
    const { member } = await signUpMember(db, {
      publisher,
      input: { email, password: "correct horse battery", "dont-login": true },
      now: new Date(),
    });
    await db.member.update({ where: { id: member.id }, data: { emailVerified: true } });
    const res = await login("google", { token: await op.idToken({ sub: unique("sub"), email, email_verified: true }) });
    expect((await read(res)).member.id).toBe(member.id);
    const row = await db.member.findUniqueOrThrow({ where: { id: member.id }, omit: { passwordHash: false } });
    expect(await verifyPassword("correct horse battery", row.passwordHash)).toBe(true);
  });

  it("never links by an unverified e-mail: a new member with a placeholder sign-in e-mail", async () => {
    const db = await getDb();
    const publisher = await resolvePublisher(db, { host: "localhost" });
    const email = `${unique("victim")}@example.com`;
    const { member: victim } = await signUpMember(db, {
      publisher,
      input: { email, password: "correct horse battery", "dont-login": true },
      now: new Date(),
    });
    for (const flag of [false, undefined]) {
      const res = await login("google", {
        token: await op.idToken({ sub: unique("sub"), email, ...(flag === undefined ? {} : { email_verified: flag }) }),
      });
      expect(res.status).toBe(200);
      const body = await read(res);
      expect(body.member.id).not.toBe(victim.id);
      expect(body.member.email).toMatch(/@identities\.invalid$/);
      expect(body.member).toMatchObject({ "communication-email": email });
    }
    const row = await db.member.findUniqueOrThrow({ where: { id: victim.id }, omit: { passwordHash: false } });
    expect(await verifyPassword("correct horse battery", row.passwordHash)).toBe(true);
  });

  it("refuses forged, foreign, expired and replayed-nonce tokens with 401 and creates nothing", async () => {
    const sub = unique("sub");
    const cases = [
      await op.forgedIdToken({ sub }),
      await op.idToken({ sub, aud: "someone-elses-client" }),
      await op.idToken({ sub, expiresIn: -120 }),
      await op.idToken({ sub, iss: "https://evil.example.com" }),
      await op.idToken({ sub, aud: [op.clientId, "x"], azp: "x" }),
      // alg none, and a token whose signature was altered
      `${Buffer.from('{"alg":"none"}').toString("base64url")}.${Buffer.from(JSON.stringify({ sub, iss: op.issuer, aud: op.clientId, exp: 9e9, iat: 1 })).toString("base64url")}.`,
      (await op.idToken({ sub })).slice(0, -4) + "AAAA",
    ];
    for (const token of cases) {
      const res = await login("google", { token, "set-session": true });
      expect(res.status).toBe(401);
      expect((await read(res)).error.code).toBe("UNAUTHORIZED");
      expect(res.headers.get("X-QT-AUTH")).toBeNull();
    }
    const withNonce = await op.idToken({ sub, nonce: "n-1" });
    expect((await login("google", { token: withNonce, nonce: "n-2" })).status).toBe(401);
    expect((await login("google", { token: withNonce, nonce: "n-1" })).status).toBe(200);
    expect(await (await getDb()).member.count({ where: { accountId } })).toBe(1);
  });

  it("answers 404 for an unknown provider, 422 for google/facebook/apple not configured, 400 for a bad body", async () => {
    expect((await login("myspace", { token: "x" })).status).toBe(404);
    expect((await login("apple", { token: "x" })).status).toBe(422);
    for (const body of [
      {},
      { token: "" },
      { token: 5 },
      { token: {} },
      { token: { "access-token": "a", "id-token": "b" } },
      { token: { "access-token": "" } },
      { token: "x", "set-session": "yes" },
      "{not json",
    ]) {
      const res = await login("google", body);
      expect(res.status).toBe(400);
    }
    // A disabled provider is as good as none.
    await (await getDb()).loginProvider.updateMany({ where: { accountId, name: "google" }, data: { enabled: false } });
    expect((await login("google", { token: await op.idToken({ sub: "s" }) })).status).toBe(422);
  });

  it("concurrent first logins of the same person make one member and one identity", async () => {
    const sub = unique("sub");
    const email = `${unique("race")}@example.com`;
    const tokens = await Promise.all(Array.from({ length: 6 }, () => op.idToken({ sub, email, email_verified: true })));
    const results = await Promise.all(tokens.map((token) => login("google", { token, "set-session": true })));
    expect(results.map((r) => r.status)).toEqual(Array(6).fill(200));
    const ids = new Set((await Promise.all(results.map(read))).map((b) => b.member.id));
    expect(ids.size).toBe(1);
    const db = await getDb();
    expect(await db.member.count({ where: { accountId } })).toBe(1);
    expect(await db.memberIdentity.count({ where: { accountId } })).toBe(1);
  });
});

describe("access tokens", () => {
  it("an OIDC access token is accepted through introspection (issued to our client) and userinfo", async () => {
    const email = `${unique("at")}@example.com`;
    const token = op.accessToken({ sub: unique("sub"), email, email_verified: true, name: "Access" });
    const res = await login("corp", { token, "set-session": true });
    expect(res.status).toBe(200);
    expect((await read(res)).member).toMatchObject({ email, name: "Access", source: "corp" });
    // Another app's token for the same person (token substitution) and an unknown token.
    expect((await login("corp", { token: op.accessToken({ sub: "s2" }, "another-client") })).status).toBe(401);
    expect((await login("corp", { token: "not-a-token-we-issued" })).status).toBe(401);
    // Without a client secret there is no introspection: ID tokens only.
    expect((await login("google", { token: op.accessToken({ sub: "s3" }) })).status).toBe(401);
  });

  it("facebook: debug_token for this app, then /me; the e-mail is not taken as verified", async () => {
    const db = await getDb();
    const publisher = await resolvePublisher(db, { host: "localhost" });
    const email = `${unique("fb")}@example.com`;
    const { member: existing } = await signUpMember(db, {
      publisher,
      input: { email, password: "correct horse battery", "dont-login": true },
      now: new Date(),
    });
    const id = String(Date.now());
    const token = op.facebookToken({ id, name: "Fay Book", email, appId: "1234" });
    // bridgekeeper's withFacebookLogin sends {"access-token": …}.
    const res = await login("facebook", { token: { "access-token": token }, "set-session": true });
    expect(res.status).toBe(200);
    const body = await read(res);
    expect(body.member).toMatchObject({ name: "Fay Book", source: "facebook", "communication-email": email });
    expect(body.member.id).not.toBe(existing.id);
    expect(res.headers.get("X-QT-AUTH")).toBeTruthy();
    const again = await login("facebook", { token });
    expect((await read(again)).member.id).toBe(body.member.id);

    const otherApp = op.facebookToken({ id: "99", name: "Other", appId: "5678" });
    expect((await login("facebook", { token: otherApp })).status).toBe(401);
    expect((await login("facebook", { token: "EAAinvalid" })).status).toBe(401);
  });
});

describe("Google access tokens (tokeninfo)", () => {
  it("accepts a token issued to one of our client ids, refuses another client's, an expired or unknown one", async () => {
    const provider = {
      name: "google",
      kind: "oidc" as const,
      issuer: op.issuer,
      clientIds: [op.clientId],
      clientSecret: null,
      tokeninfoUrl: `${op.issuer}/tokeninfo`,
    };
    const check = (value: string) =>
      verifyProviderToken(provider, { token: { value, kind: "access" }, allowPrivate: true });
    const email = `${unique("ti")}@example.com`;
    await expect(check(op.accessToken({ sub: "g-1", email, email_verified: true, name: "Tia" }))).resolves.toEqual({
      subject: "g-1",
      email,
      emailVerified: true,
      name: null,
      avatarUrl: null,
    });
    for (const token of [
      op.accessToken({ sub: "g-2" }, "another-client"),
      op.accessToken({ sub: "g-3", expiresIn: -10 }),
      "unknown-token",
    ]) {
      await expect(check(token)).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    }
  });
});

describe("outgoing calls", () => {
  it("refuse private addresses unless the operator allows them (503, nothing created)", async () => {
    const db = await getDb();
    const publisher = await resolvePublisher(db, { host: "localhost" });
    const call = logInWithProvider(db, {
      publisher,
      providerName: "google",
      token: { value: await op.idToken({ sub: "private" }), kind: "auto" },
      setSession: false,
      sessionDays: 1,
      allowPrivate: false,
      now: new Date(),
    });
    await expect(call).rejects.toMatchObject({ code: "SERVICE_UNAVAILABLE" });
    expect(await db.member.count({ where: { accountId } })).toBe(0);
  });
});

describe("a login provider's issuer", () => {
  it("is refused at save when it is a loopback or private address, naming the field, unless the operator allows them", async () => {
    const db = await getDb();
    const owner = await createTestStaff(db, { roles: ["OWNER"], account: accountId });
    const before = await db.loginProvider.count({ where: { accountId } });
    process.env.SOCIAL_LOGIN_ALLOW_PRIVATE_URLS = "false";
    resetEnvCache();
    try {
      for (const issuer of [
        "http://127.0.0.1:4000",
        "https://localhost",
        "https://[::ffff:127.0.0.1]",
        "https://10.0.0.8",
      ]) {
        const save = owner.caller.loginProviders.save({ name: "internal", kind: "oidc", issuer, clientIds: ["a"] });
        await expect(save).rejects.toMatchObject({ code: "UNPROCESSABLE_CONTENT" });
        await expect(save).rejects.toThrow(/issuer points to .*private or reserved address/);
      }
      expect(await db.loginProvider.count({ where: { accountId } })).toBe(before);
    } finally {
      process.env.SOCIAL_LOGIN_ALLOW_PRIVATE_URLS = "true";
      resetEnvCache();
    }
    // Allowed by the operator (as these tests are): saved.
    await owner.caller.loginProviders.save({ name: "internal", kind: "oidc", issuer: op.issuer, clientIds: ["a"] });
    await owner.caller.loginProviders.delete({ name: "internal" });
  });
});

describe("loginProviders.* (dashboard)", () => {
  it("is for owners, never returns the secret, validates, and is audited", async () => {
    const db = await getDb();
    const owner = await createTestStaff(db, { roles: ["OWNER"], account: accountId });
    const list = await owner.caller.loginProviders.list();
    expect(list.map((p) => p.name)).toEqual(["corp", "facebook", "google"]);
    expect(list.find((p) => p.name === "corp")).toMatchObject({ hasClientSecret: true, kind: "oidc" });
    expect(JSON.stringify(list)).not.toContain(op.clientSecret);
    expect(list.find((p) => p.name === "facebook")).toMatchObject({ kind: "facebook", issuer: op.issuer });

    // A name that is not well known needs kind and issuer; facebook needs one app id and a secret.
    await expect(owner.caller.loginProviders.save({ name: "custom", clientIds: ["a"] })).rejects.toThrow();
    await expect(
      owner.caller.loginProviders.save({ name: "publisher", kind: "oidc", issuer: op.issuer, clientIds: ["a"] }),
    ).rejects.toThrow();
    await expect(
      owner.caller.loginProviders.save({ name: "fb2", kind: "facebook", issuer: op.issuer, clientIds: ["1"] }),
    ).rejects.toThrow(/secret/);
    // Saving again without the secret keeps it.
    await owner.caller.loginProviders.save({ name: "corp", kind: "oidc", issuer: op.issuer, clientIds: ["new-id"] });
    expect((await owner.caller.loginProviders.list()).find((p) => p.name === "corp")).toMatchObject({
      hasClientSecret: true,
      clientIds: ["new-id"],
    });
    await owner.caller.loginProviders.delete({ name: "corp" });
    expect((await login("corp", { token: "x" })).status).toBe(404);
    expect(
      await db.auditLog.count({ where: { accountId, action: { startsWith: "login-provider." } } }),
    ).toBeGreaterThanOrEqual(5);

    const editor = await createTestStaff(db, { roles: ["EDITOR"], account: accountId });
    await expect(editor.caller.loginProviders.list()).rejects.toThrow();
  });
});
