/**
 * Two Masthead processes on one PostgreSQL and one Redis behave as one (docs/operations.md,
 * "Several instances"):
 * - a rate limit counts the requests of both (RATE_LIMIT_STORE=redis);
 * - a settings change saved in the dashboard of one is what the other serves at once, although it
 *   had the publisher cached (server/cache: pg_notify on commit, a listener on each instance);
 * - so is a story saved on one, although the other had the list that shows it in its response
 *   cache (server/cache/response-cache.ts);
 * - due jobs are claimed once: scheduled publications waiting when both start are published once
 *   each, and each webhook delivery they cause reaches its receiver once.
 */
import { randomInt } from "node:crypto";

import { expect, test } from "@playwright/test";

import { insertStory } from "../../server/testing/publishing-factories";
import { startReceiver } from "../../server/testing/webhook-receiver";
import { submitSignIn } from "../fixtures";
import {
  insertAccountWithOwner,
  insertStoryDueNow,
  specSchema,
  startBuiltServer,
  waitFor,
  type BuiltServer,
} from "./built-server";

const SCHEMA = `mh_instances_${process.pid}`;
const PORT_A = Number(process.env.E2E_PORT ?? 3210) + 25;
const PORT_B = PORT_A + 1;
const REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
const OWNER = { email: "owner@instances.example", password: "two instances, one newsroom" };
const SCHEDULED = 12;

test.setTimeout(240_000);

const database = specSchema(SCHEMA);

test("two instances share rate limits, caches and jobs", async ({ page }) => {
  const db = database().prisma;
  const account = await insertAccountWithOwner(db, { slug: "instances", owner: OWNER });
  const receiver = await startReceiver();
  await db.webhookEndpoint.create({
    data: { accountId: account.id, kind: "CONTENT", url: receiver.url, events: ["story-publish"] },
  });
  const published = await insertStory(db, account.id, { headline: "Already out", status: "PUBLISHED" });
  // Publications due now, waiting for whichever instance claims them first.
  const scheduled: { id: string; headline: string }[] = [];
  for (let i = 0; i < SCHEDULED; i++) {
    const { story } = await insertStoryDueNow(db, { accountId: account.id, headline: `Scheduled ${i}` });
    scheduled.push(story);
  }

  const env = { RATE_LIMIT_STORE: "redis", REDIS_URL, TRUST_PROXY: "true", JOBS_POLL_INTERVAL_MS: "100" };
  let servers: BuiltServer[] = [];
  try {
    servers = await Promise.all([
      startBuiltServer({ port: PORT_A, schema: SCHEMA, env: { ...env, APP_URL: `http://127.0.0.1:${PORT_A}` } }),
      startBuiltServer({ port: PORT_B, schema: SCHEMA, env: { ...env, APP_URL: `http://127.0.0.1:${PORT_B}` } }),
    ]);
    const [a, b] = servers as [BuiltServer, BuiltServer];

    await test.step("each instance listens for the other's changes", async () => {
      for (const server of servers) {
        await waitFor(
          async () => {
            const health = (await (await fetch(`${server.url}/api/health`)).json()) as { cache_invalidation: string };
            return health.cache_invalidation === "listening" ? true : undefined;
          },
          20_000,
          `${server.url} to listen`,
        );
      }
    });

    await test.step("jobs: each scheduled story is published once, and its event delivered once", async () => {
      await waitFor(
        async () =>
          (await db.story.count({ where: { id: { in: scheduled.map((s) => s.id) }, status: "PUBLISHED" } })) ===
          SCHEDULED
            ? true
            : undefined,
        60_000,
        "the scheduled stories",
      );
      await waitFor(async () => (receiver.requests.length >= SCHEDULED ? true : undefined), 60_000, "deliveries");
      // Time for a second delivery of anything, were there one.
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      const jobs = await db.job.findMany({ where: { name: "story.publish" } });
      expect(jobs.map((job) => [job.status, job.attempts])).toEqual(jobs.map(() => ["SUCCEEDED", 1]));
      const events = receiver.requests.map((request) => String(request.headers["x-masthead-event-id"]));
      expect(events).toHaveLength(SCHEDULED);
      expect(new Set(events).size).toBe(SCHEDULED);
      for (const story of scheduled)
        expect(
          receiver.requests.filter((request) => request.body.includes(story.id)),
          story.headline,
        ).toHaveLength(1);
    });

    await test.step("rate limits: the two instances count one client's requests together", async () => {
      // One client behind the load balancer (TRUST_PROXY): 10 forgot-password requests a minute.
      const client = `198.51.100.${randomInt(1, 254)}`;
      const statuses: number[] = [];
      for (let i = 0; i < 14; i++) {
        const server = i % 2 === 0 ? a : b;
        const response = await fetch(`${server.url}/api/admin/password/forgot`, {
          method: "POST",
          headers: { "Content-Type": "application/json", "X-Forwarded-For": client },
          body: JSON.stringify({ email: `nobody-${i}@instances.example` }),
        });
        statuses.push(response.status);
      }
      expect(statuses.filter((status) => status === 429)).toHaveLength(4);
      expect(statuses.slice(0, 10).every((status) => status < 400)).toBe(true);
    });

    await test.step("caches: a settings change saved on A is what B serves at once", async () => {
      const configOf = async (server: BuiltServer) =>
        (await (await fetch(`${server.url}/api/v1/config`)).json()) as Record<string, unknown>;
      const storyUrlOn = async (server: BuiltServer) =>
        (
          (await (await fetch(`${server.url}/api/v1/stories-by-slug?slug=${published.slug}`)).json()) as {
            story: { url: string };
          }
        ).story.url;
      // B has the publisher cached (it just served it).
      expect((await configOf(b))["sketches-host"]).toBe(`http://127.0.0.1:${PORT_B}`);
      expect(await storyUrlOn(b)).toContain(`http://127.0.0.1:${PORT_B}/`);

      await page.goto(`${a.url}/admin/sign-in`);
      await submitSignIn(page, OWNER);
      await expect(page).toHaveURL(/\/admin$/);
      await page.goto(`${a.url}/admin/settings`);
      await page.getByLabel("Public URL of the site").fill("https://www.instances.example/");
      await page.getByRole("button", { name: "Save settings" }).click();
      await expect(page.getByTestId("settings-saved")).toContainText("Settings saved");

      // At once, not after the cache's time-to-live (5 s).
      const started = Date.now();
      expect((await configOf(b))["sketches-host"]).toBe("https://www.instances.example");
      expect(await storyUrlOn(b)).toMatch(/^https:\/\/www\.instances\.example\//);
      expect(Date.now() - started).toBeLessThan(3_000);
    });

    await test.step("responses: a story saved on A is what B serves at once, though B had the answer in memory", async () => {
      const listOn = async (server: BuiltServer) => {
        const response = await fetch(`${server.url}/api/v1/stories?limit=50`);
        return { cache: response.headers.get("x-cache"), body: await response.text() };
      };
      await listOn(b);
      expect((await listOn(b)).cache).toBe("HIT");
      // The owner signed in on A (previous step) saves the published story through A's dashboard API.
      const trpc = async (path: string, input: unknown) => {
        const response = await page.request.post(`${a.url}/api/trpc/${path}`, { data: { json: input } });
        expect(response.status(), await response.text()).toBe(200);
      };
      const { version } = await db.story.findUniqueOrThrow({ where: { id: published.id }, select: { version: true } });
      await trpc("stories.update", { id: published.id, version, headline: "Already out, updated" });
      const started = Date.now();
      await waitFor(
        async () => {
          const list = await listOn(b);
          return list.body.includes("Already out, updated") ? list : undefined;
        },
        3_000,
        "B's list to show the saved headline",
      );
      expect(Date.now() - started).toBeLessThan(3_000);
    });
  } finally {
    await Promise.all(servers.map((server) => server.kill()));
    await receiver.close();
  }
});
