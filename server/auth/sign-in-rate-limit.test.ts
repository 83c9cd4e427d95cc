import { describe, expect, it } from "vitest";

import { MemoryRateLimitStore } from "../rate-limit";
import { createSignInThrottle } from "./sign-in-rate-limit";

const at = (ms: number) => new Date(ms);

describe("createSignInThrottle", () => {
  it("limits per e-mail and IP, says when to retry, and a success clears that counter", async () => {
    const store = new MemoryRateLimitStore();
    const throttle = createSignInThrottle(async () => store, { perEmailAndIp: 3, perEmail: 100, windowMs: 60_000 });
    const who = { email: "a@example.com", ip: "10.0.0.1" };
    for (let i = 0; i < 3; i++) expect((await throttle.attempt(who, at(0))).allowed).toBe(true);
    expect(await throttle.attempt(who, at(2_000))).toEqual({ allowed: false, retryAfterSeconds: 58 });
    expect((await throttle.attempt({ ...who, ip: "10.0.0.2" }, at(2_000))).allowed).toBe(true);
    await throttle.succeeded(who);
    expect((await throttle.attempt(who, at(2_000))).allowed).toBe(true);
    // A new window starts once the last one (from 2 s, the first attempt after the reset) ends.
    for (let i = 0; i < 3; i++) await throttle.attempt(who, at(3_000));
    expect((await throttle.attempt(who, at(62_000))).allowed).toBe(true);
  });

  it("caps one e-mail across every IP", async () => {
    const store = new MemoryRateLimitStore();
    const throttle = createSignInThrottle(async () => store, { perEmailAndIp: 10, perEmail: 5, windowMs: 60_000 });
    for (let i = 0; i < 5; i++)
      expect((await throttle.attempt({ email: "a@example.com", ip: `10.0.0.${i}` }, at(0))).allowed).toBe(true);
    expect((await throttle.attempt({ email: "a@example.com", ip: "10.0.0.99" }, at(0))).allowed).toBe(false);
    expect((await throttle.attempt({ email: "b@example.com", ip: "10.0.0.99" }, at(0))).allowed).toBe(true);
  });

  it("shares its counts between processes that share a store", async () => {
    const store = new MemoryRateLimitStore();
    const one = createSignInThrottle(async () => store, { perEmailAndIp: 2, windowMs: 60_000 });
    const two = createSignInThrottle(async () => store, { perEmailAndIp: 2, windowMs: 60_000 });
    const who = { email: "a@example.com", ip: "10.0.0.1" };
    expect((await one.attempt(who, at(0))).allowed).toBe(true);
    expect((await two.attempt(who, at(0))).allowed).toBe(true);
    expect((await one.attempt(who, at(0))).allowed).toBe(false);
  });
});
