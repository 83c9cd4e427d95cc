import { describe, expect, it } from "vitest";

import { clearedSessionCookies, memberTokenFromRequest, sessionCookies } from "./member-session";

describe("session token transport", () => {
  const req = (headers: Record<string, string>) => new Request("http://localhost/x", { headers });

  it("reads X-QT-AUTH first, then the qt-auth cookie, then session-cookie", () => {
    expect(memberTokenFromRequest(req({ "X-QT-AUTH": "h", cookie: "qt-auth=c1; session-cookie=c2" }))).toBe("h");
    expect(memberTokenFromRequest(req({ cookie: "session-cookie=c2; qt-auth=c1" }))).toBe("c1");
    expect(memberTokenFromRequest(req({ cookie: "a=b; session-cookie=c2" }))).toBe("c2");
    expect(memberTokenFromRequest(req({ cookie: "qt-auth=; other=1" }))).toBeNull();
    expect(memberTokenFromRequest(req({}))).toBeNull();
    expect(memberTokenFromRequest(req({ "X-QT-AUTH": "x".repeat(201) }))).toBeNull();
  });

  it("writes HttpOnly, SameSite=Lax cookies, Secure only over https, and clears them with Max-Age=0", () => {
    const now = new Date("2026-01-01T00:00:00Z");
    const expiresAt = new Date("2026-01-31T00:00:00Z");
    const [qt, session] = sessionCookies("tok", { expiresAt, now, secure: false });
    expect(qt).toBe(
      "qt-auth=tok; Path=/; Max-Age=2592000; Expires=Sat, 31 Jan 2026 00:00:00 GMT; HttpOnly; SameSite=Lax",
    );
    expect(session).toMatch(/^session-cookie=tok; /);
    expect(sessionCookies("tok", { expiresAt, now, secure: true }).every((c) => c.endsWith("; Secure"))).toBe(true);
    expect(clearedSessionCookies({ secure: false }).every((c) => c.includes("Max-Age=0"))).toBe(true);
  });
});
