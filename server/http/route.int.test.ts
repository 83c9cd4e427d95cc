/* eslint-disable max-lines -- one suite per concern of apiRoute (authentication, errors, rate limits, CORS) on the helpers at its top */
import { Redis } from "ioredis";
import { SignJWT } from "jose";
import { afterAll, describe, expect, it } from "vitest";
import { z } from "zod";

import { resetEnvCache } from "../../env.js";
import { createApiKey } from "../auth/api-keys";
import { ProcessCache } from "../cache/process-cache";
import { getDb } from "../db";
import { AppError } from "../errors";
import { checkRateLimit, DatabaseRateLimitStore, RedisRateLimitStore } from "../rate-limit";
import { apiRoute, routes } from "./route";

const SECRET = "publisher-shared-secret-for-tests-0001";
const NO_PARAMS = { params: Promise.resolve({}) };

async function setup() {
  const db = await getDb();
  const account = await db.account.create({
    data: { slug: `h${Math.random().toString(36).slice(2, 8)}`, name: "Gazette", jwtSecret: SECRET },
  });
  const server = await createApiKey(db, { accountId: account.id, kind: "SERVER", name: "s" });
  const client = await createApiKey(db, { accountId: account.id, kind: "CLIENT", name: "c" });
  return { db, account, serverKey: server.key, clientKey: client.key, serverKeyId: server.id };
}

const jwt = (
  claims: Record<string, unknown>,
  options: { secret?: string; exp?: string | number; alg?: string } = {},
) => {
  const token = new SignJWT(claims).setProtectedHeader({ alg: options.alg ?? "HS256" }).setIssuedAt();
  if (options.exp !== undefined) token.setExpirationTime(options.exp);
  return token.sign(new TextEncoder().encode(options.secret ?? SECRET));
};

async function body(response: Response) {
  return (await response.json()) as {
    error: { code: string; message: string; details?: { field: string; issue: string }[] };
  } & Record<string, unknown>;
}

describe("apiRoute: a write", () => {
  const kept = new ProcessCache<number, string>("publisher", { ttlMs: 60_000, maxEntries: 10 });
  const rename = apiRoute({ auth: "server" }, async ({ db, account }) => {
    // One statement outside any transaction, as a single-row service write is.
    await db.$executeRaw`UPDATE accounts SET name = 'Renamed' WHERE id = ${account.id}`;
    return Response.json({ renamed: true });
  });

  it("answers once this instance heard what it committed: a cache of what it wrote is already dropped", async () => {
    const { account, serverKey } = await setup();
    for (let round = 0; round < 5; round++) {
      kept.set(account.id, "Gazette");
      const res = await rename(
        new Request("http://t/x", { method: "POST", headers: { "X-SUBAUTH": serverKey } }),
        NO_PARAMS,
      );
      expect(res.status).toBe(200);
      expect(kept.get(account.id), `round ${round}`).toBeUndefined();
    }
  });
});

describe("apiRoute: authentication", () => {
  const serverRoute = apiRoute({ auth: "server" }, async ({ account }) => Response.json({ account: account.id }));

  it("takes a valid X-SUBAUTH key and refuses a missing, wrong, client or revoked one with 401", async () => {
    const { db, account, serverKey, clientKey, serverKeyId } = await setup();
    const call = (key?: string) =>
      serverRoute(new Request("http://t/x", { headers: key ? { "X-SUBAUTH": key } : {} }), NO_PARAMS);
    const ok = await call(serverKey);
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ account: account.id });
    for (const key of [undefined, "mh_sk_wrong", clientKey]) {
      const res = await call(key);
      expect(res.status).toBe(401);
      expect((await body(res)).error.code).toBe("UNAUTHORIZED");
    }
    await db.apiKey.update({ where: { id: serverKeyId }, data: { revokedAt: new Date() } });
    expect((await call(serverKey)).status).toBe(401);
  });

  it("takes a client key with a publisher-signed user JWT under any of its names", async () => {
    const { clientKey } = await setup();
    const route = apiRoute({ auth: "client+user" }, async ({ user }) => Response.json({ user }));
    const token = await jwt({ id: 42, name: "Reader", email: "r@example.com" }, { exp: "1h" });
    for (const param of ["masthead_jwt", "accesstype_jwt", "svc_jwt"]) {
      const res = await route(new Request(`http://t/x?key=${clientKey}&${param}=${token}`), NO_PARAMS);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({
        user: { id: "42", name: "Reader", email: "r@example.com", avatarUrl: null, provider: null },
      });
    }
  });

  it("refuses expired, wrongly signed, unsigned and claimless JWTs, and a missing one where a user is required", async () => {
    const { clientKey } = await setup();
    const route = apiRoute({ auth: "client+user" }, async () => Response.json({}));
    const none = `${Buffer.from('{"alg":"none"}').toString("base64url")}.${Buffer.from('{"id":1,"name":"x"}').toString("base64url")}.`;
    const tokens = [
      await jwt({ id: 1, name: "x" }, { exp: Math.floor(Date.now() / 1000) - 3600 }),
      await jwt({ id: 1, name: "x" }, { secret: "another-secret-another-secret-0000" }),
      await jwt({ id: 1, name: "x" }, { alg: "HS512" }),
      none,
      await jwt({ name: "no id" }),
      "garbage",
    ];
    for (const token of tokens) {
      const res = await route(new Request(`http://t/x?key=${clientKey}&masthead_jwt=${token}`), NO_PARAMS);
      expect(res.status).toBe(401);
    }
    expect((await route(new Request(`http://t/x?key=${clientKey}`), NO_PARAMS)).status).toBe(401);
    const optional = apiRoute({ auth: "client+optionalUser" }, async ({ user }) => Response.json({ user }));
    expect(await (await optional(new Request(`http://t/x?key=${clientKey}`), NO_PARAMS)).json()).toEqual({
      user: null,
    });
    expect((await optional(new Request(`http://t/x?key=${clientKey}&masthead_jwt=garbage`), NO_PARAMS)).status).toBe(
      401,
    );
  });

  it("reads the account from the path and the publisher JWT from the query or the body; name and id are required", async () => {
    const { account } = await setup();
    const route = apiRoute(
      {
        auth: "publisherJwt+user",
        params: z.object({ account_id: z.string() }),
        body: z.object({ jwt: z.string().optional(), text: z.string() }),
      },
      async ({ account, user }) => Response.json({ account: account.id, user: user.id }),
    );
    const params = (id: string | number) => ({ params: Promise.resolve({ account_id: String(id) }) });
    /** POST {"text":"hi"} with the JWT (if any) in the query, to the account given. */
    const postWithQueryJwt = (token: string | null, accountId: string | number) =>
      route(
        new Request(token === null ? "http://t/x" : `http://t/x?jwt=${token}`, {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: '{"text":"hi"}',
        }),
        params(accountId),
      );
    const good = await jwt({ id: "u1", name: "Una" });
    const inBody = await route(
      new Request("http://t/x", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ jwt: good, text: "hi" }),
      }),
      params(account.id),
    );
    expect(inBody.status).toBe(200);
    expect(await inBody.json()).toEqual({ account: account.id, user: "u1" });
    const inQuery = await postWithQueryJwt(good, account.id);
    expect(inQuery.status).toBe(200);
    const noName = await jwt({ id: "u1" });
    expect((await postWithQueryJwt(noName, account.id)).status).toBe(401);
    expect((await postWithQueryJwt(null, account.id)).status).toBe(401);
    expect((await postWithQueryJwt(good, 999999)).status).toBe(404);
  });

  it("looks for the body's JWT within the route's body limit: a long body without Content-Length is cut there", async () => {
    const { account } = await setup();
    const route = apiRoute(
      {
        auth: "publisherJwt+user",
        params: z.object({ account_id: z.string() }),
        body: z.object({}),
        maxBodyBytes: 64 * 1024,
      },
      async () => Response.json({}),
    );
    let sent = 0;
    const chunk = new TextEncoder().encode(`{"jwt":"${"x".repeat(16 * 1024)}`);
    const endless = new ReadableStream<Uint8Array>({
      pull(c) {
        // Ended at 8 MiB only so that a reader without a limit fails this test instead of hanging it.
        if (sent >= 8 * 1024 * 1024) return c.close();
        sent += chunk.byteLength;
        c.enqueue(chunk);
      },
    });
    const response = await route(
      new Request("http://t/x", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: endless,
        duplex: "half",
      } as RequestInit),
      { params: Promise.resolve({ account_id: String(account.id) }) },
    );
    // The JWT cannot be read within the limit: the body is too large.
    expect(response.status).toBe(413);
    expect(sent).toBeLessThan(256 * 1024);
  });
});

describe("apiRoute: errors, one shape, the right status", () => {
  const strict = apiRoute(
    {
      auth: "public",
      query: z.object({ limit: z.coerce.number().int().min(1).max(100), sort: z.enum(["asc", "desc"]) }),
      body: z.object({ name: z.string().min(1) }),
    },
    async ({ body }) => Response.json({ hello: body.name }, { status: 201 }),
  );
  const post = (init: RequestInit & { url?: string }) =>
    strict(new Request(init.url ?? "http://t/x?limit=5&sort=asc", { method: "POST", ...init }), NO_PARAMS);
  const json = { "Content-Type": "application/json" };

  it("answers 201 with X-Request-Id, and reuses a sane incoming one", async () => {
    const res = await post({ headers: { ...json, "X-Request-Id": "req-abc-12345" }, body: '{"name":"A"}' });
    expect(res.status).toBe(201);
    expect(res.headers.get("x-request-id")).toBe("req-abc-12345");
    const other = await post({ headers: { ...json, "X-Request-Id": "<script>" }, body: '{"name":"A"}' });
    expect(other.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("400: malformed JSON, and every bad parameter listed", async () => {
    const malformed = await post({ headers: json, body: '{"name":' });
    expect(malformed.status).toBe(400);
    expect((await body(malformed)).error).toMatchObject({
      code: "BAD_REQUEST",
      details: [{ field: "body", issue: "malformed JSON" }],
    });
    const bad = await post({ url: "http://t/x?limit=500&sort=up", headers: json, body: '{"name":"A"}' });
    expect(bad.status).toBe(400);
    expect((await body(bad)).error.details!.map((d) => d.field).sort()).toEqual(["query.limit", "query.sort"]);
    const badBody = await post({ headers: json, body: '{"name":""}' });
    expect((await body(badBody)).error.details).toEqual([{ field: "body.name", issue: expect.any(String) as string }]);
  });

  it("406 when Accept rules out JSON, 413 for a large body, 415 for a wrong content type", async () => {
    expect((await post({ headers: { ...json, Accept: "text/html" }, body: '{"name":"A"}' })).status).toBe(406);
    expect(
      (await post({ headers: { ...json, Accept: "application/json;q=0, text/html" }, body: '{"name":"A"}' })).status,
    ).toBe(406);
    expect((await post({ headers: { ...json, Accept: "text/html, */*;q=0.1" }, body: '{"name":"A"}' })).status).toBe(
      201,
    );
    const big = JSON.stringify({ name: "x".repeat(2 * 1024 * 1024) });
    expect((await post({ headers: json, body: big })).status).toBe(413);
    // No Content-Length: the stream is cut at the limit.
    const stream = new ReadableStream({
      start(c) {
        c.enqueue(new TextEncoder().encode(big));
        c.close();
      },
    });
    expect(
      (
        await strict(
          new Request("http://t/x?limit=5&sort=asc", {
            method: "POST",
            headers: json,
            body: stream,
            duplex: "half",
          } as RequestInit),
          NO_PARAMS,
        )
      ).status,
    ).toBe(413);
    // A body whose client goes away before it ends: a 400, not a server error.
    const cut = new ReadableStream({
      start(c) {
        c.enqueue(new TextEncoder().encode('{"name":'));
      },
      pull(c) {
        c.error(new Error("aborted"));
      },
    });
    const cutOff = await strict(
      new Request("http://t/x?limit=5&sort=asc", {
        method: "POST",
        headers: json,
        body: cut,
        duplex: "half",
      } as RequestInit),
      NO_PARAMS,
    );
    expect(cutOff.status).toBe(400);
    expect((await body(cutOff)).error.details).toEqual([{ field: "body", issue: "was cut off" }]);
    const wrongType = await post({ headers: { "Content-Type": "text/xml" }, body: "<a/>" });
    expect(wrongType.status).toBe(415);
    expect((await body(wrongType)).error.code).toBe("UNSUPPORTED_MEDIA_TYPE");
  });

  it("takes JSON sent as text/plain where a route allows it (existing clients do)", async () => {
    const route = apiRoute(
      {
        auth: "public",
        body: z.object({ requests: z.record(z.string(), z.unknown()) }),
        bodyTypes: ["json", "text-json"],
      },
      async ({ body }) => Response.json(body),
    );
    const res = await route(
      new Request("http://t/x", {
        method: "POST",
        headers: { "Content-Type": "text/plain" },
        body: '{"requests":{"a":{}}}',
      }),
      NO_PARAMS,
    );
    expect(res.status).toBe(200);
  });

  it("403, 404, 409, 422 from the domain; 500 without internals", async () => {
    const thrower = (error: unknown) =>
      apiRoute({ auth: "public" }, async () => {
        throw error;
      });
    const call = (error: unknown) => thrower(error)(new Request("http://t/x"), NO_PARAMS);
    expect((await call(new AppError("FORBIDDEN", "No."))).status).toBe(403);
    expect((await call(new AppError("NOT_FOUND", "No such story."))).status).toBe(404);
    expect((await call(new AppError("UNPROCESSABLE", "Plan is full."))).status).toBe(422);
    const db = await getDb();
    await db.account.create({ data: { slug: "dupe", name: "A", jwtSecret: "x" } });
    const conflict = await apiRoute({ auth: "public" }, async () => {
      await db.account.create({ data: { slug: "dupe", name: "B", jwtSecret: "x" } });
      return Response.json({});
    })(new Request("http://t/x"), NO_PARAMS);
    expect(conflict.status).toBe(409);
    const crash = await call(new Error('relation "secret_table" does not exist at SELECT * FROM secret_table'));
    expect(crash.status).toBe(500);
    const text = await crash.text();
    expect(text).not.toContain("secret_table");
    expect(JSON.parse(text)).toEqual({ error: { code: "INTERNAL", message: "Internal server error." } });
  });

  it("405 with Allow for methods a path does not have", async () => {
    const exports = routes({ GET: apiRoute({ auth: "public" }, async () => Response.json({ ok: true })) });
    const res = await exports.DELETE(new Request("http://t/x", { method: "DELETE" }), NO_PARAMS);
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
    expect((await body(res)).error.code).toBe("METHOD_NOT_ALLOWED");
    expect((await exports.GET(new Request("http://t/x"), NO_PARAMS)).status).toBe(200);
  });
});

describe("apiRoute: text the database cannot store", () => {
  it("is a 400, not a 500, wherever a NUL character (U+0000) slips past validation", async () => {
    const lookup = apiRoute({ auth: "public", query: z.object({ slug: z.string() }) }, async ({ query }) => {
      const db = await getDb();
      return Response.json({ found: Boolean(await db.tag.findFirst({ where: { slug: query.slug } })) });
    });
    const res = await lookup(new Request("http://t/x?slug=a%00b"), NO_PARAMS);
    expect(res.status).toBe(400);
    expect((await body(res)).error.code).toBe("BAD_REQUEST");
    expect((await lookup(new Request("http://t/x?slug=ab"), NO_PARAMS)).status).toBe(200);
  });
});

// eslint-disable-next-line max-lines-per-function -- a describe block of short cases that share its setup
describe("apiRoute: rate limits", () => {
  it("429 with Retry-After and RateLimit headers past the limit", async () => {
    const route = apiRoute(
      { auth: "public", rateLimit: { name: `t${Date.now()}`, limit: 3, windowSeconds: 60, by: "ip" } },
      async () => Response.json({}),
    );
    const statuses: number[] = [];
    let last: Response | undefined;
    for (let i = 0; i < 5; i++) {
      last = await route(new Request("http://t/x"), NO_PARAMS);
      statuses.push(last.status);
    }
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    expect(Number(last!.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(last!.headers.get("ratelimit-limit")).toBe("3");
    expect(last!.headers.get("ratelimit-remaining")).toBe("0");
    expect((await body(last!)).error.code).toBe("RATE_LIMITED");
  });

  describe("the caller's IP without TRUST_PROXY", () => {
    const limited = () =>
      apiRoute(
        {
          auth: "public",
          rateLimit: { name: `peer${Date.now()}${Math.random()}`, limit: 1, windowSeconds: 60, by: "ip" },
        },
        async () => Response.json({}),
      );
    const from = (route: ReturnType<typeof limited>, headers: Record<string, string>) =>
      route(new Request("http://t/x", { headers }), NO_PARAMS).then((res) => res.status);
    const served = globalThis as { mastheadSetsPeerAddress?: boolean };
    const behindServeMjs = async (run: () => Promise<void>) => {
      served.mastheadSetsPeerAddress = true;
      try {
        await run();
      } finally {
        delete served.mastheadSetsPeerAddress;
      }
    };

    it("is the socket's address scripts/serve.mjs passes on: two callers, two buckets", async () => {
      await behindServeMjs(async () => {
        const route = limited();
        expect(await from(route, { "x-masthead-peer": "192.0.2.1" })).toBe(200);
        expect(await from(route, { "x-masthead-peer": "192.0.2.1" })).toBe(429);
        expect(await from(route, { "x-masthead-peer": "2001:db8::7" })).toBe(200);
        expect(await from(route, { "x-masthead-peer": "2001:db8::7" })).toBe(429);
        // An IPv6 caller is its /64: another address of that network is the same caller, the next
        // network another, and an IPv4 address as a dual-stack socket writes it is that address.
        expect(await from(route, { "x-masthead-peer": "2001:db8:0:0:9f3c:1:2:3" })).toBe(429);
        expect(await from(route, { "x-masthead-peer": "2001:db8:0:1::7" })).toBe(200);
        expect(await from(route, { "x-masthead-peer": "::ffff:192.0.2.1" })).toBe(429);
        // X-Forwarded-For is the client's to write: not counted by without TRUST_PROXY.
        expect(await from(route, { "x-masthead-peer": "192.0.2.1", "x-forwarded-for": "198.51.100.9" })).toBe(429);
      });
    });

    it("never comes from the header where serve.mjs did not set it: every caller is one bucket", async () => {
      const route = limited();
      expect(await from(route, { "x-masthead-peer": "192.0.2.1" })).toBe(200);
      // A forged peer address (or none) does not open a fresh bucket.
      expect(await from(route, { "x-masthead-peer": "192.0.2.2" })).toBe(429);
      expect(await from(route, {})).toBe(429);
    });

    it("gives way to X-Forwarded-For under TRUST_PROXY", async () => {
      process.env.TRUST_PROXY = "true";
      resetEnvCache();
      try {
        await behindServeMjs(async () => {
          const route = limited();
          const proxy = "10.0.0.1";
          expect(await from(route, { "x-masthead-peer": proxy, "x-forwarded-for": "198.51.100.1" })).toBe(200);
          expect(await from(route, { "x-masthead-peer": proxy, "x-forwarded-for": "198.51.100.1, 10.0.0.1" })).toBe(
            429,
          );
          expect(await from(route, { "x-masthead-peer": proxy, "x-forwarded-for": "198.51.100.2" })).toBe(200);
          expect(await from(route, { "x-masthead-peer": proxy, "x-forwarded-for": "2001:db8:5::1" })).toBe(200);
          expect(await from(route, { "x-masthead-peer": proxy, "x-forwarded-for": "[2001:db8:5::2]:4711" })).toBe(429);
        });
      } finally {
        delete process.env.TRUST_PROXY;
        resetEnvCache();
      }
    });
  });

  it("counts per signed-in reader and per guest IP, on the database store, each rule apart", async () => {
    const { db, account } = await setup();
    process.env.RATE_LIMIT_STORE = "database";
    resetEnvCache();
    (globalThis as { mastheadRateLimitStore?: unknown }).mastheadRateLimitStore = undefined;
    try {
      const name = `r${Date.now()}`;
      const route = apiRoute(
        {
          auth: "publisherJwt",
          params: z.object({ account_id: z.string() }),
          rateLimit: [
            { name, limit: 10, windowSeconds: 60, by: "ip" },
            { name: `${name}.reader`, limit: 2, windowSeconds: 60, by: "reader" },
            { name: `${name}.guest`, limit: 1, windowSeconds: 60, by: "guest" },
          ],
        },
        async () => Response.json({}),
      );
      const as = (token: string | null) =>
        route(new Request(token ? `http://t/x?jwt=${token}` : "http://t/x"), {
          params: Promise.resolve({ account_id: String(account.id) }),
        });
      const ada = await jwt({ id: "ada", name: "Ada" });
      const bo = await jwt({ id: "bo", name: "Bo" });
      const statuses = [];
      for (const token of [ada, ada, ada, bo, null, null, bo, bo]) statuses.push((await as(token)).status);
      expect(statuses).toEqual([200, 200, 429, 200, 200, 429, 200, 429]);
      const refused = await as(ada);
      expect(refused.headers.get("ratelimit-limit")).toBe("2");
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
      const keys = (await db.rateLimitBucket.findMany({ where: { key: { startsWith: name } } })).map((b) => b.key);
      expect(keys.sort()).toEqual(
        [
          name + ":untrusted",
          `${name}.guest:untrusted`,
          `${name}.reader:${account.id}:user:ada`,
          `${name}.reader:${account.id}:user:bo`,
        ].sort(),
      );
    } finally {
      delete process.env.RATE_LIMIT_STORE;
      resetEnvCache();
      (globalThis as { mastheadRateLimitStore?: unknown }).mastheadRateLimitStore = undefined;
    }
  });

  it("the database store counts exactly under 20 parallel requests", async () => {
    const store = new DatabaseRateLimitStore(getDb);
    const rule = { name: "parallel", limit: 12, windowSeconds: 60 };
    const now = new Date();
    const results = await Promise.all(Array.from({ length: 20 }, () => checkRateLimit(store, rule, "ip-1", now)));
    expect(results.filter((r) => r.allowed)).toHaveLength(12);
    expect(
      results
        .map((r) => r.remaining)
        .sort((a, b) => a - b)
        .slice(-1)[0],
    ).toBe(11);
    // A new window starts afresh.
    const later = await checkRateLimit(store, rule, "ip-1", new Date(now.getTime() + 61_000));
    expect(later).toMatchObject({ allowed: true, remaining: 11 });
  });

  describe("the Redis store", () => {
    const redis = new Redis(process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379", {
      lazyConnect: true,
      maxRetriesPerRequest: 1,
    });
    afterAll(() => redis.disconnect());

    it("counts exactly under parallel requests, across clients", async () => {
      try {
        await redis.connect();
      } catch (error) {
        throw new Error(
          `Redis is needed at 127.0.0.1:6379 (TEST_REDIS_URL). Start it: redis-server --daemonize yes --save '' --appendonly no. (${String(error)})`,
        );
      }
      const prefix = `masthead:test:${Date.now()}:`;
      const a = new RedisRateLimitStore(redis, prefix);
      const other = new Redis(process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379");
      try {
        const b = new RedisRateLimitStore(other, prefix);
        const rule = { name: "redis", limit: 7, windowSeconds: 5 };
        const results = await Promise.all(
          Array.from({ length: 20 }, (_, i) => checkRateLimit(i % 2 ? a : b, rule, "ip-9")),
        );
        expect(results.filter((r) => r.allowed)).toHaveLength(7);
        const ttl = await redis.pttl(`${prefix}redis:ip-9`);
        expect(ttl).toBeGreaterThan(0);
        expect(ttl).toBeLessThanOrEqual(5000);
      } finally {
        other.disconnect();
      }
    });
  });
});

describe("apiRoute: CORS", () => {
  const route = apiRoute({ auth: "public", cors: true }, async () => Response.json({}));
  const exports = routes({ GET: route });

  it("reflects an allowed origin and answers its preflight", async () => {
    const res = await route(new Request("http://t/x", { headers: { Origin: "https://news.example" } }), NO_PARAMS);
    expect(res.headers.get("access-control-allow-origin")).toBe("https://news.example");
    expect(res.headers.get("vary")).toBe("Origin");
    const preflight = await exports.OPTIONS(
      new Request("http://t/x", {
        method: "OPTIONS",
        headers: { Origin: "https://news.example", "Access-Control-Request-Method": "GET" },
      }),
      NO_PARAMS,
    );
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-methods")).toBe("GET, OPTIONS");
    expect(preflight.headers.get("access-control-allow-headers")).not.toMatch(/subauth/i);
  });

  it("answers OPTIONS without an Origin (no preflight) with Allow, and a disallowed origin's preflight with a JSON 403", async () => {
    const plain = await exports.OPTIONS(new Request("http://t/x", { method: "OPTIONS" }), NO_PARAMS);
    expect(plain.status).toBe(204);
    expect(plain.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
    const before = process.env.CORS_ALLOWED_ORIGINS;
    process.env.CORS_ALLOWED_ORIGINS = "https://news.example";
    resetEnvCache();
    try {
      const refused = await exports.OPTIONS(
        new Request("http://t/x", { method: "OPTIONS", headers: { Origin: "https://evil.test" } }),
        NO_PARAMS,
      );
      expect(refused.status).toBe(403);
      expect(((await refused.json()) as { error: { code: string } }).error.code).toBe("FORBIDDEN");
      expect(refused.headers.get("access-control-allow-origin")).toBeNull();
    } finally {
      if (before === undefined) delete process.env.CORS_ALLOWED_ORIGINS;
      else process.env.CORS_ALLOWED_ORIGINS = before;
      resetEnvCache();
    }
  });
});
