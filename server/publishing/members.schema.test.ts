import { describe, expect, it } from "vitest";

import { clearedSessionCookies, hashToken, sessionCookies, sessionTokenFromRequest } from "./member-sessions";
import { ZBridgekeeperResetInput, ZMemberLoginInput, ZMemberMetadataInput, ZMemberSignupInput, ZVoteInput } from "./members.schema";

describe("member input schemas", () => {
  it("normalises the e-mail and enforces the password length on sign-up", () => {
    expect(ZMemberSignupInput.parse({ email: "  Ada@Example.COM ", password: "12345678" }).email).toBe("ada@example.com");
    expect(ZMemberSignupInput.safeParse({ email: "ada@example.com", password: "1234567" }).success).toBe(false);
    expect(ZMemberSignupInput.safeParse({ email: "ada@example.com", password: "x".repeat(201) }).success).toBe(false);
    expect(ZMemberSignupInput.safeParse({ email: "ada", password: "12345678" }).success).toBe(false);
  });

  it("needs an e-mail or a username to log in, and checks only the password's maximum", () => {
    expect(ZMemberLoginInput.safeParse({ password: "x" }).success).toBe(false);
    expect(ZMemberLoginInput.safeParse({ username: "ada", password: "x" }).success).toBe(true);
    expect(ZMemberLoginInput.safeParse({ email: "ada@example.com", password: "x".repeat(201) }).success).toBe(false);
  });

  it("takes the vote magnitude as the spec's string or a number, nothing else", () => {
    expect(["1", "+1", 1].map((m) => ZVoteInput.parse({ magnitude: m }).magnitude)).toEqual([1, 1, 1]);
    expect(["-1", -1].map((m) => ZVoteInput.parse({ magnitude: m }).magnitude)).toEqual([-1, -1]);
    for (const bad of ["0", "2", 2, "up", null, true]) expect(ZVoteInput.safeParse({ magnitude: bad }).success).toBe(false);
  });

  it("unwraps {metadata: {...}} only when it is the sole key, and caps the size at 16 KB", () => {
    expect(ZMemberMetadataInput.parse({ metadata: { a: 1 } })).toEqual({ a: 1 });
    expect(ZMemberMetadataInput.parse({ metadata: { a: 1 }, b: 2 })).toEqual({ metadata: { a: 1 }, b: 2 });
    expect(ZMemberMetadataInput.parse({ metadata: "text" })).toEqual({ metadata: "text" });
    expect(ZMemberMetadataInput.safeParse([1]).success).toBe(false);
    expect(ZMemberMetadataInput.safeParse({ a: "x".repeat(16 * 1024) }).success).toBe(false);
  });

  it("checks that bridgekeeper's two new passwords match", () => {
    expect(ZBridgekeeperResetInput.safeParse({ token: "t", "new-password": "12345678", "confirm-password": "12345678" }).success).toBe(true);
    expect(ZBridgekeeperResetInput.safeParse({ token: "t", "new-password": "12345678", "confirm-password": "87654321" }).success).toBe(false);
  });
});

describe("session token transport", () => {
  const req = (headers: Record<string, string>) => new Request("http://localhost/x", { headers });

  it("reads X-QT-AUTH first, then the qt-auth cookie, then session-cookie", () => {
    expect(sessionTokenFromRequest(req({ "X-QT-AUTH": "h", cookie: "qt-auth=c1; session-cookie=c2" }))).toBe("h");
    expect(sessionTokenFromRequest(req({ cookie: "session-cookie=c2; qt-auth=c1" }))).toBe("c1");
    expect(sessionTokenFromRequest(req({ cookie: "a=b; session-cookie=c2" }))).toBe("c2");
    expect(sessionTokenFromRequest(req({ cookie: "qt-auth=; other=1" }))).toBeNull();
    expect(sessionTokenFromRequest(req({}))).toBeNull();
  });

  it("writes HttpOnly, SameSite=Lax cookies, Secure only over https, and clears them with Max-Age=0", () => {
    const now = new Date("2026-01-01T00:00:00Z");
    const expiresAt = new Date("2026-01-31T00:00:00Z");
    const [qt, session] = sessionCookies("tok", { expiresAt, now, secure: false });
    expect(qt).toBe("qt-auth=tok; Path=/; Max-Age=2592000; Expires=Sat, 31 Jan 2026 00:00:00 GMT; HttpOnly; SameSite=Lax");
    expect(session).toMatch(/^session-cookie=tok; /);
    expect(sessionCookies("tok", { expiresAt, now, secure: true }).every((c) => c.endsWith("; Secure"))).toBe(true);
    expect(clearedSessionCookies({ secure: false }).every((c) => c.includes("Max-Age=0"))).toBe(true);
  });

  it("stores a SHA-256 digest, never the token", () => {
    expect(hashToken("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  });
});
