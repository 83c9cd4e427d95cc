import { randomBytes } from "node:crypto";

import { describe, expect, it } from "vitest";

import { AppError } from "../errors";
import { canonicalJson, decodeBulkKey, encodeBulkKey, MAX_KEY_CHARS, parseBulkRequests } from "./bulk";

describe("bulk request keys", () => {
  it("are the same for the same requests in any key order, and decode back", () => {
    const a = { home: { _type: "collection", slug: "home", limit: 3 }, top: { limit: 2, "story-group": "top" } };
    const b = { top: { "story-group": "top", limit: 2 }, home: { limit: 3, slug: "home", _type: "collection" } };
    expect(canonicalJson(a)).toBe(canonicalJson(b));
    const key = encodeBulkKey(a);
    expect(key).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(encodeBulkKey(b)).toBe(key);
    expect(decodeBulkKey(key)).toEqual(JSON.parse(canonicalJson(a)));
  });

  it("refuse requests too big for a URL (413) and keys that are not ours (400)", () => {
    // Incompressible: random names and slugs.
    const huge = Object.fromEntries(
      Array.from({ length: 25 }, () => [
        randomBytes(100).toString("base64url"),
        { _type: "collection", slug: randomBytes(210).toString("base64url") },
      ]),
    );
    let error: unknown;
    try {
      encodeBulkKey(huge);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe("PAYLOAD_TOO_LARGE");
    expect(MAX_KEY_CHARS).toBeLessThan(8_000);
    for (const key of ["AAAA", "not json", ""]) expect(() => decodeBulkKey(key)).toThrow(AppError);
  });

  it("validate every request with details under its name", () => {
    try {
      parseBulkRequests({ ok: { limit: 1 }, bad: { _type: "collection", limit: "x" } });
      expect.unreachable();
    } catch (e) {
      expect((e as AppError).details?.map((d) => d.field).sort()).toEqual([
        "body.requests.bad.limit",
        "body.requests.bad.slug",
      ]);
    }
  });
});
