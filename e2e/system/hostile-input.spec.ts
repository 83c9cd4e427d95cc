/**
 * A hostile-input corpus against the running server, endpoint by endpoint, from the API reference
 * (docs/api-reference.json, generated from the route files, so a new endpoint is covered the day it
 * is added): malformed encodings, NUL characters and lone surrogates, absurd numbers, deep and huge
 * bodies, wrong content types, broken JSON, forged credentials. Whatever it sends, the answer is
 * never a 5xx, and every /api/ error is the JSON error shape with a request id.
 *
 * It runs against a server of its own (the built app on a schema of its own, seeded with the demo
 * publisher as `npm start` seeds it): its thousands of requests from one address spend that
 * address's rate limits (six guest comments in ten minutes, say), which the other specs' shared
 * server must keep for the readers they play.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

import { expect, request as playwrightRequest, test, type APIRequestContext, type APIResponse } from "@playwright/test";

import { DATABASE_URL, openSchema, startBuiltServer, type BuiltServer } from "./built-server";

type Endpoint = { method: string; path: string; auth: string; query?: unknown; body?: unknown };

const REFERENCE = path.resolve(import.meta.dirname, "../../docs/api-reference.json");
const endpoints = (JSON.parse(fs.readFileSync(REFERENCE, "utf8")) as Endpoint[]).filter(
  (e) => !e.path.includes("{path+}"),
);

/** Values for a path parameter: the kinds of thing a client gets wrong, and worse. */
const PATH_VALUES = [
  "1",
  "0",
  "-1",
  "99999999999999999999",
  "0x10",
  "1e3",
  "%00",
  "%ED%A0%80",
  "%E0%A4%A",
  "..%2F..%2Fetc%2Fpasswd",
  "%2e%2e",
  "a".repeat(3000),
  "%3Cscript%3E",
  "00000000-0000-0000-0000-000000000000",
  "' OR 1=1 --",
];

/** Query strings that break parsers or rules. */
const QUERIES = [
  "limit=0x10",
  "limit=1e1",
  "limit=+5",
  "limit=-1",
  "limit=99999999999999999999",
  "offset=%00",
  "q=%00",
  "q=%ED%A0%80",
  "q=%E0%A4%A",
  "fields=" + "a,".repeat(5000),
  "slug=" + "%C0%AF".repeat(50),
  "key=%00&masthead_jwt=x.y.z",
  "jwt=eyJhbGciOiJub25lIn0.eyJpZCI6MSwibmFtZSI6IngifQ.",
  "ids[]=1&ids[]=%00",
  "section-id=1&section-id=2",
  "sort=%27;DROP%20TABLE%20stories;--",
];

function deepJson(levels: number): string {
  return `${'{"a":'.repeat(levels)}1${"}".repeat(levels)}`;
}

/** Bodies (with their content type) for endpoints that take one. */
const BODIES: [string, string][] = [
  ["application/json", "{"],
  ["application/json", "null"],
  ["application/json", "[]"],
  ["application/json", '"string"'],
  ["application/json", '{"email":"a\\u0000@x.org","password":"\\ud800\\ud800","name":"\\udc00"}'],
  ["application/json", deepJson(5000)],
  ["application/json", JSON.stringify({ requests: { a: { _type: "stories", limit: "0x10" } } })],
  ["application/json", JSON.stringify({ magnitude: "1", metadata: { ["k\u0000"]: 1 } })],
  ["application/json", `{"x":"${"a".repeat(2_000_000)}"}`],
  ["text/plain", "{not json"],
  ["application/x-www-form-urlencoded", "email=%E0%A4%A&password=%00"],
  [
    "multipart/form-data; boundary=x",
    '--x\r\nContent-Disposition: form-data; name="file"\r\n\r\nnot an image\r\n--x--',
  ],
  ["application/xml", "<a/>"],
];

function fill(template: string, value: string): string {
  return template.replace(/\{[^}]+\}/g, value);
}

async function send(
  request: APIRequestContext,
  method: string,
  url: string,
  body?: [string, string],
): Promise<APIResponse> {
  return request.fetch(url, {
    method,
    headers: {
      ...(body ? { "Content-Type": body[0] } : {}),
      "X-QT-AUTH": "forged-session-token",
      "X-SUBAUTH": "mh_sk_forged",
      Cookie: "qt-auth=forged; next-auth.session-token=forged.jwt.value",
    },
    // As bytes: Playwright sends a string that is not JSON, under a JSON type, as a JSON string.
    data: body ? Buffer.from(body[1]) : undefined,
    failOnStatusCode: false,
    maxRedirects: 0,
  });
}

/** The OAuth token endpoint answers RFC 6749 §5.2's error shape (docs/api-conventions.md, "Errors"). */
const RFC6749_ERROR_PATHS = new Set(["/api/auth/v1/oauth/token"]);
const RFC6749_ERRORS = ["invalid_request", "invalid_client", "invalid_grant", "unsupported_grant_type"];

/**
 * What is wrong with `res` as an answer to hostile input, one line each (none when it is safe).
 * Plain checks, not one `expect` each: Playwright looks back through every earlier step of the
 * test for each new one, so ten thousand `expect`s cost minutes of the test runner's CPU.
 */
async function problemsWith(res: APIResponse, what: string): Promise<string[]> {
  const status = res.status();
  if (status >= 500) return [`${what} → ${status}`];
  const pathname = new URL(res.url()).pathname;
  if (status < 400 || !pathname.startsWith("/api/")) return [];
  const problems: string[] = [];
  if (!(res.headers()["content-type"] ?? "").includes("application/json")) problems.push(`${what}: not a JSON error`);
  if (!res.headers()["x-request-id"]) problems.push(`${what}: no request id`);
  const text = await res.text();
  let body: { error?: string | { code?: string; message?: string }; error_description?: string };
  try {
    body = JSON.parse(text) as typeof body;
  } catch {
    return [...problems, `${what}: the body is not JSON: ${text.slice(0, 80)}`];
  }
  if (typeof body.error === "string" && RFC6749_ERROR_PATHS.has(pathname)) {
    if (!RFC6749_ERRORS.includes(body.error)) problems.push(`${what}: ${body.error} is not an RFC 6749 error code`);
    if (!body.error_description) problems.push(`${what}: no error_description`);
  } else if (!(typeof body.error === "object" && body.error?.code)) {
    problems.push(`${what}: no error code`);
  }
  if (/\n\s+at |node_modules|\.ts:\d+/.test(text)) problems.push(`${what}: a stack trace`);
  return problems;
}

test.describe.configure({ mode: "serial" });
test.setTimeout(600_000);

const SCHEMA = `mh_hostile_${process.pid}`;
const PORT = Number(process.env.E2E_PORT ?? 3210) + 28;
const ROOT = path.resolve(import.meta.dirname, "../..");

let server: BuiltServer | undefined;
let request: APIRequestContext;
let dataDir: string;
test.beforeAll(async () => {
  test.setTimeout(300_000);
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "mh-hostile-"));
  const url = `http://127.0.0.1:${PORT}`;
  const env = { DATA_DIR: dataDir, APP_URL: url };
  // The seed creates and migrates the schema itself. (Not specSchema: a database left open after
  // migrating keeps the migration engine's advisory lock, which the seed's migration would wait on.)
  execFileSync(process.execPath, [path.join(ROOT, "node_modules/tsx/dist/cli.mjs"), "scripts/db-seed.ts"], {
    cwd: ROOT,
    env: { ...process.env, ...env, NODE_ENV: "development", DATABASE_URL, DATABASE_SCHEMA: SCHEMA },
    stdio: "ignore",
  });
  server = await startBuiltServer({ port: PORT, schema: SCHEMA, env });
  request = await playwrightRequest.newContext({ baseURL: url });
});
test.afterAll(async () => {
  await request?.dispose();
  await server?.kill();
  await (await openSchema(SCHEMA)).drop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

test("every endpoint answers hostile paths, queries and bodies without a server error", async () => {
  expect(endpoints.length).toBeGreaterThan(40);
  let sent = 0;
  const problems: string[] = [];
  const check = async (method: string, url: string, what: string, body?: [string, string]) => {
    problems.push(...(await problemsWith(await send(request, method, url, body), what)));
    sent++;
  };
  for (const endpoint of endpoints) {
    const templated = endpoint.path.includes("{");
    const paths = templated ? PATH_VALUES.map((v) => fill(endpoint.path, v)) : [endpoint.path];
    for (const p of paths) await check(endpoint.method, p, `${endpoint.method} ${p.slice(0, 80)}`);
    const base = templated ? fill(endpoint.path, "1") : endpoint.path;
    for (const q of QUERIES) {
      await check(endpoint.method, `${base}?${q}`, `${endpoint.method} ${base}?${q.slice(0, 60)}`);
    }
    if (endpoint.method !== "GET") {
      for (const body of BODIES) {
        await check(endpoint.method, base, `${endpoint.method} ${base} ${body[0]} ${body[1].slice(0, 40)}`, body);
      }
    }
  }
  expect(problems, problems.slice(0, 100).join("\n")).toEqual([]);
  expect(sent).toBeGreaterThan(1000);
});

test("the dashboard's tRPC, sign-in and pages answer hostile input without a server error", async () => {
  const cases: [string, string, [string, string]?][] = [
    ["GET", "/api/trpc/stories.list?input=%7B"],
    ["GET", "/api/trpc/stories.list?input=%E0%A4%A"],
    ["GET", "/api/trpc/stories.list,stories.get?batch=1&input=%7B%220%22%3Anull%7D"],
    ["POST", "/api/trpc/stories.create", ["application/json", "{"]],
    ["POST", "/api/trpc/stories.create", ["application/json", `{"json":${deepJson(5000)}}`]],
    ["POST", "/api/trpc/nope.nothing", ["application/json", "{}"]],
    ["POST", "/api/auth/callback/credentials", ["application/x-www-form-urlencoded", "email=%00&password=%E0%A4%A"]],
    ["POST", "/api/auth/callback/credentials", ["application/json", "{"]],
    ["GET", "/api/auth/session"],
    // A callbackUrl that is no URL, or another origin's: next-auth's default callback threw on these.
    ["POST", "/api/auth/signout", ["application/x-www-form-urlencoded", "callbackUrl=x"]],
    ["POST", "/api/auth/signin/credentials", ["application/x-www-form-urlencoded", "callbackUrl=x"]],
    [
      "POST",
      "/api/auth/callback/credentials",
      ["application/x-www-form-urlencoded", "callbackUrl=http%3A%2F%2Fa.b%3Ax"],
    ],
    ["GET", "/api/auth/signin?callbackUrl=x"],
    ["GET", "/admin/content/stories/%E0%A4%A"],
    ["GET", "/admin/content/collections/99999999999999999999"],
    ["GET", "/admin/webhooks/..%2F..%2F"],
    ["GET", "/images/%2e%2e/%2e%2e/etc/passwd"],
    ["GET", "/stories.rss?limit=0x10&section=%00"],
  ];
  for (const [method, url, body] of cases) {
    const res = await send(request, method, url, body);
    expect(res.status(), `${method} ${url} → ${res.status()}`).toBeLessThan(500);
    const text = await res.text();
    expect(text, `${method} ${url}: no stack trace`).not.toMatch(/\n\s+at .*\.(ts|js|mjs):\d+/);
  }
  // next-auth's and tRPC's paths answer a client's mistake in the API's JSON error shape too: a
  // method they do not serve, a body that does not parse, an action next-auth does not have.
  const shaped: [string, string, number, [string, string]?][] = [
    ["PUT", "/api/auth/session", 405],
    ["DELETE", "/api/auth/signout", 405],
    ["PATCH", "/api/trpc/stories.list", 405],
    ["DELETE", "/api/trpc/stories.list", 405],
    ["GET", "/api/auth/callback/credentials", 405],
    ["GET", "/api/auth/no-such-action", 404],
    ["POST", "/api/auth/session", 400, ["application/json", "{"]],
    ["POST", "/api/auth/signout", 400, ["application/json", "{"]],
  ];
  const problems: string[] = [];
  for (const [method, url, status, body] of shaped) {
    const res = await send(request, method, url, body);
    if (res.status() !== status) problems.push(`${method} ${url} → ${res.status()}, not ${status}`);
    problems.push(...(await problemsWith(res, `${method} ${url}`)));
  }
  expect(problems).toEqual([]);
});
