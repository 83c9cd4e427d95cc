/**
 * For the system specs that kill the server: the built app started as `npm start` serves it
 * (scripts/serve.mjs), on the local PostgreSQL in a schema of its own (the spec writes to the
 * database from its own process while the server runs, which PGlite's one-process rule would not
 * allow), with the local job runner polling fast.
 */
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";

import { test } from "@playwright/test";
import pg from "pg";

import { hashPassword } from "../../server/auth/password";
import { openDatabase, type Database } from "../../server/db/client";
import { applyMigrations } from "../../server/db/migrate";
import { insertStory } from "../../server/testing/publishing-factories";

const ROOT = path.resolve(import.meta.dirname, "../..");
export const DATABASE_URL = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";

/** A migrated schema of its own; `drop()` removes it. */
export async function openSchema(schema: string): Promise<Database & { drop: () => Promise<void> }> {
  const database = await openDatabase({ kind: "postgresql", url: DATABASE_URL, schema });
  await applyMigrations(database.adapter);
  return Object.assign(database, {
    drop: async () => {
      await database.prisma.$executeRawUnsafe(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await database.close();
    },
  });
}

/** The spec's own schema (openSchema), opened before its tests and dropped after them: call the result in a test. */
export function specSchema(schema: string): () => Database {
  let database: Awaited<ReturnType<typeof openSchema>> | undefined;
  test.beforeAll(async () => {
    database = await openSchema(schema);
  });
  test.afterAll(async () => {
    await database?.drop();
  });
  return () => {
    if (!database) throw new Error(`schema ${schema} is not open`);
    return database;
  };
}

/**
 * An approved story scheduled for now with its story.publish job, as scheduleStoryPublication
 * leaves them (written directly, since Playwright cannot load the dashboard's server-only
 * modules): a server's job runner publishes it as soon as it claims the job.
 */
export async function insertStoryDueNow(db: Database["prisma"], args: { accountId: number; headline: string }) {
  const publishAt = new Date();
  const story = await insertStory(db, args.accountId, { headline: args.headline, status: "APPROVED" });
  await db.story.update({ where: { id: story.id }, data: { publishAt } });
  const job = await db.job.create({
    data: {
      name: "story.publish",
      key: `story.publish:${story.id}`,
      accountId: args.accountId,
      payload: { storyId: story.id, publishAt: publishAt.toISOString() },
      runAt: publishAt,
    },
  });
  return { story, job };
}

/** An account with one owner who signs in with `owner`'s password (hashed as the dashboard does). */
export async function insertAccountWithOwner(
  db: Database["prisma"],
  args: { slug: string; owner: { email: string; password: string } },
) {
  const account = await db.account.create({ data: { slug: args.slug, name: args.slug, jwtSecret: "x".repeat(32) } });
  await db.adminUser.create({
    data: {
      accountId: account.id,
      email: args.owner.email,
      name: "Owner",
      roles: ["OWNER"],
      passwordHash: await hashPassword(args.owner.password),
    },
  });
  return account;
}

/**
 * A job the server will be running, held up half-way: a story due now (insertStoryDueNow) and
 * `blocker`, a connection holding the story's row FOR UPDATE in an open transaction, so that the
 * job's transaction waits on it. The caller ends `blocker` (COMMIT or ROLLBACK, then `end()`).
 */
export async function holdScheduledStoryJob(
  db: Database["prisma"],
  args: { schema: string; accountId: number; headline: string },
) {
  const { story, job } = await insertStoryDueNow(db, args);
  const blocker = new pg.Client({ connectionString: DATABASE_URL });
  await blocker.connect();
  await blocker.query(`SET search_path TO "${args.schema}"`);
  await blocker.query("BEGIN");
  await blocker.query("SELECT id FROM stories WHERE id = $1 FOR UPDATE", [story.id]);
  return { story, job, blocker };
}

export type BuiltServer = { process: ChildProcess; url: string; kill: () => Promise<void> };

/** Start the built app on `port` against `schema`, and wait until it answers /api/health. */
export async function startBuiltServer(args: {
  port: number;
  schema: string;
  /** More settings (or overrides) for this server. */
  env?: Record<string, string>;
  /** Its stdout and stderr: dropped (the default), or pipes the spec reads (or closes). */
  output?: "ignore" | "pipe";
}): Promise<BuiltServer> {
  const child = spawn(process.execPath, [path.join(ROOT, "scripts/serve.mjs")], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: String(args.port),
      HOST: "127.0.0.1",
      DATABASE_URL,
      DATABASE_SCHEMA: args.schema,
      AUTH_SECRET: "crash-test-secret-crash-test-secret-0000",
      WEBHOOK_ALLOW_PRIVATE_URLS: "true",
      JOBS_POLL_INTERVAL_MS: "200",
      SHUTDOWN_DRAIN_MS: "1500",
      LOG_LEVEL: "silent",
      INNGEST_EVENT_KEY: "",
      INNGEST_BASE_URL: "",
      INNGEST_DEV: "",
      ...args.env,
    },
    stdio: ["ignore", args.output ?? "ignore", args.output ?? "ignore"],
  });
  const url = `http://127.0.0.1:${args.port}`;
  const server: BuiltServer = {
    process: child,
    url,
    kill: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGKILL");
      await exited;
    },
  };
  await waitFor(async () => ((await fetch(`${url}/api/health`)).ok ? true : undefined), 60_000, "the server");
  return server;
}

/** Poll `probe` until it returns a value (not undefined), or fail after `timeoutMs`. */
export async function waitFor<T>(probe: () => Promise<T | undefined>, timeoutMs: number, what: string): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
