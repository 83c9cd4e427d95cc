import { describe, expect, it } from "vitest";

import { ENGAGEMENT_RATE_LIMITS, perIpAndReader } from "../http/engagement-limits";
import { rateLimitIdentity } from "../http/rate-limit-rules";
import { EASY_CAPTCHA, encodeCaptcha, solve } from "../testing/captcha";
import { CAPTCHA, captchaSecrets, createCaptchaChallenge, parseCaptchaResponse, verifyCaptcha } from "./captcha";
import { ZGuestName } from "./comments.schema";
import { READER_UPLOAD, saneDimensions } from "./uploads";

const secrets = captchaSecrets({ NODE_ENV: "test", CAPTCHA_SECRET: "c".repeat(32), AUTH_SECRET: undefined });

describe("captchaSecrets", () => {
  it("derives two distinct keys from CAPTCHA_SECRET, else AUTH_SECRET; production needs one", () => {
    expect(secrets.signature).toMatch(/^[0-9a-f]{64}$/);
    expect(secrets.signature).not.toBe(secrets.key);
    const fromAuth = captchaSecrets({ NODE_ENV: "production", CAPTCHA_SECRET: undefined, AUTH_SECRET: "a".repeat(32) });
    expect(fromAuth.signature).not.toBe(secrets.signature);
    expect(() =>
      captchaSecrets({ NODE_ENV: "production", CAPTCHA_SECRET: undefined, AUTH_SECRET: undefined }),
    ).toThrow();
    const dev = captchaSecrets({ NODE_ENV: "development", CAPTCHA_SECRET: undefined, AUTH_SECRET: undefined });
    expect(dev.signature).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe("parseCaptchaResponse", () => {
  it("reads base64 JSON ALTCHA payloads and nothing else", async () => {
    const challenge = await createCaptchaChallenge({
      accountId: 3,
      now: new Date(),
      secrets,
      difficulty: EASY_CAPTCHA,
    });
    const encoded = encodeCaptcha(challenge, await solve(challenge));
    expect(parseCaptchaResponse(encoded)?.challenge.parameters.data.account).toBe(3);
    expect(parseCaptchaResponse(encoded.replace(/=+$/, ""))).not.toBeNull();
    for (const bad of ["", "!!!", "e30=", Buffer.from("null").toString("base64"), "a".repeat(5000)]) {
      expect(parseCaptchaResponse(bad)).toBeNull();
    }
    // Another algorithm (one the server did not issue) is not a payload of ours.
    const other = JSON.parse(Buffer.from(encoded, "base64").toString()) as {
      challenge: { parameters: { algorithm: string } };
    };
    other.challenge.parameters.algorithm = "SHA-256";
    expect(parseCaptchaResponse(Buffer.from(JSON.stringify(other)).toString("base64"))).toBeNull();
  });
});

describe("verifyCaptcha", () => {
  it("passes a solved challenge of the account, with its expiry, and refuses it for another account or once expired", async () => {
    const now = new Date("2026-11-23T10:00:00Z");
    const challenge = await createCaptchaChallenge({
      accountId: 7,
      now: new Date(),
      secrets,
      difficulty: EASY_CAPTCHA,
    });
    const response = encodeCaptcha(challenge, await solve(challenge));
    const ok = await verifyCaptcha({ accountId: 7, response, now: new Date(), secrets });
    expect(ok.digest).toMatch(/^[0-9a-f]{64}$/);
    expect(ok.expiresAt.getTime() - Date.now()).toBeLessThanOrEqual(CAPTCHA.ttlSeconds * 1000);
    await expect(verifyCaptcha({ accountId: 8, response, now: new Date(), secrets })).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
    const later = new Date(Date.now() + (CAPTCHA.ttlSeconds + 1) * 1000);
    await expect(verifyCaptcha({ accountId: 7, response, now: later, secrets })).rejects.toMatchObject({
      message: "The captcha has expired: solve a new challenge.",
    });
    const otherKeys = captchaSecrets({ NODE_ENV: "test", CAPTCHA_SECRET: "d".repeat(32), AUTH_SECRET: undefined });
    await expect(verifyCaptcha({ accountId: 7, response, now, secrets: otherKeys })).rejects.toMatchObject({
      details: [{ field: "body.comment.body.captcha_response", issue: "is forged" }],
    });
  });
});

describe("rate-limit identities", () => {
  const base = { ip: "203.0.113.9", accountId: 4 };
  it("counts readers per account, guests per IP, and skips the rules that do not apply", () => {
    expect(rateLimitIdentity("ip", { ...base, reader: null })).toBe("203.0.113.9");
    expect(rateLimitIdentity("ip+key", { ...base, reader: null })).toBe("4:203.0.113.9");
    expect(rateLimitIdentity("reader", { ...base, reader: "user:ada" })).toBe("4:user:ada");
    expect(rateLimitIdentity("reader", { ...base, reader: null })).toBeNull();
    expect(rateLimitIdentity("guest", { ...base, reader: null })).toBe("203.0.113.9");
    expect(rateLimitIdentity("guest", { ...base, reader: "user:ada" })).toBeNull();
    expect(rateLimitIdentity("key", { ip: "x", accountId: undefined, reader: null })).toBe("anonymous");
  });

  it("counts an IPv6 caller by its /64", () => {
    const v6 = { ip: "2001:db8:1:2:aaaa:bbbb:cccc:dddd", accountId: 4, reader: null };
    expect(rateLimitIdentity("ip", v6)).toBe("2001:db8:1:2::/64");
    expect(rateLimitIdentity("ip+key", v6)).toBe("4:2001:db8:1:2::/64");
    expect(rateLimitIdentity("guest", v6)).toBe("2001:db8:1:2::/64");
  });

  it("gives every engagement write an IP rule and a reader rule", () => {
    expect(perIpAndReader("x", 5, 2, 30)).toEqual([
      { name: "x", limit: 5, windowSeconds: 30, by: "ip" },
      { name: "x.reader", limit: 2, windowSeconds: 30, by: "reader" },
    ]);
    for (const [write, rules] of Object.entries(ENGAGEMENT_RATE_LIMITS)) {
      expect(
        rules.some((r) => r.by === "ip"),
        write,
      ).toBe(true);
      if (write !== "captchaChallenge")
        expect(
          rules.some((r) => r.by === "reader"),
          write,
        ).toBe(true);
    }
    const guest = ENGAGEMENT_RATE_LIMITS.commentCreate.find((r) => r.by === "guest")!;
    const ip = ENGAGEMENT_RATE_LIMITS.commentCreate.find((r) => r.by === "ip")!;
    expect(guest.limit / guest.windowSeconds).toBeLessThan(ip.limit / ip.windowSeconds);
  });
});

describe("readers' uploads and guests' names", () => {
  it("keeps sane dimensions only", () => {
    expect(saneDimensions(1, 1)).toBe(true);
    expect(saneDimensions(READER_UPLOAD.maxSide, 4000)).toBe(true);
    expect(saneDimensions(READER_UPLOAD.maxSide + 1, 1)).toBe(false);
    expect(saneDimensions(7000, 7000)).toBe(false);
    expect(saneDimensions(0, 10)).toBe(false);
    expect(saneDimensions(null, 10)).toBe(false);
  });

  it("takes names of letters, digits, spaces, apostrophes and hyphens, never a link", () => {
    expect(ZGuestName.parse("  Zoë O'Neil-Smith ")).toBe("Zoë O'Neil-Smith");
    for (const bad of ["", "   ", "evil.example", "http://x", "a@b", "<b>", "x".repeat(51)]) {
      expect(ZGuestName.safeParse(bad).success, bad).toBe(false);
    }
  });
});
