/**
 * npx tsx scripts/bench/compression.ts [--requests 3000]
 *
 * What compression costs an answer sent again, as the response cache sends its answers: a node:http
 * server answers a JSON body of 80 kB with an ETag (a list of 20 stories), read by a load
 * generator in another process over 10 keep-alive connections, and its own processor time per
 * request is measured for: the body plain; the Node server's compression (server/http/compression.js,
 * its gzip kept per body); the `compression` package as Next.js's `compress` option runs it (the
 * copy Next.js ships); and an empty JSON answer beside them. Decision 0057 rests on these figures.
 */
import { fork } from "node:child_process";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { parseArgs } from "node:util";
import zlib from "node:zlib";

// The copy of the `compression` package that Next.js's `compress: true` runs (next/dist/server/lib/router-server.js).
// @ts-expect-error: Next.js ships it without types.
import nextCompression from "next/dist/compiled/compression/index.js";

import { compressResponse, GzipMemo } from "../../server/http/compression.js";

type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void;
type Middleware = (req: http.IncomingMessage, res: http.ServerResponse, next: () => void) => void;

const { values } = parseArgs({
  args: process.argv.slice(2).filter((arg) => arg !== "client"),
  options: { requests: { type: "string", default: "3000" }, port: { type: "string" }, encoding: { type: "string" } },
});
const REQUESTS = Number(values.requests);

if (process.argv.includes("client")) {
  // The load generator: reads every answer as it comes, inflates nothing.
  const agent = new http.Agent({ keepAlive: true, maxSockets: 10 });
  let issued = 0;
  await Promise.all(
    Array.from({ length: 10 }, async () => {
      while (issued++ < REQUESTS)
        await new Promise((resolve, reject) =>
          http
            .get({ port: values.port, path: "/", agent, headers: { "accept-encoding": values.encoding } }, (res) =>
              res.resume().on("end", resolve),
            )
            .on("error", reject),
        );
    }),
  );
  process.send?.(REQUESTS);
  process.exit(0);
}

// A list of 20 stories of 8 paragraphs each, words drawn from a small vocabulary (about 5:1 in gzip).
const words = "council budget vote mayor street report school river market election climate festival plan city".split(
  " ",
);
let seed = 7;
const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
const paragraph = () =>
  Array.from({ length: 60 }, () => words[Math.floor(random() * words.length)]! + (random() < 0.1 ? random() : "")).join(
    " ",
  );
const body = Buffer.from(
  JSON.stringify({
    stories: Array.from({ length: 20 }, (_, i) => ({
      slug: `bench/story-${i}`,
      headline: paragraph().slice(0, 80),
      cards: Array.from({ length: 8 }, () => ({ type: "text", text: `<p>${paragraph()}</p>` })),
    })),
  }),
);

const answer = (res: http.ServerResponse, payload: Buffer | string) => {
  res.setHeader("Content-Type", "application/json");
  res.setHeader("ETag", '"list"');
  res.end(payload);
};
const memo = new GzipMemo(16 * 1024 * 1024);
const compress = (nextCompression as () => Middleware)();
const variants: [string, Handler][] = [
  ["empty answer", (_req, res) => answer(res, "{}")],
  ["plain", (_req, res) => answer(res, body)],
  ["server/http/compression.js", (req, res) => (compressResponse(req, res, memo), answer(res, body))],
  ["Next.js compress (compression)", (req, res) => compress(req, res, () => answer(res, body))],
];

console.log(
  `Body ${(body.length / 1024).toFixed(0)} kB (${(zlib.gzipSync(body).length / 1024).toFixed(0)} kB in gzip), ` +
    `${REQUESTS} requests over 10 connections; CPU of the server's process per request:`,
);
for (const encoding of ["gzip, deflate, br", "gzip"]) {
  for (const [name, handler] of variants) {
    const server = http.createServer(handler);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const port = (server.address() as AddressInfo).port;
    const run = (requests: number) =>
      new Promise<number>((resolve) =>
        fork(
          new URL(import.meta.url).pathname,
          ["client", `--port=${port}`, `--requests=${requests}`, `--encoding=${encoding}`],
          {
            execArgv: ["--import", "tsx"],
          },
        ).on("message", (n) => resolve(Number(n))),
      );
    await run(200);
    const before = process.cpuUsage();
    const started = performance.now();
    const n = await run(REQUESTS);
    const used = process.cpuUsage(before);
    const seconds = (performance.now() - started) / 1000;
    console.log(
      `  Accept-Encoding: ${encoding.padEnd(17)} ${name.padEnd(31)} ${((used.user + used.system) / 1000 / n).toFixed(3)} ms, ${(n / seconds).toFixed(0)} req/s`,
    );
    server.closeAllConnections();
    server.close();
  }
}
process.exit(0);
