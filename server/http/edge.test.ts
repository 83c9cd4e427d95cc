import { describe, expect, it } from "vitest";

import { carriedQuery, carryLongQuery, edgeRefusal, requestIdFrom } from "./edge.js";

describe("edge refusals", () => {
  it("refuses methods no route serves with 405 and the Allow list, on every path", () => {
    for (const method of ["TRACE", "CONNECT", "PROPFIND", "track", "FOO"]) {
      for (const path of ["/api/v1/stories", "/admin"]) {
        const refusal = edgeRefusal(method, path);
        expect(refusal?.status).toBe(405);
        expect(refusal?.code).toBe("METHOD_NOT_ALLOWED");
        expect(refusal?.headers?.Allow).toBe("GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS");
      }
    }
    for (const method of ["GET", "head", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"])
      expect(edgeRefusal(method, "/api/v1/stories")).toBeNull();
  });

  it("refuses a path whose percent-encoding does not decode with 400, and lets good encodings through", () => {
    for (const path of [
      "/api/v1/stories/%E0%A4%A",
      "/api/v1/tags/%",
      "/api/v1/tags/%zz?x=1",
      "/api/v1/custom-urls/%C0%AF",
      "/images/%ED%A0%80",
      "/admin/content/stories/%E0%A4%A",
    ]) {
      const refusal = edgeRefusal("GET", path);
      expect(refusal?.status).toBe(400);
      expect(refusal?.details).toEqual([{ field: "path", issue: "malformed percent-encoding" }]);
    }
    // A bad encoding in the query is the route's to judge (a 400 naming the parameter).
    for (const path of ["/api/v1/custom-urls/%2Fold%2Fpage", "/api/v1/tags/caf%C3%A9", "/api/v1/stories?q=%zz"])
      expect(edgeRefusal("GET", path)).toBeNull();
  });

  it("keeps a sane client request id and refuses anything else", () => {
    expect(requestIdFrom("req-12345678")).toBe("req-12345678");
    for (const bad of [undefined, null, "short", "has space 123456", "x".repeat(101), ["req-12345678"]])
      expect(requestIdFrom(bad)).toBeUndefined();
  });
});

describe("long queries carried past the router", () => {
  const ids = Array.from({ length: 100 }, (_, n) => `aHR0cHMlM0ElMkYlMkZleGFtcGxlLmNvbSUyRiR7${n}%3D`).join("%2C");
  const counts = `/api/v1/accounts/7/pages?page_ids=${ids}`;

  it("carries a long query of the counts path in the header, which gives it back to this process only", () => {
    const carried = carryLongQuery(counts);
    expect(carried?.url).toBe("/api/v1/accounts/7/pages");
    const url = new URL(`http://app.test${carried!.url}`);
    const query = carriedQuery(carried!.header);
    expect(query).toBe(`page_ids=${ids}`);
    url.search = query!;
    expect(url.searchParams.get("page_ids")?.split(",")).toHaveLength(100);
    // Another nonce (a client sending the header itself), no nonce, no header: nothing is believed.
    const [nonce] = carried!.header.split(" ");
    expect(carriedQuery(`${nonce!.replace(/^./, (c) => (c === "a" ? "b" : "a"))} page_ids=forged`)).toBeNull();
    expect(carriedQuery("page_ids=forged")).toBeNull();
    expect(carriedQuery(` page_ids=forged`)).toBeNull();
    expect(carriedQuery(null)).toBeNull();
  });

  it("leaves short queries, other paths and queries that cannot be a header value where they are", () => {
    expect(carryLongQuery("/api/v1/accounts/7/pages?page_ids=abc")).toBeNull();
    expect(carryLongQuery(`/api/v1/accounts/7/pages/${"x".repeat(10)}/comments.json?${"a=1&".repeat(400)}`)).toBeNull();
    expect(carryLongQuery(`/api/trpc/stories.list?input=${"x".repeat(5000)}`)).toBeNull();
    expect(carryLongQuery(`/api/v1/accounts/7/pages?page_ids=${"é".repeat(2000)}`)).toBeNull();
    expect(carryLongQuery(`/api/v1/accounts/7/pages?page_ids=${"x y".repeat(2000)}`)).toBeNull();
    expect(carryLongQuery("/api/v1/accounts/7/pages")).toBeNull();
  });
});
