import { describe, expect, it } from "vitest";

import { contentResponse, etagOf, matchesEtag } from "./content-cache";

describe("content responses", () => {
  it("carry an ETag of the body, cache headers and purge tags", async () => {
    const res = contentResponse(new Request("http://t/x"), { a: 1 }, { tags: ["s/1", "c/2", "s/1"], sMaxAge: 30 });
    expect(res.status).toBe(200);
    expect(res.headers.get("etag")).toBe(etagOf('{"a":1}'));
    expect(res.headers.get("cache-control")).toContain("s-maxage=30");
    expect(res.headers.get("surrogate-key")).toBe("s/1 c/2");
    expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(await res.json()).toEqual({ a: 1 });
  });

  it("answer 304 with no body when If-None-Match holds the ETag, weak or strong, in a list", async () => {
    const etag = etagOf('{"a":1}');
    for (const header of [etag, etag.replace("W/", ""), `"other", ${etag}`, "*"]) {
      const res = contentResponse(new Request("http://t/x", { headers: { "If-None-Match": header } }), { a: 1 });
      expect(res.status).toBe(304);
      expect(await res.text()).toBe("");
    }
    expect(
      contentResponse(new Request("http://t/x", { headers: { "If-None-Match": '"stale"' } }), { a: 1 }).status,
    ).toBe(200);
  });

  it("compare ETags exactly", () => {
    expect(matchesEtag(null, 'W/"a"')).toBe(false);
    expect(matchesEtag('W/"ab"', 'W/"a"')).toBe(false);
  });
});
