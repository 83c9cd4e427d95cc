/**
 * The response cache's own rules (./response-cache.ts): purges by key and by account, the
 * generation that keeps a build which raced a purge out, the byte bound (least recently used out
 * first), lifetimes, and answering nothing while caches are off.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { setCacheMode } from "./process-cache";
import {
  keepValue,
  peekKept,
  RESPONSE_TTL_MS,
  ResponseCache,
  responseCache,
  type CachedResponse,
} from "./response-cache";

const answer = (body: string, tags: string[]): CachedResponse => ({
  body: Buffer.from(body),
  contentType: "application/json; charset=utf-8",
  etag: `W/"${body}"`,
  tags,
  headers: {},
});

/** A kept answer's body as text. */
const text = (kept: CachedResponse | undefined) => (kept ? Buffer.from(kept.body).toString() : undefined);

beforeEach(() => setCacheMode("local"));
afterEach(() => setCacheMode("off"));

describe("ResponseCache", () => {
  it("drops the entries carrying a purged key, of that account only", () => {
    const cache = new ResponseCache(() => 1_000_000);
    cache.set("1 /a", 1, cache.generation(), answer("a", ["s/1", "stories"]));
    cache.set("1 /b", 1, cache.generation(), answer("b", ["s/2"]));
    cache.set("2 /a", 2, cache.generation(), answer("a2", ["s/1", "stories"]));
    cache.purge({ account: 1, tags: ["stories"] });
    expect(cache.get("1 /a")).toBeUndefined();
    expect(text(cache.get("1 /b"))).toBe("b");
    expect(text(cache.get("2 /a"))).toBe("a2");
    cache.purge({ account: 2, tags: null });
    expect(cache.get("2 /a")).toBeUndefined();
    expect(text(cache.get("1 /b"))).toBe("b");
  });

  it("replaces an answer built again under its key, dropped afterwards by the keys it now carries", () => {
    const cache = new ResponseCache(() => 1_000_000);
    cache.set("1 /a", 1, cache.generation(), answer("one", ["s/1", "stories"]));
    const used = cache.usedBytes;
    // Built again (a no-cache read) with the same keys: the new body, the same index.
    cache.set("1 /a", 1, cache.generation(), answer("two", ["s/1", "stories"]));
    expect(text(cache.get("1 /a"))).toBe("two");
    expect(cache.usedBytes).toBe(used);
    cache.set("1 /a", 1, cache.generation(), answer("longer", ["s/1", "stories"]));
    expect(cache.usedBytes).toBe(used + 3);
    cache.purge({ account: 1, tags: ["s/1"] });
    expect(cache.get("1 /a")).toBeUndefined();
    expect(cache.usedBytes).toBe(0);
    // Built again with other keys: the ones it no longer carries do not drop it.
    cache.set("1 /a", 1, cache.generation(), answer("one", ["s/1", "stories"]));
    cache.set("1 /a", 1, cache.generation(), answer("three", ["s/3", "stories"]));
    cache.purge({ account: 1, tags: ["s/1"] });
    expect(text(cache.get("1 /a"))).toBe("three");
    cache.purge({ account: 1, tags: ["s/3"] });
    expect(cache.get("1 /a")).toBeUndefined();
    // Built again while a purge of one of its keys committed: neither copy is kept.
    cache.set("1 /a", 1, cache.generation(), answer("one", ["s/1", "stories"]));
    const before = cache.generation();
    cache.purge({ account: 1, tags: ["stories"] });
    cache.set("1 /a", 1, before, answer("old", ["s/1", "stories"]));
    expect(cache.get("1 /a")).toBeUndefined();
  });

  it("does not keep a response built before a purge of one of its keys (or its account) that committed meanwhile", () => {
    const cache = new ResponseCache(() => 1_000_000);
    // The build read the old rows; the change committed and purged one of its keys while it ran.
    let before = cache.generation();
    cache.purge({ account: 1, tags: ["s/1"] });
    cache.set("1 /a", 1, before, answer("old", ["s/1", "stories"]));
    expect(cache.get("1 /a")).toBeUndefined();
    // A purge of the whole account meanwhile holds it back too.
    before = cache.generation();
    cache.purge({ account: 1, tags: null });
    cache.set("1 /a", 1, before, answer("old", ["s/1"]));
    expect(cache.get("1 /a")).toBeUndefined();
    // Purges of keys the answer does not carry (another story, a reader's meter), or of another
    // account, do not.
    before = cache.generation();
    cache.purge({ account: 1, tags: ["s/9", "meter/a:1"] });
    cache.purge({ account: 2, tags: null });
    cache.set("1 /a", 1, before, answer("new", ["s/1"]));
    expect(text(cache.get("1 /a"))).toBe("new");
    // Clearing everything (the listener reconnected) holds back every build under way.
    const beforeClear = cache.generation();
    cache.clear();
    cache.set("1 /b", 1, beforeClear, answer("b", ["s/2"]));
    expect(cache.get("1 /b")).toBeUndefined();
  });

  it("forgets old purge records past its bound, holding back only the builds that began before", () => {
    const cache = new ResponseCache(() => 1_000_000);
    const before = cache.generation();
    for (let n = 0; n <= 50_000; n++) cache.purge({ account: 1, tags: [`meter/${n}`] });
    // The records were forgotten: a build that began before them cannot be told safe.
    cache.set("1 /a", 1, before, answer("old", ["s/1"]));
    expect(cache.get("1 /a")).toBeUndefined();
    const after = cache.generation();
    cache.set("1 /a", 1, after, answer("new", ["s/1"]));
    expect(text(cache.get("1 /a"))).toBe("new");
  });

  it("stays under its byte bound, dropping the least recently used first, and forgets purged tags", () => {
    const body = "x".repeat(1_000);
    // Each entry counts about 1,500 bytes: four fit in 6,100.
    const cache = new ResponseCache(() => 6_100);
    for (const key of ["a", "b", "c", "d"]) cache.set(key, 1, 0, answer(body, [`k/${key}`]));
    expect(cache.size).toBe(4);
    expect(cache.get("a")).toBeDefined(); // a is now the most recent
    cache.set("e", 1, 0, answer(body, ["k/e"]));
    expect(cache.usedBytes).toBeLessThanOrEqual(6_100);
    expect(cache.get("b")).toBeUndefined();
    expect(cache.get("a")).toBeDefined();
    expect(cache.get("e")).toBeDefined();
    // Too large for the bound: not kept at all.
    cache.set("big", 1, 0, answer("y".repeat(20_000), ["k/big"]));
    expect(cache.get("big")).toBeUndefined();
    // A replaced entry's old key no longer drops it.
    cache.set("a", 1, 0, answer(body, ["k/other"]));
    cache.purge({ account: 1, tags: ["k/a"] });
    expect(cache.get("a")).toBeDefined();
  });

  it("moves a hit to the most recent end unless it is among the last quarter put there (nearly LRU)", () => {
    const key = (prefix: string, n: number) => `${prefix}${String(n).padStart(3, "0")}`;
    // Every entry counts 521 bytes (a 1-byte body, a 4-character key): 100 fit.
    const cache = new ResponseCache(() => 100 * 521);
    for (let n = 0; n < 100; n++) cache.set(key("k", n), 1, 0, answer("x", []));
    expect(cache.get(key("k", 10))).toBeDefined(); // old: moved to the end
    expect(cache.get(key("k", 90))).toBeDefined(); // among the last 25 put there: stays in its place
    for (let n = 0; n < 90; n++) cache.set(key("n", n), 1, 0, answer("x", []));
    expect(cache.size).toBe(100);
    // The 90 oldest went, k000 to k090 but k010; k090 went in its place, before k091.
    const kept = (n: number) => cache.get(key("k", n)) !== undefined;
    expect([9, 10, 11, 89, 90, 91, 99].map(kept)).toEqual([false, true, false, false, false, true, true]);
  });

  it("expires entries after their lifetime, the shorter of the answer's and the backstop", () => {
    const cache = new ResponseCache(() => 1_000_000);
    cache.set("short", 1, 0, answer("s", ["k"]), { ttlMs: 1_000, now: 0 });
    cache.set("long", 1, 0, answer("l", ["k"]), { ttlMs: 10 * RESPONSE_TTL_MS, now: 0 });
    expect(text(cache.get("short", 999))).toBe("s");
    expect(cache.get("short", 1_000)).toBeUndefined();
    expect(text(cache.get("long", RESPONSE_TTL_MS - 1))).toBe("l");
    expect(cache.get("long", RESPONSE_TTL_MS)).toBeUndefined();
  });

  it("answers and keeps nothing while caches are off, or with a bound of 0", () => {
    const cache = new ResponseCache(() => 1_000_000);
    setCacheMode("off");
    cache.set("a", 1, 0, answer("a", ["k"]));
    setCacheMode("local");
    expect(cache.get("a")).toBeUndefined();
    const none = new ResponseCache(() => 0);
    none.set("a", 1, 0, answer("a", ["k"]));
    expect(none.get("a")).toBeUndefined();
  });
});

describe("kept values", () => {
  it("are read as the value's JSON parsed once and frozen, the same for every reader, dropped by their keys", () => {
    const story = { access: "subscription", accessLevelValue: null, collectionIds: [3, 5], at: new Date(0) };
    keepValue(7, "7 test:kept", responseCache().generation(), story, ["s/kept"]);
    const first = peekKept<{ access: string; collectionIds: number[]; at: string }>("7 test:kept")!;
    // What survives JSON: the Date as its string, a copy rather than the object given.
    expect(first).toEqual({
      access: "subscription",
      accessLevelValue: null,
      collectionIds: [3, 5],
      at: "1970-01-01T00:00:00.000Z",
    });
    expect(first).not.toBe(story);
    expect(peekKept("7 test:kept")).toBe(first);
    expect(Object.isFrozen(first) && Object.isFrozen(first.collectionIds)).toBe(true);
    expect(() => first.collectionIds.push(9)).toThrow(TypeError);
    // Changing what was given changes nothing kept.
    story.collectionIds.push(8);
    expect(peekKept<typeof first>("7 test:kept")!.collectionIds).toEqual([3, 5]);
    responseCache().purge({ account: 7, tags: ["s/kept"] });
    expect(peekKept("7 test:kept")).toBeUndefined();
  });

  it("keep nothing for a value JSON cannot write, and false and empty lists as they are", () => {
    keepValue(7, "7 test:undefined", responseCache().generation(), undefined, ["k"]);
    expect(peekKept("7 test:undefined")).toBeUndefined();
    keepValue(7, "7 test:false", responseCache().generation(), false, ["k"]);
    expect(peekKept("7 test:false")).toBe(false);
    keepValue(7, "7 test:empty", responseCache().generation(), [], ["k"]);
    expect(peekKept("7 test:empty")).toEqual([]);
  });
});
