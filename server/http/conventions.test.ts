import { describe, expect, it } from "vitest";

import { redact } from "../log";
import { checkRateLimit, MemoryRateLimitStore, rateLimitHeaders } from "../rate-limit";
import { corsHeaders, isOriginAllowed } from "./cors";
import { searchParamsToObject } from "./request-body";

describe("CORS decisions", () => {
  it("allows any origin with *, or only the listed ones", () => {
    expect(isOriginAllowed("https://a.example", "*")).toBe(true);
    expect(isOriginAllowed("https://a.example", "https://a.example, https://b.example/")).toBe(true);
    expect(isOriginAllowed("https://b.example", "https://a.example,https://b.example/")).toBe(true);
    expect(isOriginAllowed("https://evil.example", "https://a.example")).toBe(false);
    expect(corsHeaders("https://evil.example", "https://a.example")).toEqual({});
    expect(corsHeaders(null, "*")).toEqual({});
  });

  it("sends cookies (credentials) only to origins listed by name, never under *", () => {
    expect(corsHeaders("https://a.example", "https://a.example")["Access-Control-Allow-Credentials"]).toBe("true");
    expect(corsHeaders("https://a.example", "*")["Access-Control-Allow-Credentials"]).toBeUndefined();
    expect(corsHeaders("https://a.example", "*")["Access-Control-Allow-Origin"]).toBe("https://a.example");
    expect(corsHeaders("https://a.example", "*")["Access-Control-Expose-Headers"]).toContain("X-QT-AUTH");
  });
});

describe("memory rate limiter", () => {
  it("counts a fixed window and starts afresh after it (fake clock)", async () => {
    const store = new MemoryRateLimitStore();
    const rule = { name: "login", limit: 2, windowSeconds: 60 };
    const t0 = new Date("2026-11-22T12:00:00Z");
    const results = [];
    for (let i = 0; i < 3; i++) results.push(await checkRateLimit(store, rule, "1.2.3.4", t0));
    expect(results.map((r) => r.allowed)).toEqual([true, true, false]);
    expect(rateLimitHeaders(results[2]!, new Date(t0.getTime() + 15_000))).toEqual({
      "RateLimit-Limit": "2",
      "RateLimit-Remaining": "0",
      "RateLimit-Reset": "45",
      "Retry-After": "45",
    });
    expect((await checkRateLimit(store, rule, "5.6.7.8", t0)).allowed).toBe(true);
    expect((await checkRateLimit(store, rule, "1.2.3.4", new Date(t0.getTime() + 60_000))).allowed).toBe(true);
  });

  it("stays bounded", async () => {
    const store = new MemoryRateLimitStore(100);
    const t0 = new Date();
    for (let i = 0; i < 1000; i++) await store.hit(`k${i}`, 60_000, t0);
    expect((store as unknown as { windows: Map<string, unknown> }).windows.size).toBeLessThanOrEqual(100);
  });
});

describe("query parameters", () => {
  it("turns repeated keys and key[] into arrays", () => {
    expect(searchParamsToObject(new URLSearchParams("a=1&ids[]=x&ids[]=y&b=2&b=3"))).toEqual({
      a: "1",
      ids: ["x", "y"],
      b: ["2", "3"],
    });
  });
});

describe("log redaction", () => {
  it("hides secret-looking keys at any depth", () => {
    expect(
      redact({ user: "a", password: "p", nested: { "X-SUBAUTH": "k", jwt: "t", list: [{ apiKey: "z", ok: 1 }] } }),
    ).toEqual({
      user: "a",
      password: "[redacted]",
      nested: { "X-SUBAUTH": "[redacted]", jwt: "[redacted]", list: [{ apiKey: "[redacted]", ok: 1 }] },
    });
  });
});
