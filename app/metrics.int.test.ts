import { afterEach, describe, expect, it } from "vitest";

import { resetEnvCache } from "@/env.js";
import { getDb } from "@/server/db";
import { enqueueJob } from "@/server/jobs/queue";
import { publishScheduledStoryJob } from "@/server/publishing/editorial/scheduling";

import { GET as health } from "./api/health/route";
import { GET } from "./api/metrics/route";

const TOKEN = "metrics-token-for-the-tests-0123456789";
const noParams = { params: Promise.resolve({}) };

function scrape(authorization?: string) {
  return GET(new Request("http://test/api/metrics", { headers: authorization ? { authorization } : {} }), noParams);
}

afterEach(() => {
  delete process.env.METRICS_TOKEN;
  resetEnvCache();
});

describe("GET /api/metrics", () => {
  it("is not served while METRICS_TOKEN is unset", async () => {
    const response = await scrape(`Bearer ${TOKEN}`);
    expect(response.status).toBe(404);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe("NOT_FOUND");
  });

  it("refuses a missing or wrong token with 401", async () => {
    process.env.METRICS_TOKEN = TOKEN;
    resetEnvCache();
    for (const header of [undefined, "Bearer nope", `Basic ${TOKEN}`, `Bearer ${TOKEN}x`]) {
      const response = await scrape(header);
      expect(response.status, String(header)).toBe(401);
      expect(response.headers.get("www-authenticate")).toContain("Bearer");
      expect(await response.text()).not.toContain(TOKEN);
    }
  });

  it("counts requests by route template and status, and reads jobs from the database", async () => {
    process.env.METRICS_TOKEN = TOKEN;
    resetEnvCache();
    const db = await getDb();
    await health(new Request("http://test/api/health"), noParams);
    await health(new Request("http://test/api/health"), noParams);
    const due = new Date(Date.now() - 10 * 60_000);
    await enqueueJob(
      db,
      publishScheduledStoryJob,
      { storyId: crypto.randomUUID(), publishAt: due.toISOString() },
      { runAt: due, now: due },
    );

    const response = await scrape(`Bearer ${TOKEN}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("text/plain");
    const text = await response.text();
    const requests = /masthead_http_requests_total\{method="GET",route="\/api\/health",status="200"\} (\d+)/.exec(text);
    expect(Number(requests?.[1])).toBeGreaterThanOrEqual(2);
    expect(text).toMatch(
      /masthead_http_request_duration_seconds_bucket\{le="[\d.]+",method="GET",route="\/api\/health"\}/,
    );
    expect(text).toMatch(/masthead_jobs\{name="story\.publish",state="overdue"\} 1/);
    expect(text).toMatch(/masthead_jobs\{name="story\.publish",state="pending"\} 1/);
    expect(text).toMatch(/masthead_webhook_deliveries\{status="pending"\} 0/);
    expect(text).toContain("masthead_nodejs_eventloop_lag_seconds");
  });
});
