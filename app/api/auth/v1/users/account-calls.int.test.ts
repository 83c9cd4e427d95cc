/**
 * bridgekeeper's member account calls, route handlers called directly: send-otp, update-with-otp,
 * profile, reset-password (with a code), send-verification-link and its verify-email link. Bad
 * input, codes wrong, expired, reused, out of tries and used twice at once, rate limits, answers
 * that do not reveal whether an e-mail exists.
 */
import { beforeEach, describe, expect, it } from "vitest";

import { verifyPassword } from "@/server/auth/password";
import { getDb } from "@/server/db";
import { OTP_MAIL_KIND, OTP_SENT_MESSAGE, VERIFY_MAIL_KIND } from "@/server/members/member-account";
import { signUpMember } from "@/server/members/members";
import { createMemberSession } from "@/server/members/sessions";
import { forgetPublisherCache, resolvePublisher } from "@/server/publishing/publisher";
import { lastOtpCode } from "@/server/testing/member-mail";
import { createTestPublisher } from "@/server/testing/publishing-factories";

import { GET as me } from "./me/route";
import { POST as profile } from "./profile/route";
import { POST as resetPassword } from "./reset-password/route";
import { POST as sendOtp } from "./send-otp/route";
import { POST as sendLink } from "./send-verification-link/route";
import { POST as updateWithOtp } from "./update-with-otp/route";
import { GET as verifyEmail } from "./verify-email/route";

const NO_PARAMS = { params: Promise.resolve({}) };
type Handler = (req: Request, ctx: typeof NO_PARAMS) => Promise<Response>;

let seq = 0;
const uniqueEmail = (prefix = "reader") => `${prefix}.${Date.now().toString(36)}.${seq++}@example.com`;

function post(handler: Handler, path: string, body: unknown, token?: string) {
  return handler(
    new Request(`http://localhost${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", ...(token ? { "X-QT-AUTH": token } : {}) },
      body: typeof body === "string" ? body : JSON.stringify(body),
    }),
    NO_PARAMS,
  );
}
const json = async (res: Response) =>
  (await res.json()) as Record<string, unknown> & { error: { code: string; details?: { field: string }[] } };

async function member(overrides: { email?: string } = {}) {
  const db = await getDb();
  const publisher = await resolvePublisher(db, { host: "localhost" });
  const email = overrides.email ?? uniqueEmail();
  const { member } = await signUpMember(db, {
    publisher,
    input: { email, password: "correct horse battery", name: "Otto", "dont-login": true },
    now: new Date(),
  });
  const { token } = await createMemberSession(db, { memberId: member.id, now: new Date(), days: 30 });
  return { member, email, token };
}

const lastCode = async (to: string) => lastOtpCode(await getDb(), to);
const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, "0");

beforeEach(async () => {
  forgetPublisherCache();
  await createTestPublisher(await getDb(), { siteUrl: "https://news.example.com" });
});

describe("send-otp", () => {
  it("answers the same whether or not the e-mail exists, and mails (hashed, never stored in clear) only to a member", async () => {
    const { email } = await member();
    const db = await getDb();
    const known = await post(sendOtp, "/api/auth/v1/users/send-otp", { email: email.toUpperCase() });
    const unknown = await post(sendOtp, "/api/auth/v1/users/send-otp", { email: uniqueEmail("nobody") });
    expect(known.status).toBe(200);
    expect(unknown.status).toBe(200);
    expect(await json(known)).toEqual({ message: OTP_SENT_MESSAGE });
    expect(await json(unknown)).toEqual({ message: OTP_SENT_MESSAGE });
    expect(await db.outgoingEmail.count({ where: { kind: OTP_MAIL_KIND } })).toBe(1);
    const code = await lastCode(email);
    const row = await db.memberOtp.findFirstOrThrow({ where: { email } });
    expect(row.codeHash).not.toContain(code);
    expect(row.codeHash).toMatch(/^[0-9a-f]{64}$/);
  });

  it("400 without an e-mail when not logged in, or a bad one; logged in, the member's own address", async () => {
    expect((await post(sendOtp, "/api/auth/v1/users/send-otp", {})).status).toBe(400);
    expect((await post(sendOtp, "/api/auth/v1/users/send-otp", { email: "not-an-email" })).status).toBe(400);
    expect((await post(sendOtp, "/api/auth/v1/users/send-otp", "{oops")).status).toBe(400);
    const { email, token } = await member();
    expect((await post(sendOtp, "/api/auth/v1/users/send-otp", {}, token)).status).toBe(200);
    expect(await lastCode(email)).toMatch(/^\d{6}$/);
  });

  it("is limited per e-mail: 429 with Retry-After", async () => {
    const { email } = await member();
    for (let i = 0; i < 5; i++) expect((await post(sendOtp, "/x", { email })).status).toBe(200);
    const refused = await post(sendOtp, "/x", { email });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(await (await getDb()).outgoingEmail.count({ where: { to: email } })).toBe(5);
  });
});

describe("reset-password with a code", () => {
  it("sets the password, ends other sessions, and the code works once", async () => {
    const { email, member: m, token } = await member();
    await post(sendOtp, "/x", { email });
    const code = await lastCode(email);
    const body = { email, otp: code, "new-password": "a brand new password" };
    const res = await post(resetPassword, "/api/auth/v1/users/reset-password", body);
    expect(res.status).toBe(200);
    expect(await json(res)).toHaveProperty("message");
    const db = await getDb();
    const row = await db.member.findUniqueOrThrow({ where: { id: m.id }, omit: { passwordHash: false } });
    expect(await verifyPassword("a brand new password", row.passwordHash)).toBe(true);
    expect(row.emailVerified).toBe(true);
    expect((await me(new Request("http://localhost/x", { headers: { "X-QT-AUTH": token } }), NO_PARAMS)).status).toBe(
      401,
    );
    // Reused code
    const again = await post(resetPassword, "/x", { ...body, "new-password": "yet another password" });
    expect(again.status).toBe(422);
  });

  it("refuses wrong, expired and superseded codes, and a code after 5 wrong tries; unknown e-mail = wrong code", async () => {
    const { email } = await member();
    const db = await getDb();
    await post(sendOtp, "/x", { email });
    const first = await lastCode(email);
    await post(sendOtp, "/x", { email });
    const second = await lastCode(email);
    const reset = (otp: string, to = email) =>
      post(resetPassword, "/x", { email: to, otp, "new-password": "new password 123" });
    if (first !== second) expect((await reset(first)).status).toBe(422); // superseded by the newer code
    for (let i = 0; i < 5; i++) expect((await reset(wrong(second))).status).toBe(422);
    expect((await reset(second)).status).toBe(422); // out of tries: even the right code is dead
    await post(sendOtp, "/x", { email });
    const third = await lastCode(email);
    await db.memberOtp.updateMany({ where: { email, usedAt: null }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect((await reset(third)).status).toBe(422);
    expect((await reset("123456", uniqueEmail("ghost"))).status).toBe(422);
    for (const otp of ["12345", "abcdef", "1234567", ""]) expect((await reset(otp)).status).toBe(400);
    expect((await post(resetPassword, "/x", { email, otp: "123456", "new-password": "short" })).status).toBe(400);
  });

  it("the right code still works after 4 wrong tries (the 5th wrong one ends it)", async () => {
    const { email } = await member();
    await post(sendOtp, "/x", { email });
    const code = await lastCode(email);
    for (let i = 0; i < 4; i++) {
      expect(
        (await post(resetPassword, "/x", { email, otp: wrong(code), "new-password": "new password 123" })).status,
      ).toBe(422);
    }
    expect((await post(resetPassword, "/x", { email, otp: code, "new-password": "new password 123" })).status).toBe(
      200,
    );
  });

  it("two requests with one code at once: exactly one succeeds", async () => {
    const { email } = await member();
    await post(sendOtp, "/x", { email });
    const code = await lastCode(email);
    const results = await Promise.all(
      Array.from({ length: 4 }, (_, i) =>
        post(resetPassword, "/x", { email, otp: code, "new-password": `parallel password ${i}` }),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 422, 422, 422]);
  });
});

describe("update-with-otp", () => {
  it("changes the e-mail with a code sent to the new address; the old address's code does not do it", async () => {
    const { email, token } = await member();
    const next = uniqueEmail("next");
    expect((await post(sendOtp, "/x", { email: next }, token)).status).toBe(200);
    const code = await lastCode(next);
    // A code for the member's own address is not proof of the new one.
    await post(sendOtp, "/x", {}, token);
    const own = await lastCode(email);
    const bad = await post(updateWithOtp, "/x", { otp: own, user: { email: next } }, token);
    expect(bad.status).toBe(422);
    const res = await post(
      updateWithOtp,
      "/api/auth/v1/users/update-with-otp",
      { otp: code, user: { email: next, name: "Otto Neu" } },
      token,
    );
    expect(res.status).toBe(200);
    expect((await json(res)).user).toMatchObject({ email: next, name: "Otto Neu", "email-verified": true });
  });

  it("changes phone and name with the member's own code; 401 logged out, 409 for a taken e-mail, 400 bad input", async () => {
    const { email, token } = await member();
    const other = await member();
    await post(sendOtp, "/x", {}, token);
    const code = await lastCode(email);
    expect((await post(updateWithOtp, "/x", { otp: code, user: { name: "X" } })).status).toBe(401);
    expect((await post(updateWithOtp, "/x", { otp: code, user: { "phone-number": "call me" } }, token)).status).toBe(
      400,
    );
    expect((await post(updateWithOtp, "/x", { otp: code }, token)).status).toBe(400);
    expect((await post(updateWithOtp, "/x", { otp: code, user: { email: other.email } }, token)).status).toBe(409);
    const res = await post(
      updateWithOtp,
      "/x",
      { otp: Number(code) >= 100000 ? Number(code) : code, user: { "phone-number": "+14155550123", name: "Otto" } },
      token,
    );
    expect(res.status).toBe(200);
    expect((await json(res)).user).toMatchObject({ "phone-number": "+14155550123", email });
    // Sending a code to another member's address while logged in sends nothing.
    const before = await (await getDb()).outgoingEmail.count();
    expect((await post(sendOtp, "/x", { email: other.email }, token)).status).toBe(200);
    expect(await (await getDb()).outgoingEmail.count()).toBe(before);
  });
});

describe("profile", () => {
  it("updates the fields given, answers {user}, refuses the e-mail and bad URLs", async () => {
    const { email, token } = await member();
    const res = await post(
      profile,
      "/api/auth/v1/users/profile",
      { name: "Otto P", bio: "<b>hi</b>", "avatar-url": "https://cdn.example.com/a.png", id: 999, "publisher-id": 5 },
      token,
    );
    expect(res.status).toBe(200);
    const user = (await json(res)).user as Record<string, unknown>;
    expect(user).toMatchObject({
      name: "Otto P",
      bio: "<b>hi</b>",
      "avatar-url": "https://cdn.example.com/a.png",
      email,
    });
    expect(user.id).not.toBe(999);
    expect((await post(profile, "/x", { "avatar-url": "javascript:alert(1)" }, token)).status).toBe(400);
    expect((await post(profile, "/x", { name: "" }, token)).status).toBe(400);
    expect((await post(profile, "/x", { email: "someone@else.com" }, token)).status).toBe(422);
    expect((await post(profile, "/x", { email }, token)).status).toBe(200);
    expect((await post(profile, "/x", { name: "X" })).status).toBe(401);
  });
});

describe("send-verification-link and verify-email", () => {
  it("mails a link that verifies the e-mail once and redirects only to the publication's hosts", async () => {
    const { email, member: m } = await member();
    const db = await getDb();
    expect((await post(sendLink, "/x", { email, "redirect-url": "https://evil.example.org/after" })).status).toBe(400);
    const res = await post(sendLink, "/api/auth/v1/users/send-verification-link", {
      email,
      "redirect-url": "https://news.example.com/welcome",
    });
    expect(res.status).toBe(200);
    // Unknown e-mail: same answer, nothing sent.
    const unknown = await post(sendLink, "/x", {
      email: uniqueEmail("nobody"),
      "redirect-url": "https://news.example.com/",
    });
    expect(await json(unknown)).toEqual(await json(res.clone()));
    expect(await db.outgoingEmail.count({ where: { kind: VERIFY_MAIL_KIND } })).toBe(1);
    const mail = await db.outgoingEmail.findFirstOrThrow({ where: { kind: VERIFY_MAIL_KIND } });
    const link = /https:\/\/news\.example\.com\/api\/auth\/v1\/users\/verify-email\?token=(\S+)/.exec(mail.text)!;
    const verify = (token: string) =>
      verifyEmail(new Request(`http://localhost/api/auth/v1/users/verify-email?token=${token}`), NO_PARAMS);
    const ok = await verify(link[1]!);
    expect(ok.status).toBe(303);
    expect(ok.headers.get("location")).toBe("https://news.example.com/welcome");
    expect((await db.member.findUniqueOrThrow({ where: { id: m.id } })).emailVerified).toBe(true);
    expect((await verify(link[1]!)).status).toBe(422);
    expect((await verify("forged-token")).status).toBe(422);
    expect((await verifyEmail(new Request("http://localhost/x"), NO_PARAMS)).status).toBe(400);
    // Verified now: no new link.
    await post(sendLink, "/x", { email });
    expect(await db.outgoingEmail.count({ where: { kind: VERIFY_MAIL_KIND } })).toBe(1);
  });
});
