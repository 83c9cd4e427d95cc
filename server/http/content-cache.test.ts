import { describe, expect, it } from "vitest";

import { contentResponse, etagOf, keptSearch, matchesEtag } from "./content-cache";

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

  it("key kept answers by the query less the parameters that change nothing, parsing it only when it names them", () => {
    const kept = (search: string) => keptSearch(new URL(`http://t/x${search}`), ["jwt"]);
    expect(kept("?page_ids=a,b&limit=3")).toBe("?page_ids=a,b&limit=3");
    expect(kept("?page_ids=a&jwt=eyJ.x.y")).toBe("?page_ids=a");
    expect(kept("?jwt=eyJ.x.y&page_ids=a")).toBe("?page_ids=a");
    expect(kept("?jwt=eyJ.x.y")).toBe("");
    expect(kept("?page_ids=a&jwt")).toBe("?page_ids=a");
    // Not the parameter: a longer name ending in it, or the name as a value.
    expect(kept("?xjwt=1")).toBe("?xjwt=1");
    expect(kept("?q=jwt")).toBe("?q=jwt");
    // Spelled encoded, it keeps a key of its own: a miss, never another reader's answer.
    expect(kept("?j%77t=eyJ&page_ids=a")).toBe("?j%77t=eyJ&page_ids=a");
  });
});
