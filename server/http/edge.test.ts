import http from "node:http";
import type { AddressInfo } from "node:net";
import { gunzipSync, gzipSync } from "node:zlib";

import { describe, expect, it } from "vitest";

import {
  edgeRefusal,
  ENCODED_HEADER,
  LENGTH_HEADER,
  passBodyHeaders,
  releaseRouted,
  requestIdFrom,
  ROUTED_PATH,
  routedRequest,
  routeRequest,
  setPassesBodyHeaders,
} from "./edge.js";
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

  it("keeps a sane client request id and refuses anything else", () => {
    expect(requestIdFrom("req-12345678")).toBe("req-12345678");
    for (const bad of [undefined, null, "short", "has space 123456", "x".repeat(101), ["req-12345678"]])
      expect(requestIdFrom(bad)).toBeUndefined();
  });
});

describe("requests routed past the router", () => {
  /** The query a header's ticket holds (null when it is not believed). */
  const routedQuery = (header: string | null) => routedRequest(header)?.query ?? null;

  const ids = Array.from({ length: 100 }, (_, n) => `aHR0cHMlM0ElMkYlMkZleGFtcGxlLmNvbSUyRiR7${n}%3D`).join("%2C");
  const counts = `/api/v1/accounts/7/pages?page_ids=${ids}`;

  it("routes the counts path with its long query past the router, a ticket to it in the header, for this process only", () => {
    const routed = routeRequest(counts);
    expect(routed?.url).toBe(ROUTED_PATH);
    // The header holds a short ticket, not the query.
    expect(routed!.header.length).toBeLessThan(60);
    expect(routedRequest(routed!.header)).toEqual({
      query: `page_ids=${ids}`,
      path: "/api/v1/accounts/7/pages",
      route: "/api/v1/accounts/[account_id]/pages",
      params: { account_id: "7" },
    });
    const url = new URL(`http://app.test${routed!.url}`);
    url.search = routedQuery(routed!.header)!;
    expect(url.searchParams.get("page_ids")?.split(",")).toHaveLength(100);
    // Each request its own ticket and query.
    const other = routeRequest(`${counts}%2Cmore`);
    expect(other!.header).not.toBe(routed!.header);
    expect(routedQuery(other!.header)).toBe(`page_ids=${ids}%2Cmore`);
    expect(routedQuery(routed!.header)).toBe(`page_ids=${ids}`);
    // Another nonce (a client sending the header itself), no nonce, a ticket not given, no header:
    // nothing is believed.
    const [nonce, ticket] = routed!.header.split(" ");
    expect(routedQuery(`${nonce!.replace(/^./, (c) => (c === "a" ? "b" : "a"))} ${ticket}`)).toBeNull();
    expect(routedQuery(ticket!)).toBeNull();
    expect(routedQuery(` ${ticket}`)).toBeNull();
    expect(routedQuery(`${nonce} page_ids=forged`)).toBeNull();
    expect(routedQuery(`${nonce} 999999999`)).toBeNull();
    expect(routedQuery(null)).toBeNull();
    // Released when the response closes: the ticket then holds nothing.
    releaseRouted(routed!.header);
    expect(routedQuery(routed!.header)).toBeNull();
    expect(routedQuery(other!.header)).toBe(`page_ids=${ids}%2Cmore`);
    releaseRouted(other!.header);
    expect(routedQuery(other!.header)).toBeNull();
  });

  it("routes a page's comments and the counts, short queries and none too, the page id decoded", () => {
    const page = "aHR0cHMlM0ElMkYlMkZleGFtcGxlLmNvbSUyRmE/Yj0x+Zz==";
    const sent = encodeURIComponent(page);
    for (const [target, expected] of [
      [
        `/api/v1/accounts/7/pages/${sent}/comments.json?sort=oldest&limit=5`,
        {
          query: "sort=oldest&limit=5",
          path: `/api/v1/accounts/7/pages/${sent}/comments.json`,
          route: "/api/v1/accounts/[account_id]/pages/[encoded_url]/comments.json",
          params: { account_id: "7", encoded_url: page },
        },
      ],
      [
        `/api/v1/accounts/demo/pages/${page.replaceAll("/", "%2F")}/comments.json`,
        {
          query: "",
          path: `/api/v1/accounts/demo/pages/${page.replaceAll("/", "%2F")}/comments.json`,
          route: "/api/v1/accounts/[account_id]/pages/[encoded_url]/comments.json",
          params: { account_id: "demo", encoded_url: page },
        },
      ],
      [
        "/api/v1/accounts/7/pages?page_ids=abc",
        {
          query: "page_ids=abc",
          path: "/api/v1/accounts/7/pages",
          route: "/api/v1/accounts/[account_id]/pages",
          params: { account_id: "7" },
        },
      ],
    ] as const) {
      const routed = routeRequest(target);
      expect(routed?.url, target).toBe(ROUTED_PATH);
      expect(routedRequest(routed!.header), target).toEqual(expected);
      releaseRouted(routed!.header);
    }
    // Left to Next.js: a trailing slash (its 308 keeps the query), a page's other routes, a deeper
    // path, a page id that does not decode, a query of other bytes.
    for (const target of [
      `/api/v1/accounts/7/pages/?page_ids=${ids}`,
      "/api/v1/accounts/7/pages/?page_ids=abc",
      `/api/v1/accounts/7/pages/${sent}/comments.json/?sort=oldest`,
      `/api/v1/accounts/7/pages/${sent}/comments/12/report`,
      `/api/v1/accounts/7/pages/${sent}/reactions`,
      `/api/v1/accounts/7/pages/${sent}/metadata`,
      `/api/v1/accounts/7/pages/${sent}`,
      "/api/v1/accounts/7/pages/%E0%A4%A/comments.json",
      `/api/v1/accounts/7/pages?page_ids=${"é".repeat(10)}`,
    ])
      expect(routeRequest(target), target).toBeNull();
  });

  it("routes the access checks and pingbacks to the static route, with their path, parameters and query", () => {
    const story = "3f0c5b9e-1111-4222-8333-944455556666";
    for (const endpoint of ["access", "amp-access", "pingback", "amp-pingback"]) {
      const path = `/api/access/v1/stories/${story}/${endpoint}`;
      const routed = routeRequest(`${path}?key=k&readerId=r1`);
      expect(routed?.url).toBe(ROUTED_PATH);
      expect(routedRequest(routed!.header)).toEqual({
        query: "key=k&readerId=r1",
        path,
        route: `/api/access/v1/stories/[storyId]/${endpoint}`,
        params: { storyId: story },
      });
      releaseRouted(routed!.header);
      expect(routedRequest(routed!.header)).toBeNull();
    }
    // Without a query or with an empty one too (the route answers 401 as it would).
    for (const target of [`/api/access/v1/stories/${story}/access`, `/api/access/v1/stories/${story}/access?`]) {
      const routed = routeRequest(target);
      expect(routed?.url).toBe(ROUTED_PATH);
      expect(routedRequest(routed!.header)).toMatchObject({ query: "", params: { storyId: story } });
      releaseRouted(routed!.header);
    }
    // The parameter decoded, as Next.js hands it over; the path kept as sent.
    const encoded = routeRequest("/api/access/v1/stories/caf%C3%A9%2Fx/access?key=k");
    expect(routedRequest(encoded!.header)).toMatchObject({
      path: "/api/access/v1/stories/caf%C3%A9%2Fx/access",
      params: { storyId: "café/x" },
    });
    releaseRouted(encoded!.header);
    // Left to Next.js: another path under the story, a deeper one, a trailing slash (Next.js
    // redirects it), a story's own read, an encoding that does not decode, a query of other bytes.
    for (const target of [
      `/api/access/v1/stories/${story}/accessible?key=k`,
      `/api/access/v1/stories/${story}/access/more?key=k`,
      `/api/access/v1/stories/${story}/access/?key=k`,
      `/api/access/v1/stories/${story}?key=k`,
      `/api/v1/stories/${story}?key=k`,
      "/api/access/v1/stories/%E0%A4%A/access?key=k",
      `/api/access/v1/stories/${story}/access?readerId=é`,
    ])
      expect(routeRequest(target), target).toBeNull();
  });

  it("believes a routed ticket only with this process's nonce", () => {
    const routed = routeRequest("/api/access/v1/stories/s1/access?key=k");
    const [nonce, ticket] = routed!.header.split(" ");
    expect(routedRequest(`${nonce!.replace(/^./, (c) => (c === "a" ? "b" : "a"))} ${ticket}`)).toBeNull();
    expect(routedRequest(ticket!)).toBeNull();
    expect(routedRequest(`${nonce} s1`)).toBeNull();
    releaseRouted(routed!.header);
  });

  it("leaves other paths, and queries that cannot be a header value, where they are", () => {
    expect(routeRequest(`/api/trpc/stories.list?input=${"x".repeat(5000)}`)).toBeNull();
    expect(routeRequest(`/api/v1/stories?${"a=1&".repeat(400)}`)).toBeNull();
    expect(routeRequest(`/api/v1/accounts/7/pages?page_ids=${"é".repeat(2000)}`)).toBeNull();
    expect(routeRequest(`/api/v1/accounts/7/pages?page_ids=${"x y".repeat(2000)}`)).toBeNull();
    expect(routeRequest("/api/v1/accounts/7")).toBeNull();
  });
});

describe("body headers passed by the server in front", () => {
  /** A server as serve.mjs makes it (passBodyHeaders first), whose handler writes as Next.js does: appendHeader, then the body. */
  async function exchange(write: (res: http.ServerResponse) => void, method = "GET") {
    const server = http.createServer((req, res) => {
      passBodyHeaders(res);
      write(res);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    try {
      return await new Promise<{ headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
        const req = http.request({ port, host: "127.0.0.1", method, headers: { "accept-encoding": "gzip" } }, (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (chunk: Buffer) => chunks.push(chunk));
          res.on("end", () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
        });
        req.on("error", reject);
        req.end();
      });
    } finally {
      server.close();
    }
  }

  it("makes the route's length the Content-Length and its encoding the Content-Encoding, and sends neither of its own", async () => {
    const body = JSON.stringify({ granted: true, note: "café" });
    const sized = await exchange((res) => {
      res.appendHeader("content-type", "application/json");
      res.appendHeader(LENGTH_HEADER, String(Buffer.byteLength(body)));
      res.end(body);
    });
    expect(sized.headers["content-length"]).toBe(String(Buffer.byteLength(body)));
    expect(sized.headers["transfer-encoding"]).toBeUndefined();
    expect(sized.headers[LENGTH_HEADER]).toBeUndefined();
    expect(sized.body.toString()).toBe(body);

    const gzipped = gzipSync(body);
    const encoded = await exchange((res) => {
      res.setHeader(ENCODED_HEADER, "gzip");
      res.setHeader(LENGTH_HEADER, String(gzipped.byteLength));
      res.end(gzipped);
    });
    expect(encoded.headers["content-encoding"]).toBe("gzip");
    expect(encoded.headers[ENCODED_HEADER]).toBeUndefined();
    expect(gunzipSync(encoded.body).toString()).toBe(body);

    // Other headers are appended as they were.
    const other = await exchange((res) => {
      res.appendHeader("vary", "Origin");
      res.appendHeader("vary", "Accept-Encoding");
      res.end("{}");
    });
    expect(other.headers.vary).toBe("Origin, Accept-Encoding");
  });

  it("json() names the exact byte length only when such a server is in front", async () => {
    const data = { headline: "Tram line opens", by: "Zoë" };
    try {
      setPassesBodyHeaders(true);
      const res = json(data, { status: 201, headers: { "Cache-Control": "no-store" } });
      expect(res.status).toBe(201);
      expect(res.headers.get("content-type")).toBe("application/json");
      expect(res.headers.get("cache-control")).toBe("no-store");
      const text = await res.text();
      expect(JSON.parse(text)).toEqual(data);
      expect(res.headers.get(LENGTH_HEADER)).toBe(String(Buffer.byteLength(text)));
      expect(Buffer.byteLength(text)).toBeGreaterThan(text.length);
      setPassesBodyHeaders(false);
      expect(json(data).headers.get(LENGTH_HEADER)).toBeNull();
    } finally {
      setPassesBodyHeaders(false);
    }
  });
});
