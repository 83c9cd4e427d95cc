import { describe, expect, it } from "vitest";

import { createFixedWindowLimiter, createSignInThrottle } from "./sign-in-rate-limit";

describe("createFixedWindowLimiter", () => {
  it("allows `limit` hits per window, then refuses until the window ends", () => {
    const limiter = createFixedWindowLimiter({ limit: 2, windowMs: 60_000 });
    expect(limiter.hit("k", 0)).toEqual({ allowed: true });
    expect(limiter.hit("k", 1_000)).toEqual({ allowed: true });
    expect(limiter.hit("k", 2_000)).toEqual({ allowed: false, retryAfterSeconds: 58 });
    expect(limiter.hit("other", 2_000)).toEqual({ allowed: true });
    expect(limiter.hit("k", 60_000)).toEqual({ allowed: true });
  });
});

describe("createSignInThrottle", () => {
  it("limits per e-mail and IP, and a success clears that counter", () => {
    const throttle = createSignInThrottle({ perEmailAndIp: 3, perEmail: 100, windowMs: 60_000 });
    const who = { email: "a@example.com", ip: "10.0.0.1" };
    for (let i = 0; i < 3; i++) expect(throttle.attempt(who, 0).allowed).toBe(true);
    expect(throttle.attempt(who, 0).allowed).toBe(false);
    expect(throttle.attempt({ ...who, ip: "10.0.0.2" }, 0).allowed).toBe(true);
    throttle.succeeded(who);
    expect(throttle.attempt(who, 0).allowed).toBe(true);
  });

  it("caps one e-mail across every IP", () => {
    const throttle = createSignInThrottle({ perEmailAndIp: 10, perEmail: 5, windowMs: 60_000 });
    for (let i = 0; i < 5; i++)
      expect(throttle.attempt({ email: "a@example.com", ip: `10.0.0.${i}` }, 0).allowed).toBe(true);
    expect(throttle.attempt({ email: "a@example.com", ip: "10.0.0.99" }, 0).allowed).toBe(false);
    expect(throttle.attempt({ email: "b@example.com", ip: "10.0.0.99" }, 0).allowed).toBe(true);
  });
});
