import { describe, expect, it } from "vitest";

import { PEER_ADDRESS_HEADER, setPeerAddress } from "../security/peer-address.js";
import { absoluteFormTarget, edgeRefusal, pageAddress, requestIdFrom } from "./edge.js";
import { json } from "./respond";

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

  it("refuses a target that is not a path, and a request without exactly one Host (none is fine in HTTP/1.0)", () => {
    for (const target of ["*", "x", "http://localhost/api", ""]) {
      expect(edgeRefusal("GET", target)?.details).toEqual([
        { field: "path", issue: "is not a path (origin-form, such as /api/v1/stories)" },
      ]);
    }
    const host = (hostHeaders: number, httpVersion = "1.1") =>
      edgeRefusal("GET", "/api/v1/stories", { hostHeaders, httpVersion })?.details;
    expect(host(1)).toBeUndefined();
    expect(host(0, "1.0")).toBeUndefined();
    expect(host(0)).toEqual([{ field: "headers.host", issue: "is missing" }]);
    expect(host(2)).toEqual([{ field: "headers.host", issue: "is sent more than once" }]);
  });

  it("reads an absolute-form target as its path and host, and nothing else as one", () => {
    expect(absoluteFormTarget("http://news.example:8080/api/v1/stories?limit=2")).toEqual({
      path: "/api/v1/stories?limit=2",
      host: "news.example:8080",
    });
    expect(absoluteFormTarget("HTTPS://news.example")).toEqual({ path: "/", host: "news.example" });
    for (const other of ["/api/v1/stories", "*", "ftp://x/y", "http://[::1", "//news.example/x"])
      expect(absoluteFormTarget(other)).toBeUndefined();
  });

  it("keeps a sane client request id and refuses anything else", () => {
    expect(requestIdFrom("req-12345678")).toBe("req-12345678");
    for (const bad of [undefined, null, "short", "has space 123456", "x".repeat(101), ["req-12345678"]])
      expect(requestIdFrom(bad)).toBeUndefined();
  });
});

describe("pageAddress", () => {
  it("gives a dashboard page the address it was opened at, query kept and Next.js's marker dropped; nothing for other paths", () => {
    expect(pageAddress("/admin")).toBe("/admin");
    expect(pageAddress("/admin/content/stories?status=draft")).toBe("/admin/content/stories?status=draft");
    expect(pageAddress("/admin/content/stories?status=draft&_rsc=1x2y")).toBe("/admin/content/stories?status=draft");
    for (const other of ["/api/v1/stories?x=1", "/administrator", "/member/login", "/"])
      expect(pageAddress(other)).toBeUndefined();
  });
});

describe("setPeerAddress", () => {
  it("puts the socket's address in the peer header over whatever a client sent, and removes it without one", () => {
    const sent: Record<string, string | string[] | undefined> = { [PEER_ADDRESS_HEADER]: "203.0.113.66, 10.0.0.1" };
    setPeerAddress(sent, "192.0.2.1");
    expect(sent[PEER_ADDRESS_HEADER]).toBe("192.0.2.1");
    const forged: Record<string, string | string[] | undefined> = { [PEER_ADDRESS_HEADER]: "203.0.113.66", a: "1" };
    setPeerAddress(forged, undefined);
    expect(forged).toEqual({ a: "1" });
    const none: Record<string, string | string[] | undefined> = {};
    setPeerAddress(none, "::1");
    expect(none).toEqual({ [PEER_ADDRESS_HEADER]: "::1" });
  });
});

describe("json()", () => {
  it("answers the data as JSON with the given status and headers", async () => {
    const data = { headline: "Tram line opens", by: "Zoë" };
    const res = json(data, { status: 201, headers: { "Cache-Control": "no-store" } });
    expect(res.status).toBe(201);
    expect(res.headers.get("content-type")).toBe("application/json");
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(JSON.parse(await res.text())).toEqual(data);
    expect(json(data, { headers: { "content-type": "application/problem+json" } }).headers.get("content-type")).toBe(
      "application/problem+json",
    );
  });
});
