import { afterEach, describe, expect, it } from "vitest";

import { resetEnvCache } from "@/env.js";
import { openDatabase, type Database } from "@/server/db/client";
import type { HealthReport } from "@/server/health";

import { GET } from "./api/health/route";

const globalForDb = globalThis as unknown as { mastheadDb?: Promise<Database> };

describe("GET /api/health", () => {
  it("answers 200 with the database's and the background engine's state", async () => {
    const response = await GET(new Request("http://test/api/health"), { params: Promise.resolve({}) });
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const body = (await response.json()) as HealthReport;
    expect(body.status).toBe("ok");
    expect(body.database.status).toBe("up");
    expect(["pglite", "postgresql"]).toContain(body.database.kind);
    expect(body.database.latency_ms).toBeGreaterThanOrEqual(0);
    expect(body.background).toEqual({ engine: "local", running: false, overdue_jobs: 0 });
    // The test process is the only one writing its database (server/testing/setup.integration.ts).
    // On PostgreSQL the test setup listens as an instance does; PGlite tells its one process itself.
    expect(body.cache_invalidation).toBe(process.env.TEST_DB === "postgres" ? "listening" : "local");
  });

  it("answers 503 when the database is unreachable, without leaking the connection string", async () => {
    const real = globalForDb.mastheadDb;
    const unreachable = await openDatabase({
      kind: "postgresql",
      url: "postgres://secretuser:secretpass@127.0.0.1:9/nowhere",
      schema: "public",
    });
    globalForDb.mastheadDb = Promise.resolve(unreachable);
    try {
      const response = await GET(new Request("http://test/api/health"), { params: Promise.resolve({}) });
      expect(response.status).toBe(503);
      const text = await response.text();
      expect(text).not.toContain("secretpass");
      const body = JSON.parse(text) as HealthReport;
      expect(body.status).toBe("unavailable");
      expect(body.database.status).toBe("down");
      expect(body.database.error).toMatch(/reach database server|ECONNREFUSED/i);
    } finally {
      globalForDb.mastheadDb = real;
      await unreachable.close();
    }
  });

  describe("with rate limits in Redis", () => {
    const globalStore = globalThis as unknown as { mastheadRateLimitStore?: Promise<{ probe?(): Promise<void> }> };
    const useRedis = (url: string) => {
      process.env.RATE_LIMIT_STORE = "redis";
      process.env.REDIS_URL = url;
      delete globalStore.mastheadRateLimitStore;
      resetEnvCache();
    };
    afterEach(() => {
      delete process.env.RATE_LIMIT_STORE;
      delete process.env.REDIS_URL;
      delete globalStore.mastheadRateLimitStore;
      resetEnvCache();
    });

    it("reports Redis up next to the database", async () => {
      useRedis(process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379");
      const response = await GET(new Request("http://test/api/health"), { params: Promise.resolve({}) });
      const body = (await response.json()) as HealthReport;
      expect(response.status).toBe(200);
      expect(body.redis).toMatchObject({ status: "up" });
    });

    it("answers 503 naming Redis when it is down, the database still up, without the URL's password", async () => {
      useRedis("redis://:hunter2secret@127.0.0.1:9");
      const response = await GET(new Request("http://test/api/health"), { params: Promise.resolve({}) });
      expect(response.status).toBe(503);
      const text = await response.text();
      expect(text).not.toContain("hunter2secret");
      const body = JSON.parse(text) as HealthReport;
      expect(body).toMatchObject({ status: "unavailable", database: { status: "up" }, redis: { status: "down" } });
    });
  });
});
