/**
 * The GET requests of the content API import (content-api.ts), over node:http(s):
 * - never to a loopback, private or reserved address (url-guard.ts: literal IPs and `localhost`
 *   names before connecting, names on the socket's own DNS answer) unless the operator allows it
 *   (IMPORT_ALLOW_PRIVATE_URLS=true, or `allowPrivate` in tests);
 * - no redirects followed (a 3xx is an answer that is not the API's);
 * - a timeout for the whole request, and at most `maxBytes` of a response read;
 * - a 5xx, a 429 or a failed connection tried again, `retries` times, after `backoffMs`, twice
 *   as long each time (a 429's Retry-After, up to 60 s, when it says longer).
 * What still fails is an ImportFileError naming the URL.
 */
import http from "node:http";
import https from "node:https";

import { getEnv } from "../../../env.js";
import { BlockedAddressError, guardedLookup, refusedHostWithoutDns } from "../../webhooks/url-guard";
import { ImportFileError } from "../types";

export type FetchOptions = {
  allowPrivate: boolean;
  timeoutMs: number;
  maxBytes: number;
  retries: number;
  backoffMs: number;
};

export const DEFAULT_FETCH_OPTIONS: Omit<FetchOptions, "allowPrivate"> = {
  timeoutMs: 30_000,
  maxBytes: 20 * 1024 * 1024,
  retries: 4,
  backoffMs: 1_000,
};

/** The operator's choice: private and loopback addresses allowed only with IMPORT_ALLOW_PRIVATE_URLS=true. */
export const importAllowsPrivateUrls = () => getEnv().IMPORT_ALLOW_PRIVATE_URLS;

/** An answer, or why none came; `fatal`: not worth another try (a refused address, an answer over the limit). */
type Answer = { status: number; body: string; retryAfter: number | null } | { error: string; fatal: boolean };

function getOnce(url: URL, options: FetchOptions): Promise<Answer> {
  const refused = options.allowPrivate ? null : refusedHostWithoutDns(url.hostname);
  if (refused) return Promise.resolve({ error: new BlockedAddressError(refused, refused).message, fatal: true });
  return new Promise((resolve) => {
    let settled = false;
    const finish = (answer: Answer) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(answer);
    };
    const transport = url.protocol === "https:" ? https : http;
    const req = transport.request(url, {
      method: "GET",
      lookup: guardedLookup(options.allowPrivate),
      headers: { Accept: "application/json", "User-Agent": "Masthead-import" },
    });
    const timer = setTimeout(
      () => req.destroy(new Error(`no complete answer within ${options.timeoutMs} ms`)),
      options.timeoutMs,
    );
    req.on("error", (error) =>
      finish({ error: error.message || String(error), fatal: error instanceof BlockedAddressError }),
    );
    req.on("response", (res) => {
      const chunks: Buffer[] = [];
      let read = 0;
      res.on("data", (chunk: Buffer) => {
        read += chunk.length;
        if (read > options.maxBytes) {
          finish({ error: `its answer is larger than ${options.maxBytes} bytes`, fatal: true });
          res.destroy();
          return;
        }
        chunks.push(chunk);
      });
      res.on("end", () => {
        const after = Number(res.headers["retry-after"]);
        finish({
          status: res.statusCode ?? 0,
          body: Buffer.concat(chunks).toString("utf8"),
          retryAfter: Number.isFinite(after) && after >= 0 ? Math.min(after, 60) * 1000 : null,
        });
      });
      res.on("error", (error) => finish({ error: error.message, fatal: false }));
    });
    req.end();
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * GET `url` as JSON (see the file's comment). `notFound: "null"` answers null for a 404 (a story
 * gone between two pages); any other status than 200 is an ImportFileError.
 */
export async function getJson(url: URL, options: FetchOptions, notFound: "null" | "error" = "error"): Promise<unknown> {
  let wait = options.backoffMs;
  for (let attempt = 0; ; attempt++) {
    const answer = await getOnce(url, options);
    const last = attempt >= options.retries;
    if ("error" in answer) {
      if (answer.fatal || last) throw new ImportFileError(`Cannot read ${url.href}: ${answer.error}.`);
    } else if (answer.status === 429 || answer.status >= 500) {
      if (last) {
        throw new ImportFileError(`Cannot read ${url.href}: it answered ${answer.status} ${attempt + 1} times.`);
      }
      wait = Math.max(wait, answer.retryAfter ?? 0);
    } else if (answer.status === 404 && notFound === "null") {
      return null;
    } else if (answer.status !== 200) {
      throw new ImportFileError(`Cannot read ${url.href}: it answered ${answer.status}.`);
    } else {
      try {
        return JSON.parse(answer.body) as unknown;
      } catch {
        throw new ImportFileError(`${url.href} is not a content API: its answer is not JSON.`);
      }
    }
    await sleep(wait);
    wait *= 2;
  }
}
