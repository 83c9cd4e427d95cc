/**
 * The platform's health, for load balancers and operators: is each dependency answering (the
 * database; Redis when rate limits live there), and which engine runs background work. Any
 * dependency down makes the whole "unavailable" (503), and the report says which one. No secrets,
 * no connection strings with credentials.
 */
import type { Database } from "./db/client";
import { countOverdueJobs } from "./jobs/engine";

export type HealthReport = {
  /** "stopping": the process got SIGTERM and drains (scripts/serve.mjs); a load balancer should stop sending. */
  status: "ok" | "unavailable" | "stopping";
  database: { status: "up" | "down"; kind: "pglite" | "postgresql"; latency_ms: number | null; error?: string };
  /** Only when RATE_LIMIT_STORE=redis: the shared rate limits of several instances live there. */
  redis?: { status: "up" | "down"; latency_ms: number | null; error?: string };
  background: { engine: "inngest" | "local"; running: boolean; overdue_jobs: number | null };
  /**
   * How this process hears about changes other instances commit (server/cache): "local" (PGlite,
   * one process), "listening" (PostgreSQL LISTEN) or "off" (listener down, or serverless): caches
   * are bypassed then, so reads stay right but cost more; not a reason to fail the health check.
   */
  cache_invalidation: "local" | "listening" | "off";
  time: string;
};

const PROBE_TIMEOUT_MS = 2_000;

export async function checkHealth(
  openDb: () => Promise<Database>,
  options: {
    background: { engine: "inngest" | "local"; running: boolean };
    cacheInvalidation: HealthReport["cache_invalidation"];
    /** One round trip to Redis, when the platform uses it. */
    probeRedis?: () => Promise<void>;
    /** The process is shutting down. */
    stopping?: boolean;
    now?: () => Date;
  },
): Promise<HealthReport> {
  const now = options.now ?? (() => new Date());
  const started = performance.now();
  let database: HealthReport["database"];
  let due: number | null = null;
  let kind: "pglite" | "postgresql" = "pglite";
  try {
    const db = await withTimeout(openDb(), PROBE_TIMEOUT_MS);
    kind = db.config.kind;
    await withTimeout(db.prisma.$queryRaw`SELECT 1`, PROBE_TIMEOUT_MS);
    database = { status: "up", kind, latency_ms: Math.round((performance.now() - started) * 10) / 10 };
    due = await withTimeout(countOverdueJobs(db.prisma, { now: now() }), PROBE_TIMEOUT_MS).catch(() => null);
  } catch (error) {
    database = { status: "down", kind, latency_ms: null, error: summarise(error) };
  }
  let redis: HealthReport["redis"];
  if (options.probeRedis) {
    const probeStarted = performance.now();
    try {
      await withTimeout(options.probeRedis(), PROBE_TIMEOUT_MS);
      redis = { status: "up", latency_ms: Math.round((performance.now() - probeStarted) * 10) / 10 };
    } catch (error) {
      redis = { status: "down", latency_ms: null, error: summarise(error) };
    }
  }
  return {
    status: options.stopping ? "stopping" : database.status === "up" && redis?.status !== "down" ? "ok" : "unavailable",
    database,
    ...(redis ? { redis } : {}),
    // Jobs overdue by more than a minute that no worker holds: a number that keeps growing means
    // background work is stuck.
    background: { ...options.background, overdue_jobs: due },
    cache_invalidation: options.cacheInvalidation,
    time: now().toISOString(),
  };
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

/** A short reason, without connection strings (which may carry a password). */
function summarise(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const code = typeof error === "object" && error && "code" in error ? String(error.code) : undefined;
  // Prisma puts the useful part last ("Message: `Can't reach database server at …`").
  const lines = message
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean);
  const clean = (lines.at(-1) ?? "")
    .replace(/postgres(ql)?:\/\/\S+/g, "postgres://…")
    .replace(/rediss?:\/\/\S+/g, "redis://…")
    .slice(0, 200);
  return code ? `${code}: ${clean}` : clean;
}
