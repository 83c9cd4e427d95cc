// The HTTP server `npm start` and `npm run dev` run: Next.js behind node:http, so that what Next.js
// cannot answer itself is answered in the API's JSON error shape, and shutdown is graceful.
//
//   node scripts/serve.mjs [--dev]     (PORT, HOST from the environment; started by scripts/start.ts)
//
// - Methods no route serves (TRACE, TRACK, CONNECT…): Next.js fails on them before any of our code
//   runs (a 500: the Fetch API refuses to build such a Request), so they are answered here: 405.
// - SIGTERM / SIGINT: stop accepting connections, let requests in flight finish (at most
//   SHUTDOWN_GRACE_MS), then stop background work (its pass finishes and its leases are freed)
//   and exit.
import { randomUUID } from "node:crypto";
import http from "node:http";

import next from "next";

const dev = process.argv.includes("--dev");
const port = Number(process.env.PORT ?? 3000);
const hostname = process.env.HOST ?? "0.0.0.0";
const SHUTDOWN_GRACE_MS = 25_000;
/** The methods Masthead serves; server/http/edge.ts answers the same list for /api/ in proxy.ts. */
const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

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

const server = http.createServer((req, res) => {
  if (!METHODS.has(req.method ?? "")) {
    res.socket?.end(rawError(...notAllowed(req.method)));
    return;
  }
  inFlight++;
  res.on("close", () => inFlight--);
  if (stopping) res.setHeader("Connection", "close");
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

server.listen(port, hostname);

async function shutdown(signal) {
  if (stopping) return;
  stopping = true;
  process.stdout.write(`[masthead] ${signal}: finishing ${inFlight} request(s) in flight, then stopping\n`);
  server.close();
  server.closeIdleConnections();
  const deadline = Date.now() + SHUTDOWN_GRACE_MS;
  while (inFlight > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  server.closeAllConnections();
  // Background work in this process (set by instrumentation.ts through server/jobs/background.ts).
  const stopBackground = globalThis.mastheadStopBackground;
  if (typeof stopBackground === "function") await stopBackground();
  process.exit(0);
}
for (const signal of ["SIGTERM", "SIGINT"]) process.on(signal, () => void shutdown(signal));
