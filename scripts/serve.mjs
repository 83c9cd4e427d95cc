// The HTTP server `npm start` and `npm run dev` run: Next.js behind node:http, so that what Next.js
// cannot answer itself is answered in the API's JSON error shape, and shutdown is graceful.
//
//   node scripts/serve.mjs [--dev]     (PORT, HOST from the environment; started by scripts/start.ts)
//
// - Methods no route serves (TRACE, TRACK, CONNECT…): Next.js fails on them before any of our code
//   runs (a 500: the Fetch API refuses to build such a Request), so they are answered here: 405.
//   So are paths whose percent-encoding does not decode, targets that are not a path ("*") and
//   requests without exactly one Host (400; an absolute-form target is served as its path, its host
//   the Host), and every request gets its id
//   (X-Request-Id): server/http/edge.js; and the address of its socket (x-masthead-peer, which
//   per-IP rate limits count by unless TRUST_PROXY): server/security/peer-address.js. (On Vercel a
//   Next.js proxy does the same:
//   server/http/serverless-proxy.ts; here it would run on every request at a cost node:http does not.)
// - Compression: gzip for clients that accept it, each body compressed once while it is sent again
//   (server/http/compression.js; Next.js's own `compress` is off).
// - Everything else is Next.js's own: its router and its responses.
// - SIGTERM: /api/health turns 503 "stopping" and new connections are still served for
//   SHUTDOWN_DRAIN_MS (default 5 s; load balancers stop sending meanwhile); then, as on SIGINT: stop
//   accepting connections, let requests in flight finish (at most SHUTDOWN_GRACE_MS), stop
//   background work (its pass finishes and its leases are freed) and exit 0.
import { randomUUID } from "node:crypto";
import http from "node:http";
import net from "node:net";

import next from "next";

import { getEnv } from "../env.js";
import { compressResponse, GzipMemo } from "../server/http/compression.js";
import {
  absoluteFormTarget,
  edgeRefusal,
  PAGE_ADDRESS_HEADER,
  pageAddress,
  requestIdFrom,
  SERVED_METHODS,
} from "../server/http/edge.js";
import { setPeerAddress } from "../server/security/peer-address.js";

import "./lib/closed-output.mjs";

const dev = process.argv.includes("--dev");
const port = Number(process.env.PORT ?? 3000);
const hostname = process.env.HOST ?? "0.0.0.0";
const SHUTDOWN_GRACE_MS = 25_000;
const QUIET_MS = 500;
/** After SIGTERM, how long new connections are still accepted (and answered "Connection: close"). */
const SHUTDOWN_DRAIN_MS = getEnv().SHUTDOWN_DRAIN_MS;
const METHODS = new Set(SERVED_METHODS);
/** Compressed bodies of answers sent before (server/http/compression.js): at most 16 MB of gzip. */
const gzipMemo = new GzipMemo(16 * 1024 * 1024);

// Every request of this process carries its socket's address, set below (servedPeerAddress in
// server/security/peer-address.js reads the header only when this is set).
globalThis.mastheadSetsPeerAddress = true;

const app = next({ dev, hostname, port });
const handle = app.getRequestHandler();
await app.prepare();

let inFlight = 0;
let stopping = false;

/** An error in the API's JSON shape, as raw HTTP (for sockets Next.js never sees). */
function rawError(status, reason, code, message, extraHeaders = {}) {
  const body = JSON.stringify({ error: { code, message } });
  const headers = {
    "Content-Type": "application/json",
    "Content-Length": Buffer.byteLength(body),
    "Cache-Control": "no-store",
    "X-Request-Id": randomUUID(),
    Connection: "close",
    ...extraHeaders,
  };
  return `HTTP/1.1 ${status} ${reason}\r\n${Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}`)
    .join("\r\n")}\r\n\r\n${body}`;
}

const notAllowed = (method) => [
  405,
  "Method Not Allowed",
  "METHOD_NOT_ALLOWED",
  `${method} is not a method this server serves.`,
  { Allow: [...METHODS].join(", ") },
];

// A request without Host is refused below in the JSON shape (Node.js would answer a bare 400).
const server = http.createServer({ requireHostHeader: false }, (req, res) => {
  if (!METHODS.has(req.method ?? "")) {
    res.socket?.end(rawError(...notAllowed(req.method)));
    return;
  }
  // Absolute-form (GET http://host/path): its path, and its host as the Host (Next.js would
  // redirect to the URL as sent).
  const absolute = absoluteFormTarget(req.url ?? "/");
  if (absolute) {
    req.url = absolute.path;
    req.headers.host = absolute.host;
  }
  // Every request's id: the client's when it is a sane one, else a new one. Routes (apiRoute,
  // tRPC) and the page error log (instrumentation.ts) read it from the request; the response carries it.
  const requestId = requestIdFrom(req.headers["x-request-id"]) ?? randomUUID();
  req.headers["x-request-id"] = requestId;
  res.setHeader("X-Request-Id", requestId);
  const page = pageAddress(req.url ?? "/");
  if (page) req.headers[PAGE_ADDRESS_HEADER] = page;
  else delete req.headers[PAGE_ADDRESS_HEADER];
  setPeerAddress(req.headers, req.socket.remoteAddress);
  let hostHeaders = 0;
  for (let i = 0; i < req.rawHeaders.length; i += 2) if (/^host$/i.test(req.rawHeaders[i])) hostHeaders++;
  const refusal = edgeRefusal(req.method ?? "GET", req.url ?? "/", {
    hostHeaders: absolute ? 1 : hostHeaders,
    httpVersion: req.httpVersion,
  });
  if (refusal) {
    // Next.js would fail on these itself (a 500): answered here, in the API's JSON error shape.
    const body = JSON.stringify({ error: { code: refusal.code, message: refusal.message, details: refusal.details } });
    res.writeHead(refusal.status, {
      "Content-Type": "application/json",
      "Content-Length": Buffer.byteLength(body),
      "Cache-Control": "no-store",
      ...refusal.headers,
    });
    res.end(body);
    return;
  }
  inFlight++;
  res.on("close", () => inFlight--);
  if (stopping) res.setHeader("Connection", "close");
  compressResponse(req, res, gzipMemo);
  void handle(req, res);
});

// CONNECT never reaches the request handler; requests Node's parser refuses (unknown methods such
// as TRACK, malformed request lines or headers) would get a bare 400: both get the JSON shape.
server.on("connect", (req, socket) => socket.end(rawError(...notAllowed(req.method))));
server.on("clientError", (error, socket) => {
  if (!socket.writable) return socket.destroy();
  if (error.code === "HPE_INVALID_METHOD") return socket.end(rawError(...notAllowed("This method")));
  if (error.code === "HPE_HEADER_OVERFLOW")
    return socket.end(
      rawError(431, "Request Header Fields Too Large", "BAD_REQUEST", "The request headers are too large."),
    );
  socket.end(rawError(400, "Bad Request", "BAD_REQUEST", "The request is not valid HTTP."));
});

// An idle keep-alive connection is closed by its client (browsers, proxies and load balancers
// keep theirs about 60 s), not by this server: a request a client sends on a connection the
// server is closing at that moment is reset (ECONNRESET). Node.js's default is 5 s.
server.keepAliveTimeout = 65_000;
server.headersTimeout = 66_000;

server.listen(port, hostname);

async function shutdown(signal) {
  if (stopping) return;
  stopping = true;
  // GET /api/health answers 503 "stopping" from now on (app/api/health/route.ts).
  globalThis.mastheadStopping = true;
  if (signal === "SIGTERM" && SHUTDOWN_DRAIN_MS > 0) {
    // Keep accepting while load balancers see the failing health check and stop sending: a
    // connection still arriving when the listener closes would be reset by the kernel.
    process.stdout.write(`[masthead] ${signal}: health says stopping; draining for ${SHUTDOWN_DRAIN_MS} ms\n`);
    await new Promise((resolve) => setTimeout(resolve, SHUTDOWN_DRAIN_MS));
  }
  process.stdout.write(`[masthead] ${signal}: finishing ${inFlight} request(s) in flight, then stopping\n`);
  // Stop listening, and only that: http.Server#close would also drop the connections accepted
  // whose request has not been read yet (their clients would see a reset). Responses from now on
  // carry "Connection: close", so keep-alive connections end after their answer.
  net.Server.prototype.close.call(server);
  // Wait until nothing has been in flight for QUIET_MS in a row (a connection accepted just before
  // the close may still be sending its request), at most SHUTDOWN_GRACE_MS; then drop what is left
  // (idle keep-alive connections).
  const deadline = Date.now() + SHUTDOWN_GRACE_MS;
  let quietSince = Date.now();
  while (Date.now() < deadline) {
    if (inFlight > 0) quietSince = Date.now();
    else if (Date.now() - quietSince >= QUIET_MS) break;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  server.closeAllConnections();
  // Background work in this process (set by instrumentation.ts through server/background/start.ts).
  const stopBackground = globalThis.mastheadStopBackground;
  if (typeof stopBackground === "function") await stopBackground();
  process.exit(0);
}
for (const signal of ["SIGTERM", "SIGINT"]) process.on(signal, () => void shutdown(signal));
