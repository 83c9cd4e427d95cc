/**
 * Forgot and reset password over HTTP: the same answer whether or not the e-mail exists, a
 * single-use link mailed through the outbox to a member only, expired, unknown and raced tokens
 * refused, the per-e-mail limit on reset mails, and the bridgekeeper-compatible paths. Route
 * handlers are called directly.
 */
import { beforeEach, describe, expect, it } from "vitest";

import { POST as bkLogin } from "@/app/api/auth/v1/login/route";
import { POST as bkForgot } from "@/app/api/auth/v1/users/forgot-password/route";
import { POST as bkReset } from "@/app/api/auth/v1/users/reset-password-with-token/route";
import { POST as forgotPassword } from "@/app/api/member/forgot-password/route";
import { POST as login } from "@/app/api/member/login/route";
import { POST as passwordReset } from "@/app/api/member/password/reset/route";
import { POST as passwordAlias } from "@/app/api/member/password/route";
import { GET as me } from "@/app/api/v1/members/me/route";
import { getDb } from "@/server/db";
import { FORGOT_PASSWORD_MESSAGE, PASSWORD_RESET_KIND } from "@/server/members/members";
import { forgetPublisherCache } from "@/server/publishing/publisher";
import { hashToken } from "@/server/security/secret-tokens";
import { runJobsNow } from "@/server/testing/jobs";
import { get, json, post, signupMember, uniqueEmail } from "@/server/testing/member-calls";
import { createTestPublisher } from "@/server/testing/publishing-factories";

beforeEach(() => forgetPublisherCache());

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
