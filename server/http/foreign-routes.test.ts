import { describe, expect, it } from "vitest";

import { foreignRoutes, LIBRARY_MAX_BODY_BYTES } from "./foreign-routes";

/** A library's handler that answers as next-auth does, by path. */
async function library(request: Request): Promise<Response> {
  const path = new URL(request.url).pathname;
  if (path === "/refused")
    return new Response("Error: This action is not supported", {
      status: 400,
      headers: { "content-type": "text/plain;charset=UTF-8" },
    });
  if (path === "/broken")
    return new Response("Error: secret detail", { status: 500, headers: { "content-type": "text/plain" } });
  if (path === "/empty") return new Response(null, { status: 404 });
  if (path === "/object")
    return new Response("[object Object]", { status: 400, headers: { "content-type": "text/plain" } });
  if (path === "/throws") throw new Error("secret detail");
  if (path === "/redirect") return new Response(null, { status: 302, headers: { location: "/signin" } });
  if (path === "/own-error") return Response.json({ error: { json: { code: -32600 } } }, { status: 400 });
  if (path === "/echo") return Response.json(await request.json());
  return Response.json({ ok: true });
}

const routes = foreignRoutes(library, { served: ["GET", "POST"], library: "test" });
const get = (path: string) =>
  routes.GET(new Request(`http://localhost${path}`, { headers: { "x-request-id": "req-1" } }));

async function errorOf(res: Response) {
  expect(res.headers.get("content-type")).toMatch(/^application\/json/);
  expect(res.headers.get("x-request-id")).toBeTruthy();
  return ((await res.json()) as { error: { code: string; message: string } }).error;
}

describe("foreignRoutes", () => {
  it("passes the library's JSON, its redirects and its own JSON errors unchanged", async () => {
    expect(await (await get("/ok")).json()).toEqual({ ok: true });
    const redirect = await get("/redirect");
    expect([redirect.status, redirect.headers.get("location")]).toEqual([302, "/signin"]);
    const own = await get("/own-error");
    expect([own.status, await own.json()]).toEqual([400, { error: { json: { code: -32600 } } }]);
  });

  it("gives a plain-text or empty refusal in the JSON shape with its status, and its sentence", async () => {
    const refused = await get("/refused");
    expect(refused.status).toBe(400);
    expect(await errorOf(refused)).toEqual({ code: "BAD_REQUEST", message: "This action is not supported" });
    expect(await errorOf(await get("/object"))).toEqual({ code: "BAD_REQUEST", message: "The request is not valid." });
    const empty = await get("/empty");
    expect(empty.status).toBe(404);
    expect((await errorOf(empty)).code).toBe("NOT_FOUND");
  });

  it("answers the library's failures and throws as a 500 that tells the client nothing more", async () => {
    for (const path of ["/broken", "/throws"]) {
      const res = await get(path);
      expect(res.status, path).toBe(500);
      expect(await errorOf(res)).toEqual({ code: "INTERNAL", message: "Internal server error." });
    }
  });

  it("refuses a JSON body that does not parse before the library reads it, and passes one that does", async () => {
    const post = (body: string, type = "application/json") =>
      routes.POST(new Request("http://localhost/echo", { method: "POST", headers: { "content-type": type }, body }));
    const bad = await post("{");
    expect(bad.status).toBe(400);
    expect(await errorOf(bad)).toMatchObject({ code: "BAD_REQUEST", message: "The body is not valid JSON." });
    expect(await (await post('{"a":1}')).json()).toEqual({ a: 1 });
    // Not JSON by its type: the library's to read.
    expect((await post("{", "text/plain")).status).toBe(500);
  });

  it("refuses a body over its limit with 413 before the library reads it, also one without Content-Length", async () => {
    let pulled = 0;
    const chunk = new Uint8Array(1024 * 1024).fill(0x20);
    const long = new ReadableStream<Uint8Array>({
      pull(c) {
        // Ended at twice the limit only so that a reader without a limit fails instead of hanging.
        if (pulled >= 2 * LIBRARY_MAX_BODY_BYTES) return c.close();
        pulled += chunk.byteLength;
        c.enqueue(chunk);
      },
    });
    for (const answersMalformedJson of [false, true]) {
      const own = foreignRoutes(library, { served: ["POST"], library: "test", answersMalformedJson });
      const request = (body: BodyInit) =>
        new Request("http://localhost/echo", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body,
          duplex: "half",
        } as RequestInit);
      const res = await own.POST(request(answersMalformedJson ? "x".repeat(LIBRARY_MAX_BODY_BYTES + 1) : long));
      expect(res.status).toBe(413);
      expect((await errorOf(res)).code).toBe("PAYLOAD_TOO_LARGE");
    }
    // Read no further than the limit and what the stream buffers ahead (a few chunks).
    expect(pulled).toBeLessThanOrEqual(LIBRARY_MAX_BODY_BYTES + 8 * chunk.byteLength);
  });

  it("answers the methods it does not serve with 405 and Allow", async () => {
    for (const method of ["PUT", "PATCH", "DELETE"] as const) {
      const res = await routes[method](new Request("http://localhost/ok", { method }));
      expect(res.status, method).toBe(405);
      expect(res.headers.get("allow")).toBe("GET, POST, HEAD, OPTIONS");
      expect((await errorOf(res)).code).toBe("METHOD_NOT_ALLOWED");
    }
  });

  it("leaves a body that does not parse to a library that answers it itself", async () => {
    const own = foreignRoutes(library, { served: ["POST"], library: "test", answersMalformedJson: true });
    const res = await own.POST(
      new Request("http://localhost/own-error", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: "{",
      }),
    );
    expect(await res.json()).toEqual({ error: { json: { code: -32600 } } });
  });
});
