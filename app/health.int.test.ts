import { describe, expect, it } from "vitest";

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
});
