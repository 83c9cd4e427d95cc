/**
 * What the running server answers before any route: the API's JSON error shape, never Next.js's
 * 500 or HTML page, for methods nobody serves, undecodable paths, paths with no endpoint, and
 * requests Node's HTTP parser refuses (scripts/serve.mjs, proxy.ts, app/api/[...path]).
 */
import net from "node:net";

import { expect, test } from "@playwright/test";

import { demoAccount } from "../fixtures";

type ErrorBody = { error: { code: string; message: string; details?: { field: string; issue: string }[] } };

/** A raw HTTP exchange, for what fetch will not send (TRACE, CONNECT, TRACK, broken headers). */
async function raw(baseURL: string, request: string): Promise<{ status: number; headers: string; body: string }> {
  const { hostname, port } = new URL(baseURL);
  const socket = net.connect(Number(port), hostname);
  const chunks: Buffer[] = [];
  await new Promise<void>((resolve, reject) => {
    socket.on("connect", () => socket.write(request));
    socket.on("data", (chunk) => chunks.push(chunk));
    socket.on("end", resolve);
    socket.on("close", () => resolve());
    socket.on("error", reject);
  });
  const text = Buffer.concat(chunks).toString("utf8");
  const [head = "", body = ""] = text.split("\r\n\r\n");
  return { status: Number(head.split(" ")[1]), headers: head, body };
}

test("methods nobody serves are a JSON 405 with Allow, on the API and elsewhere", async ({ baseURL }) => {
  for (const method of ["TRACE", "TRACK", "CONNECT", "PROPFIND"]) {
    for (const path of ["/api/v1/stories", "/admin"]) {
      const res = await raw(baseURL!, `${method} ${path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`);
      expect({ method, path, status: res.status }).toEqual({ method, path, status: 405 });
      expect(res.headers).toMatch(/content-type: application\/json/i);
      expect(res.headers).toMatch(/allow: GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS/i);
      expect((JSON.parse(res.body) as ErrorBody).error.code).toBe("METHOD_NOT_ALLOWED");
    }
  }
});

test("requests the HTTP parser refuses get the JSON shape too", async ({ baseURL }) => {
  const broken = await raw(baseURL!, "GET /api/v1/stories HTTP/1.1\r\nHost: localhost\r\nNo colon here\r\n\r\n");
  expect(broken.status).toBe(400);
  expect((JSON.parse(broken.body) as ErrorBody).error.code).toBe("BAD_REQUEST");
  const huge = await raw(
    baseURL!,
    `GET /api/v1/stories HTTP/1.1\r\nHost: localhost\r\nX-Big: ${"a".repeat(20_000)}\r\n\r\n`,
  );
  expect(huge.status).toBe(431);
  expect(huge.headers).toMatch(/content-type: application\/json/i);
});

test("a target that is not a path, and a request without exactly one Host, are a JSON 400", async ({ baseURL }) => {
  for (const request of [
    "OPTIONS * HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n",
    "GET * HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n",
    "GET /api/v1/stories HTTP/1.1\r\nConnection: close\r\n\r\n",
    "GET /api/v1/stories HTTP/1.1\r\nHost: localhost\r\nHost: evil.test\r\nConnection: close\r\n\r\n",
  ]) {
    const res = await raw(baseURL!, request);
    expect({ request, status: res.status }).toEqual({ request, status: 400 });
    expect(res.headers).toMatch(/content-type: application\/json/i);
    expect((JSON.parse(res.body) as ErrorBody).error.code).toBe("BAD_REQUEST");
  }
  // Absolute-form is served as its path (Next.js alone redirected to the URL as sent).
  const absolute = await raw(
    baseURL!,
    "GET http://localhost/api/health HTTP/1.1\r\nHost: evil.test\r\nConnection: close\r\n\r\n",
  );
  expect(absolute.status).toBe(200);
  expect(absolute.headers).not.toMatch(/^location:/im);
});

test("an undecodable path is a JSON 400 naming the path", async ({ request }) => {
  for (const path of ["/api/v1/stories/%E0%A4%A", "/api/v1/tags/%", "/api/v1/collections/%zz", "/api/member/%C0"]) {
    const res = await request.get(path);
    expect({ path, status: res.status() }).toEqual({ path, status: 400 });
    expect(res.headers()["content-type"]).toContain("application/json");
    expect(res.headers()["x-request-id"]).toBeTruthy();
    expect(((await res.json()) as ErrorBody).error.details).toEqual([
      { field: "path", issue: "malformed percent-encoding" },
    ]);
  }
});

test("an /api/ path with no endpoint is a JSON 404 for every method; so is /api/inngest without Inngest", async ({
  request,
}) => {
  for (const method of ["GET", "POST", "PUT", "PATCH", "DELETE"] as const) {
    for (const path of ["/api/nothing-here", "/api/v1/stories/not/a/route", "/api/inngest"]) {
      if (path === "/api/inngest" && (method === "PATCH" || method === "DELETE")) continue;
      const res = await request.fetch(path, { method, headers: { Accept: "text/html" } });
      expect({ method, path, status: res.status() }).toEqual({ method, path, status: 404 });
      expect(res.headers()["content-type"]).toContain("application/json");
      expect(((await res.json()) as ErrorBody).error.code).toBe("NOT_FOUND");
    }
  }
});

test("the comment counts of 100 pages (a 7 kB query) answer every page, in order", async ({ request }) => {
  const { accountId } = demoAccount();
  const urls = Array.from({ length: 100 }, (_, n) => `https://news.example.com/2026/11/a-story-about-buses-${n}`);
  const ids = urls.map((url) => Buffer.from(encodeURIComponent(url)).toString("base64"));
  const path = `/api/v1/accounts/${accountId}/pages?page_ids=${encodeURIComponent(ids.join(","))}`;
  expect(path.length).toBeGreaterThan(7000);
  const res = await request.get(path);
  expect(res.status()).toBe(200);
  const counts = (await res.json()) as { url: string; comments_count: number }[];
  expect(counts.map((c) => c.url)).toEqual(urls);
  // A bad id among them is a 400 naming its place.
  const bad = await request.get(`${path}${encodeURIComponent(",%%%")}`);
  expect(bad.status()).toBe(400);
  // With a trailing slash, Next.js redirects to the path without it, a long query kept whole (30
  // ids, 2 kB: its Location and Refresh headers each repeat it, and 7 kB would pass what Node.js's
  // HTTP client takes in headers).
  const some = ids.slice(0, 30);
  const slashed = await request.get(
    `/api/v1/accounts/${accountId}/pages/?page_ids=${encodeURIComponent(some.join(","))}`,
    { maxRedirects: 0 },
  );
  expect(slashed.status()).toBe(308);
  const location = new URL(slashed.headers().location!, "http://app.test");
  expect(location.pathname).toBe(`/api/v1/accounts/${accountId}/pages`);
  expect(location.searchParams.get("page_ids")?.split(",")).toEqual(some);
});

test("answers are compressed by Next.js for clients that take gzip, and sent as they are to others", async ({
  baseURL,
}) => {
  const { accountId } = demoAccount();
  const target = "GET /api/v1/stories?limit=20 HTTP/1.1\r\nHost: x\r\nCache-Control: no-cache\r\nConnection: close\r\n";
  const large = await raw(baseURL!, `${target}Accept-Encoding: gzip\r\n\r\n`);
  expect(large.status).toBe(200);
  expect(large.headers).toMatch(/content-encoding: gzip/i);
  const plain = await raw(baseURL!, `${target}\r\n`);
  expect(plain.status).toBe(200);
  expect(plain.headers).not.toMatch(/content-encoding/i);
  // An error answer is the API's JSON, with no header of ours left on it.
  const small = await raw(
    baseURL!,
    `GET /api/v1/accounts/${accountId}/pages?page_ids=%%% HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
  );
  expect(small.status).toBe(400);
  expect(small.headers).not.toMatch(/x-masthead-/i);
  expect(small.headers).not.toMatch(/content-encoding/i);
});
