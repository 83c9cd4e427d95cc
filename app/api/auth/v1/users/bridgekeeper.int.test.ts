/**
 * The real @quintype/bridgekeeper-js 2.8.2 against Masthead over HTTP (server/testing/content-server.ts),
 * with the fetch shim of real-clients.md §8 (it calls relative URLs): register, sendOtp,
 * updateWithOtp, updateUserProfile, resetPassword, sendVerificationLink, currentUser, and the
 * social login of withGoogleLogin's createSession (wretch) against a local OpenID provider.
 */
import * as bridgekeeper from "@quintype/bridgekeeper-js";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";

import * as socialLogin from "@/app/api/login/[provider]/route";
import { getDb } from "@/server/db";
import { VERIFY_MAIL_KIND } from "@/server/members/member-account";
import { forgetProviderCaches } from "@/server/members/social-tokens";
import { startContentServer, type ContentServer } from "@/server/testing/content-server";
import { lastOtpCode } from "@/server/testing/member-mail";
import { startTestOidcProvider, type TestOidcProvider } from "@/server/testing/oidc-provider";
import { createTestPublisher } from "@/server/testing/publishing-factories";
import { createTestStaff } from "@/server/testing/staff";

import * as login from "../login/route";
import * as signup from "../signup/route";
import * as me from "./me/route";
import * as profile from "./profile/route";
import * as resetPassword from "./reset-password/route";
import * as sendOtp from "./send-otp/route";
import * as sendVerificationLink from "./send-verification-link/route";
import * as updateWithOtp from "./update-with-otp/route";

type Json = Record<string, unknown>;
const bk = bridgekeeper;

let server: ContentServer;
let op: TestOidcProvider;
const realFetch = globalThis.fetch;
/** The browser's cookie jar, for bridgekeeper's credentials: "same-origin" calls. */
let cookie = "";

beforeAll(async () => {
  server = await startContentServer([
    { pattern: /^\/api\/auth\/v1\/signup$/, module: signup },
    { pattern: /^\/api\/auth\/v1\/login$/, module: login },
    { pattern: /^\/api\/auth\/v1\/users\/me$/, module: me },
    { pattern: /^\/api\/auth\/v1\/users\/profile$/, module: profile },
    { pattern: /^\/api\/auth\/v1\/users\/send-otp$/, module: sendOtp },
    { pattern: /^\/api\/auth\/v1\/users\/update-with-otp$/, module: updateWithOtp },
    { pattern: /^\/api\/auth\/v1\/users\/reset-password$/, module: resetPassword },
    { pattern: /^\/api\/auth\/v1\/users\/send-verification-link$/, module: sendVerificationLink },
    { pattern: /^\/api\/login\/(?<provider>[^/]+)$/, module: socialLogin },
  ]);
  op = await startTestOidcProvider();
  // real-clients.md §8: bridgekeeper fetches relative URLs; the shim resolves them against the
  // server and plays the browser's cookie jar (the session cookie the login set).
  globalThis.fetch = async (input: string | URL | Request, init?: RequestInit) => {
    if (typeof input !== "string" || !input.startsWith("/")) return realFetch(input, init);
    const headers = new Headers(init?.headers);
    if (cookie) headers.set("cookie", cookie);
    const res = await realFetch(new URL(input, server.baseUrl), { ...init, headers });
    // (The test server passes one Set-Cookie on: qt-auth or session-cookie; Masthead reads either.)
    const set = res.headers.getSetCookie().find((c) => /^(qt-auth|session-cookie)=./.test(c));
    if (set) cookie = set.split(";")[0]!;
    return res;
  };
});
afterAll(async () => {
  globalThis.fetch = realFetch;
  await server.close();
  await op.close();
});
beforeEach(async () => {
  cookie = "";
  forgetProviderCaches();
  // The server's requests carry Host 127.0.0.1:<port>: the publisher's domain.
  await createTestPublisher(await getDb(), { domain: "127.0.0.1", siteUrl: "http://127.0.0.1" });
});

const lastCode = async (to: string) => lastOtpCode(await getDb(), to);

describe("@quintype/bridgekeeper-js 2.8.2 against Masthead", () => {
  it("register, sendOtp, updateWithOtp, updateUserProfile, currentUser, resetPassword, sendVerificationLink", async () => {
    const email = `bk.${Date.now()}@example.com`;
    const registered = await bk.register({
      name: "Bea Keeper",
      email,
      username: `bk${Date.now()}`,
      password: "correct horse battery",
    });
    expect(registered.user).toMatchObject({ email, name: "Bea Keeper", "email-verified": false });
    expect(cookie).toMatch(/^(qt-auth|session-cookie)=./);

    const sent = await bk.sendOtp({});
    expect(sent.status).toBe(200);
    expect(sent.message).toEqual(expect.any(String));
    const code = await lastCode(email);

    const updated = await bk.updateWithOtp(code, { "phone-number": "+4930123456", name: "Bea K." });
    expect(updated.status).toBe(200);
    expect(((await updated.json()) as { user: Json }).user).toMatchObject({ name: "Bea K.", "email-verified": true });
    const reused = await bk.updateWithOtp(code, { name: "Again" });
    expect(reused.status).toBe(422);

    const profiled = await bk.updateUserProfile({
      bio: "Reads everything",
      "avatar-url": "https://cdn.example.com/b.png",
    });
    expect(profiled.user).toMatchObject({ bio: "Reads everything", "avatar-url": "https://cdn.example.com/b.png" });

    const current = await bk.currentUser();
    expect(current.user).toMatchObject({
      email,
      name: "Bea K.",
      "phone-number": "+4930123456",
      bio: "Reads everything",
    });

    // Logged out, by e-mail: sendOtp then resetPassword.
    cookie = "";
    expect((await bk.sendOtp({ email })).status).toBe(200);
    const resetCode = await lastCode(email);
    const reset = await bk.resetPassword({ email, otp: resetCode, "new-password": "a new long password" });
    expect(reset.message).toEqual(expect.any(String));
    const loggedIn = await bk.login({ email, password: "a new long password" });
    expect(loggedIn.user).toMatchObject({ email });
    const wrong = await bk.resetPassword({ email, otp: resetCode, "new-password": "another password" });
    expect(wrong.error).toMatchObject({ code: "UNPROCESSABLE" });

    // A new, unverified member asks for a verification link.
    cookie = "";
    const other = `bk2.${Date.now()}@example.com`;
    await bk.register({ name: "Vera", email: other, password: "correct horse battery", "dont-login": true });
    const link = await bk.sendVerificationLink(other, "http://127.0.0.1/verified");
    expect(link.message).toEqual(expect.any(String));
    expect(await (await getDb()).outgoingEmail.count({ where: { to: other, kind: VERIFY_MAIL_KIND } })).toBe(1);
  });

  it('withGoogleLogin and withFacebookLogin: the wrappers\' own createSession (wretch) posts {token: {"access-token"}} to /api/login/<provider>', async () => {
    const db = await getDb();
    const publisher = await db.account.findFirstOrThrow({ where: { domain: "127.0.0.1" } });
    const owner = await createTestStaff(db, { roles: ["OWNER"], account: publisher.id });
    // Google's access tokens are checked through introspection here (the local provider offers
    // it); against Google itself, tokeninfo (server/members/social-tokens.ts).
    await owner.caller.loginProviders.save({
      name: "google",
      issuer: op.issuer,
      clientIds: [op.clientId],
      clientSecret: op.clientSecret,
    });
    await owner.caller.loginProviders.save({
      name: "facebook",
      issuer: op.issuer,
      clientIds: ["777"],
      clientSecret: "s",
    });
    const g = globalThis as Record<string, unknown>;
    g.qtMountAt = server.baseUrl; // wretch posts to qtMountAt + path
    const email = `g.${Date.now()}@example.com`;
    const googleToken = op.accessToken({ sub: "google-sub-1", email, email_verified: true, name: "Gia" });
    // The Google SDK in the page, as the wrapper uses it: signIn() gives the access token.
    g.gapi = {
      client: {},
      auth2: {
        getAuthInstance: () => ({
          signIn: () =>
            Promise.resolve({
              getBasicProfile: () => ({ getEmail: () => email }),
              getAuthResponse: () => ({ access_token: googleToken }),
            }),
        }),
      },
    };
    g.FB = {
      login: (callback: (r: unknown) => void) =>
        callback({
          status: "connected",
          authResponse: { accessToken: op.facebookToken({ id: "fb-1", name: "Fay", appId: "777" }) },
        }),
    };
    try {
      const google = await bk.withGoogleLogin({ clientId: op.clientId, redirectUrl: "/" }).login();
      expect(google.user).toMatchObject({ email, name: "Gia", "email-verified": true });
      expect(google.member).toEqual(google.user);
      const facebook = await bk.withFacebookLogin({ appId: "777", redirectUrl: "/" }).login();
      expect(facebook.member).toMatchObject({ name: "Fay", source: "facebook" });
      expect(await db.member.count({ where: { accountId: publisher.id } })).toBe(2);
      // Twice: the same member.
      const again = await bk.withGoogleLogin({ clientId: op.clientId, redirectUrl: "/" }).login();
      expect((again.user as Json).id).toBe((google.user as Json).id);
    } finally {
      delete g.gapi;
      delete g.FB;
      delete g.qtMountAt;
    }
  });
});
