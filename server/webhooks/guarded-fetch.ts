/**
 * A small `fetch` for calls Masthead makes to other services on a reader's behalf (OpenID
 * discovery, JWKS, userinfo, token introspection, the Facebook Graph API), with the same address
 * rules as webhooks (url-guard.ts): no loopback, private, link-local or reserved address, checked
 * before connecting (literal IPs, localhost names) and on the socket's own DNS answer; redirects
 * are not followed (a 3xx is an answer, and a failure to the caller); a timeout; at most
 * `maxBytes` read. It answers a web `Response`, so libraries that take a fetch (jose's
 * createRemoteJWKSet through its `customFetch` option) use it unchanged.
 */
import http from "node:http";
import https from "node:https";

import { BlockedAddressError, guardedLookup, refusedHostWithoutDns } from "./url-guard";

type GuardedFetchOptions = {
  /** Let the call reach private and loopback addresses (tests, local development). */
  allowPrivate: boolean;
  timeoutMs?: number;
  maxBytes?: number;
};

const DEFAULT_TIMEOUT_MS = 5000;
const DEFAULT_MAX_BYTES = 512 * 1024;

/** A fetch(url, init) limited as above; GET and POST with a string body. Network failures reject. */
export function guardedFetch(options: GuardedFetchOptions) {
  return (input: string | URL, init: { method?: string; headers?: HeadersInit; body?: string } = {}) =>
    new Promise<Response>((resolve, reject) => {
      const url = new URL(input);
      if (url.protocol !== "https:" && url.protocol !== "http:") {
        return reject(new Error(`refused URL scheme ${url.protocol}`));
      }
      const refused = options.allowPrivate ? null : refusedHostWithoutDns(url.hostname);
      if (refused) return reject(new BlockedAddressError(refused, refused));
      const headers = Object.fromEntries(new Headers(init.headers).entries());
      if (init.body !== undefined) headers["content-length"] = String(Buffer.byteLength(init.body));
      const transport = url.protocol === "https:" ? https : http;
      const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
      const req = transport.request(url, {
        method: init.method ?? "GET",
        headers: { "user-agent": "Masthead/1.0", ...headers },
        lookup: guardedLookup(options.allowPrivate),
        timeout: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      });
      req.on("timeout", () => req.destroy(new Error(`no answer from ${url.host} in time`)));
      req.on("error", reject);
      req.on("response", (res) => {
        const chunks: Buffer[] = [];
        let read = 0;
        res.on("data", (chunk: Buffer) => {
          read += chunk.length;
          if (read > maxBytes) {
            res.destroy();
            return reject(new Error(`answer from ${url.host} larger than ${maxBytes} bytes`));
          }
          chunks.push(chunk);
        });
        res.on("error", reject);
        res.on("end", () => {
          const responseHeaders = new Headers();
          for (const [name, value] of Object.entries(res.headers)) {
            if (Array.isArray(value)) for (const v of value) responseHeaders.append(name, v);
            else if (value !== undefined) responseHeaders.set(name, value);
          }
          const status = res.statusCode ?? 502;
          const empty = status === 204 || status === 304;
          resolve(
            new Response(empty ? null : Buffer.concat(chunks), {
              status: status < 200 || status > 599 ? 502 : status,
              headers: responseHeaders,
            }),
          );
        });
      });
      req.end(init.body);
    });
}

export type GuardedFetch = ReturnType<typeof guardedFetch>;
