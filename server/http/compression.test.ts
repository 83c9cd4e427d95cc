/**
 * The Node server's compression (compression.js), through a real node:http server and client:
 * who gets gzip, what stays plain, answers with an ETag compressed once per body, streamed answers
 * flushed chunk by chunk.
 */
import { randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import zlib from "node:zlib";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { acceptsGzip, compressResponse, GzipMemo, isCompressible } from "./compression.js";

const big = JSON.stringify({ stories: Array.from({ length: 200 }, (_, i) => ({ id: i, headline: `Story ${i}` })) });

type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void;
const handlers = new Map<string, Handler>();
let memo = new GzipMemo(1024 * 1024);
let server: http.Server;
let base: string;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    compressResponse(req, res, memo);
    handlers.get(new URL(req.url ?? "/", "http://x").pathname)!(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

type Got = { status: number; headers: http.IncomingHttpHeaders; raw: Buffer; text: string };

function get(
  path: string,
  headers: Record<string, string> = { "accept-encoding": "gzip, deflate, br" },
  method = "GET",
) {
  return new Promise<Got>((resolve, reject) => {
    http
      .request(`${base}${path}`, { headers, method }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => {
          const raw = Buffer.concat(chunks);
          const gz = res.headers["content-encoding"] === "gzip";
          resolve({
            status: res.statusCode!,
            headers: res.headers,
            raw,
            text: (gz ? zlib.gunzipSync(raw) : raw).toString(),
          });
        });
      })
      .on("error", reject)
      .end();
  });
}

describe("acceptsGzip", () => {
  it("takes gzip, x-gzip and * with a weight above zero", () => {
    expect(acceptsGzip("gzip, deflate, br")).toBe(true);
    expect(acceptsGzip("br;q=1.0, GZIP;q=0.5")).toBe(true);
    expect(acceptsGzip("x-gzip")).toBe(true);
    expect(acceptsGzip("*")).toBe(true);
    expect(acceptsGzip("gzip;q=0, *")).toBe(false);
    expect(acceptsGzip("*;q=0")).toBe(false);
    expect(acceptsGzip("br, identity")).toBe(false);
    expect(acceptsGzip("")).toBe(false);
    expect(acceptsGzip(undefined)).toBe(false);
  });

  it("knows what is compressible", () => {
    for (const type of [
      "application/json",
      "application/json; charset=utf-8",
      "text/html; charset=utf-8",
      "text/csv",
      "application/rss+xml",
      "application/problem+json",
      "image/svg+xml",
      "application/javascript",
      "text/x-component",
    ])
      expect(isCompressible(type), type).toBe(true);
    for (const type of ["text/event-stream", "image/png", "application/octet-stream", "application/pdf", "", undefined])
      expect(isCompressible(type), String(type)).toBe(false);
  });
});

// eslint-disable-next-line max-lines-per-function -- a describe block of short cases that share its setup
describe("compressResponse", () => {
  it("compresses an answer with an ETag once per body: the same gzip, a weak ETag, its length", async () => {
    memo = new GzipMemo(1024 * 1024);
    handlers.set("/kept", (_req, res) => {
      res.setHeader("Content-Type", "application/json; charset=utf-8");
      res.setHeader("ETag", '"abc"');
      res.flushHeaders();
      res.write(big.slice(0, 500));
      res.write(Buffer.from(big.slice(500)));
      res.end();
    });
    const first = await get("/kept");
    expect(first.status).toBe(200);
    expect(first.headers["content-encoding"]).toBe("gzip");
    expect(first.headers.etag).toBe('W/"abc"');
    expect(first.headers.vary).toBe("Accept-Encoding");
    expect(Number(first.headers["content-length"])).toBe(first.raw.length);
    expect(first.text).toBe(big);
    expect(memo.entries.size).toBe(1);
    const second = await get("/kept");
    expect(second.raw.equals(first.raw)).toBe(true);
    expect(memo.entries.size).toBe(1);
    // Another body under the same ETag is another entry: never another answer's bytes.
    handlers.set("/kept", (_req, res) => {
      res.writeHead(200, { "Content-Type": "application/json", ETag: '"abc"' });
      res.end(big.replace("Story 1", "Story X"));
    });
    const changed = await get("/kept");
    expect(changed.text).toBe(big.replace("Story 1", "Story X"));
    expect(memo.entries.size).toBe(2);
  });

  it("sends the bytes of Uint8Array chunks that view part of a larger buffer, held or plain, one chunk or several", async () => {
    memo = new GzipMemo(1024 * 1024);
    // The body sits in the middle of a larger buffer, as a web stream's chunk may.
    const whole = Buffer.from(`<<<<${big}>>>>`);
    const body = new Uint8Array(whole.buffer, whole.byteOffset + 4, Buffer.byteLength(big));
    handlers.set("/views", (req, res) => {
      res.setHeader("Content-Type", "application/json");
      res.setHeader("ETag", '"views"');
      if (req.headers["x-chunks"] === "one") return res.end(body);
      res.write(body.subarray(0, 700));
      res.write(body.subarray(700, 1500));
      res.end(body.subarray(1500));
    });
    for (const chunks of ["one", "several"]) {
      const zipped = await get("/views", { "accept-encoding": "gzip", "x-chunks": chunks });
      expect(zipped.headers["content-encoding"], chunks).toBe("gzip");
      expect(zipped.text, chunks).toBe(big);
      const plain = await get("/views", { "x-chunks": chunks });
      expect(plain.headers["content-encoding"], chunks).toBeUndefined();
      expect(plain.text, chunks).toBe(big);
    }
  });

  it("streams an answer without an ETag through gzip, flushing each chunk as it is written", async () => {
    let release!: () => void;
    const later = new Promise<void>((resolve) => (release = resolve));
    handlers.set("/stream", (_req, res) => {
      res.setHeader("Content-Type", "text/html; charset=utf-8");
      res.setHeader("Content-Length", "999999");
      res.flushHeaders();
      res.write("<html><body>first");
      (res as unknown as { flush(): void }).flush();
      void later.then(() => res.end(`${"x".repeat(5000)}</body></html>`));
    });
    const seen = new Promise<Got>((resolve, reject) => {
      http
        .get(`${base}/stream`, { headers: { "accept-encoding": "gzip" } }, (res) => {
          const gunzip = zlib.createGunzip();
          res.pipe(gunzip);
          let text = "";
          gunzip.on("data", (chunk: Buffer) => {
            text += chunk.toString();
            // The first chunk arrives before the rest is written.
            if (text === "<html><body>first") release();
          });
          gunzip.on("end", () =>
            resolve({ status: res.statusCode!, headers: res.headers, raw: Buffer.alloc(0), text }),
          );
        })
        .on("error", reject);
    });
    const got = await seen;
    expect(got.headers["content-encoding"]).toBe("gzip");
    expect(got.headers["content-length"]).toBeUndefined();
    expect(got.text).toBe(`<html><body>first${"x".repeat(5000)}</body></html>`);
  });

  it("sends plain what the client does not take, small bodies, and what must not be compressed", async () => {
    handlers.set("/big", (_req, res) => {
      res.setHeader("Content-Type", "application/json");
      res.setHeader("ETag", '"b"');
      res.end(big);
    });
    for (const headers of [{}, { "accept-encoding": "br" }, { "accept-encoding": "gzip;q=0" }] as Record<
      string,
      string
    >[]) {
      const got = await get("/big", headers);
      expect(got.headers["content-encoding"]).toBeUndefined();
      expect(got.headers.vary).toBe("Accept-Encoding");
      expect(got.headers.etag).toBe('"b"');
      expect(Number(got.headers["content-length"])).toBe(big.length);
      expect(got.text).toBe(big);
    }
    const cases: [string, Handler][] = [
      ["small", (_req, res) => res.writeHead(200, { "Content-Type": "application/json" }).end('{"ok":true}')],
      ["png", (_req, res) => res.writeHead(200, { "Content-Type": "image/png" }).end(Buffer.alloc(5000))],
      [
        "events",
        (_req, res) => res.writeHead(200, { "Content-Type": "text/event-stream" }).end("data: x\n\n".repeat(500)),
      ],
      ["coded", (_req, res) => res.writeHead(200, { "Content-Type": "text/plain", "Content-Encoding": "br" }).end(big)],
      [
        "no-transform",
        (_req, res) => res.writeHead(200, { "Content-Type": "text/plain", "Cache-Control": "no-transform" }).end(big),
      ],
      ["not-modified", (_req, res) => res.writeHead(304, { "Content-Type": "application/json", ETag: '"e"' }).end()],
      ["empty", (_req, res) => res.writeHead(200, { "Content-Type": "application/json" }).end()],
    ];
    for (const [name, handler] of cases) {
      handlers.set(`/${name}`, handler);
      const got = await get(`/${name}`);
      expect(got.headers["content-encoding"] ?? "none", name).toBe(name === "coded" ? "br" : "none");
    }
    // A short answer, head flushed and one chunk written, as Next.js sends a route's body.
    handlers.set("/short", (_req, res) => {
      res.setHeader("Content-Type", "application/json");
      res.flushHeaders();
      res.write('{"granted":true}');
      (res as unknown as { flush(): void }).flush();
      setTimeout(() => res.end(), 0);
    });
    // Ended on a later turn: the chunk went out as a stream when the turn passed (more might come).
    const short = await get("/short");
    expect(short.headers["content-encoding"]).toBe("gzip");
    expect(short.headers["content-length"]).toBeUndefined();
    expect(short.text).toBe('{"granted":true}');
    handlers.set("/short", (_req, res) => {
      res.setHeader("Content-Type", "application/json");
      res.flushHeaders();
      res.write('{"granted":true}');
      (res as unknown as { flush(): void }).flush();
      res.end();
    });
    // Ended in the same turn: plain, with its length.
    const ended = await get("/short");
    expect(ended.headers["content-encoding"]).toBeUndefined();
    expect(ended.headers["content-length"]).toBe("16");
    // Past 1 kB without an ETag: compressed as it streams.
    handlers.set("/long", (_req, res) => {
      res.setHeader("Content-Type", "application/json");
      res.flushHeaders();
      res.write(big.slice(0, 600));
      res.write(big.slice(600));
      res.end();
    });
    const long = await get("/long");
    expect(long.headers["content-encoding"]).toBe("gzip");
    expect(long.headers.etag).toBeUndefined();
    expect(long.text).toBe(big);
    const small = await get("/small");
    expect(small.text).toBe('{"ok":true}');
    expect(small.headers["content-length"]).toBe("11");
    // HEAD is left to the handler as it is.
    const head = await get("/big", { "accept-encoding": "gzip" }, "HEAD");
    expect(head.headers["content-encoding"]).toBeUndefined();
  });

  it("adds to a Vary the answer has, and never past *", async () => {
    handlers.set("/vary", (_req, res) => {
      res.setHeader("Content-Type", "application/json");
      res.setHeader("Vary", "Accept, accept-encoding");
      res.end(big);
    });
    expect((await get("/vary")).headers.vary).toBe("Accept, accept-encoding");
    handlers.set("/vary", (_req, res) => {
      res.writeHead(200, { "Content-Type": "application/json", Vary: "Accept" });
      res.end(big);
    });
    const got = await get("/vary");
    expect(got.headers.vary).toBe("Accept, Accept-Encoding");
    expect(got.text).toBe(big);
  });

  it("keeps at most its byte bound, dropping the least recently used", () => {
    const small = new GzipMemo(16 * 400);
    const bodies = Array.from({ length: 40 }, () => Buffer.from(randomBytes(300).toString("hex")));
    for (const [i, body] of bodies.entries()) small.gzip(`"${i}"`, body);
    expect(small.usedBytes).toBeLessThanOrEqual(16 * 400);
    expect(small.entries.size).toBeGreaterThan(0);
    expect(small.entries.size).toBeLessThan(40);
    expect(zlib.gunzipSync(small.gzip('"39"', bodies[39]!)).equals(bodies[39]!)).toBe(true);
  });
});
