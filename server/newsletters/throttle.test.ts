import { describe, expect, it } from "vitest";

import { MemoryRateLimitStore } from "../rate-limit";
import { storeThrottle } from "./throttle";

describe("the newsletter throttle", () => {
  it("lets `perSecond` mails go in each one-second window, and makes the rest wait for the next", async () => {
    const throttle = storeThrottle(new MemoryRateLimitStore(), 3);
    const start = Date.now();
    const at: number[] = [];
    for (let i = 0; i < 7; i++) {
      await throttle.take();
      at.push(Date.now() - start);
    }
    // Three at once, three a second later, the seventh a second after that.
    expect(at.slice(0, 3).every((t) => t < 500)).toBe(true);
    expect(at.slice(3, 6).every((t) => t >= 950 && t < 1700)).toBe(true);
    expect(at[6]).toBeGreaterThanOrEqual(1950);
  });

  it("is shared by whoever uses the same store (two senders, one limit)", async () => {
    const store = new MemoryRateLimitStore();
    const [a, b] = [storeThrottle(store, 2), storeThrottle(store, 2)];
    const start = Date.now();
    await Promise.all([a.take(), b.take()]);
    expect(Date.now() - start).toBeLessThan(500);
    await Promise.all([a.take(), b.take()]);
    expect(Date.now() - start).toBeGreaterThanOrEqual(950);
  });
});
