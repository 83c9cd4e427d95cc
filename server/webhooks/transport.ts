/**
 * One webhook POST over node:http(s), with what fetch cannot give:
 * - a connect timeout separate from the response timeout (spec: 3 s + 3 s content, 10 s + 5 s subscriptions);
 * - the address check on the socket's own DNS answer (guardedLookup);
 * - no redirects (a 3xx is an answer like any other, and a failure): node:http never follows one,
 *   so no hop can lead past the address check to a private address;
 * - at most `excerptBytes` of the response kept, and at most 64 KiB read.
 * Keep-alive agents reuse connections to the same receiver.
 */
import http from "node:http";
import https from "node:https";
import type net from "node:net";

import { checkWebhookUrl } from "./events.schema";
import { BlockedAddressError, guardedLookup, refusedHostWithoutDns } from "./url-guard";

type SendRequest = {
  url: string;
  body: string;
  headers: Record<string, string>;
  connectTimeoutMs: number;
  responseTimeoutMs: number;
  allowPrivate: boolean;
  excerptBytes?: number;
};

type SendResult = {
  /** Null when no response came. */
  statusCode: number | null;
  /** Why the attempt failed without a response (timeout, refused, blocked address). */
  error: string | null;
  excerpt: string | null;
  durationMs: number;
};

export type Sender = (request: SendRequest) => Promise<SendResult>;

// The delivery job posts through the sender the process chose (server/background/start.ts).
declare module "../jobs/define" {
  interface JobDeps {
    sendWebhook: Sender;
  }
}

const MAX_READ_BYTES = 64 * 1024;
const agents = {
  "http:": new http.Agent({ keepAlive: true, maxSockets: 256, maxFreeSockets: 64 }),
  "https:": new https.Agent({ keepAlive: true, maxSockets: 256, maxFreeSockets: 64 }),
};

export const sendWebhookRequest: Sender = (request) => {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  return new Promise<SendResult>((resolve) => {
    let settled = false;
    const finish = (result: Omit<SendResult, "durationMs">) => {
      if (settled) return;
      settled = true;
      clearTimeout(connectTimer);
      clearTimeout(responseTimer);
      resolve({ ...result, durationMs: elapsed() });
    };
    let connectTimer: NodeJS.Timeout | undefined;
    let responseTimer: NodeJS.Timeout | undefined;

    // The stored URL is requested only when it is one the endpoint schema accepts: an endpoint
    // saved before that rule (with a CR, LF or TAB the parser would drop) is not sent elsewhere.
    const checked = checkWebhookUrl(request.url);
    if (!checked.ok) return finish({ statusCode: null, error: `invalid URL: ${checked.issue}`, excerpt: null });
    const url = new URL(checked.href);
    // A literal IP skips DNS, so the lookup guard never sees it: check it (and localhost names) here.
    const refused = request.allowPrivate ? null : refusedHostWithoutDns(url.hostname);
    if (refused)
      return finish({ statusCode: null, error: new BlockedAddressError(refused, refused).message, excerpt: null });

    const transport = url.protocol === "https:" ? https : http;
    const req = transport.request(url, {
      method: "POST",
      agent: url.protocol === "https:" ? agents["https:"] : agents["http:"],
      lookup: guardedLookup(request.allowPrivate),
      headers: { ...request.headers, "Content-Length": String(Buffer.byteLength(request.body)) },
    });

    const startResponseTimer = () => {
      clearTimeout(connectTimer);
      responseTimer ??= setTimeout(() => {
        req.destroy(new Error(`no response within ${request.responseTimeoutMs} ms`));
      }, request.responseTimeoutMs);
    };
    req.on("socket", (socket) => {
      const connecting = (socket as net.Socket & { connecting?: boolean }).connecting;
      if (!connecting) return startResponseTimer(); // a kept-alive socket is already connected
      connectTimer = setTimeout(() => {
        req.destroy(new Error(`could not connect within ${request.connectTimeoutMs} ms`));
      }, request.connectTimeoutMs);
      socket.once(url.protocol === "https:" ? "secureConnect" : "connect", startResponseTimer);
    });
    req.on("error", (error) => finish({ statusCode: null, error: error.message || String(error), excerpt: null }));
    req.on("response", (res) => {
      const limit = request.excerptBytes ?? 1024;
      const chunks: Buffer[] = [];
      let kept = 0;
      let read = 0;
      const done = () => {
        const excerpt = Buffer.concat(chunks).toString("utf8");
        finish({ statusCode: res.statusCode ?? null, error: null, excerpt: excerpt || null });
      };
      res.on("data", (chunk: Buffer) => {
        read += chunk.length;
        if (kept < limit) {
          const part = chunk.subarray(0, limit - kept);
          chunks.push(part);
          kept += part.length;
        }
        if (read > MAX_READ_BYTES) {
          done();
          res.destroy();
        }
      });
      res.on("end", done);
      res.on("error", done);
      res.on("close", done);
    });
    req.end(request.body);
  });
};
