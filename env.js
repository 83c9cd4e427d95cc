// @ts-check
/**
 * Masthead's configuration: every environment variable it reads, validated with zod.
 *
 * Imported by next.config.js (so a bad value fails `next build`), by scripts/start.ts (so it fails
 * `npm start` before anything else happens) and by server code through `getEnv()`.
 * Documented variable by variable in README.md ("Configuration"); keep both in step.
 *
 * This is the only file that reads `process.env` (lint enforces it outside scripts and tests).
 */
import path from "node:path";

import { z } from "zod";

/** "true"/"false"/"1"/"0"/"yes"/"no", case-insensitive. */
const zBool = z
  .string()
  .trim()
  .toLowerCase()
  .refine((v) => ["true", "false", "1", "0", "yes", "no"].includes(v), "must be true or false")
  .transform((v) => v === "true" || v === "1" || v === "yes");

const zPostgresUrl = z
  .string()
  .trim()
  .refine((v) => /^postgres(ql)?:\/\/.+/.test(v), "must be a postgres:// or postgresql:// URL")
  .refine((v) => {
    try {
      new URL(v);
      return true;
    } catch {
      return false;
    }
  }, "is not a valid URL");

const zHttpUrl = z
  .string()
  .trim()
  .refine((v) => /^https?:\/\/[^/]+/.test(v), "must be an http:// or https:// URL")
  .transform((v) => v.replace(/\/+$/, ""));

export const envSchema = z
  .object({
    NODE_ENV: z.enum(["development", "test", "production"]).default("development"),
    /** Port the HTTP server listens on. */
    PORT: z.coerce.number().int().min(1).max(65535).default(3000),
    /** Interface to bind; 0.0.0.0 serves every interface. */
    HOST: z.string().trim().min(1).default("0.0.0.0"),
    /** Public address of this Masthead (no trailing slash). Defaults to http://localhost:PORT. */
    APP_URL: zHttpUrl.optional(),
    /** PostgreSQL connection string. Unset: the embedded PGlite database in DATA_DIR. */
    DATABASE_URL: zPostgresUrl.optional(),
    /** PostgreSQL schema to use (default "public"); also read from `?schema=` in DATABASE_URL. */
    DATABASE_SCHEMA: z
      .string()
      .trim()
      .regex(/^[a-z_][a-z0-9_]{0,62}$/, "must be a lower-case SQL identifier")
      .optional(),
    /** Folder for the embedded database, uploads and generated demo credentials. */
    DATA_DIR: z.string().trim().min(1).default(".data"),
    /** Where PGlite keeps its files. Default DATA_DIR/pglite; "memory://" keeps it in memory (tests). */
    PGLITE_DIR: z.string().trim().min(1).optional(),
    /** Signs admin sessions (next-auth). At least 32 characters. Required in production. */
    AUTH_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
    /** Inngest Cloud event key. With it (or INNGEST_BASE_URL / INNGEST_DEV) Inngest runs background work. */
    INNGEST_EVENT_KEY: z.string().trim().min(1).optional(),
    /** Inngest signing key; required with INNGEST_EVENT_KEY in production. */
    INNGEST_SIGNING_KEY: z.string().trim().min(1).optional(),
    /** Self-hosted Inngest server, e.g. http://inngest:8288. */
    INNGEST_BASE_URL: zHttpUrl.optional(),
    /** "1" to use a local Inngest dev server. */
    INNGEST_DEV: z.string().trim().min(1).optional(),
    /** Where rate-limit counters live: memory (one process), database or redis (several processes). */
    RATE_LIMIT_STORE: z.enum(["memory", "database", "redis"]).default("memory"),
    /** Redis connection string, required when RATE_LIMIT_STORE=redis. */
    REDIS_URL: z
      .string()
      .trim()
      .refine((v) => /^rediss?:\/\/.+/.test(v), "must be a redis:// or rediss:// URL")
      .optional(),
    /** Trust X-Forwarded-For for the client's IP (behind a proxy you run). */
    TRUST_PROXY: zBool.default(false),
    /** Origins allowed to call the browser-facing APIs: "*" or a comma-separated list. */
    CORS_ALLOWED_ORIGINS: z.string().trim().min(1).default("*"),
    /** Largest request body accepted, in bytes (413 beyond). */
    MAX_BODY_BYTES: z.coerce
      .number()
      .int()
      .min(1024)
      .max(50 * 1024 * 1024)
      .default(1024 * 1024),
    LOG_LEVEL: z.enum(["debug", "info", "warn", "error", "silent"]).default("info"),
    /** Bearer token for GET /api/metrics (Prometheus). Unset: the metrics route is not served. */
    METRICS_TOKEN: z.string().trim().min(24, "must be at least 24 characters").optional(),
    /** Let outgoing webhooks reach loopback, private, link-local and metadata addresses (tests, local development). */
    WEBHOOK_ALLOW_PRIVATE_URLS: zBool.default(false),
    /** Days that webhook events, deliveries and attempts are kept (spec: 30). */
    WEBHOOK_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
    /** Deliveries sent at once by one process (the local runner and each Inngest sweep). */
    WEBHOOK_CONCURRENCY: z.coerce.number().int().min(1).max(256).default(16),
    /** How often the local runner (no Inngest configured) looks for due work, in milliseconds. */
    JOBS_POLL_INTERVAL_MS: z.coerce.number().int().min(50).max(60_000).default(1000),
    /** "false" to not start the local runner in this process (e.g. a web-only instance). */
    JOBS_LOCAL_RUNNER: zBool.default(true),
    /**
     * The account (slug) that the public content API serves when the request's host names none
     * (GET /api/v1/stories has no key: a publisher's site is its host). Unset: the only account.
     */
    PUBLISHING_ACCOUNT: z.string().trim().min(1).optional(),
    /** Where uploaded images are stored. Default DATA_DIR/uploads. */
    UPLOAD_DIR: z.string().trim().min(1).optional(),
    /** Largest image upload, in bytes. */
    UPLOAD_MAX_BYTES: z.coerce
      .number()
      .int()
      .min(1024)
      .max(100 * 1024 * 1024)
      .default(10 * 1024 * 1024),
    /** Seconds that shared caches (CDNs) may keep public content responses (Cache-Control s-maxage). */
    CONTENT_CACHE_SECONDS: z.coerce.number().int().min(0).max(86_400).default(60),
    /** Days a member stays logged in. */
    MEMBER_SESSION_DAYS: z.coerce.number().int().min(1).max(365).default(30),
    /** Allow `npm run db:seed` (demo data, well-known passwords) when NODE_ENV=production. */
    ALLOW_DEMO_SEED: zBool.default(false),
    /** Set by Vercel. */
    VERCEL: z.string().optional(),
  })
  .superRefine((env, ctx) => {
    if (env.NODE_ENV === "production" && !env.AUTH_SECRET) {
      ctx.addIssue({ code: "custom", path: ["AUTH_SECRET"], message: "is required when NODE_ENV=production" });
    }
    if (env.RATE_LIMIT_STORE === "redis" && !env.REDIS_URL) {
      ctx.addIssue({ code: "custom", path: ["REDIS_URL"], message: "is required when RATE_LIMIT_STORE=redis" });
    }
    if (env.VERCEL && !env.DATABASE_URL) {
      ctx.addIssue({
        code: "custom",
        path: ["DATABASE_URL"],
        message: "is required on Vercel (the embedded database needs a writable disk)",
      });
    }
    if (env.NODE_ENV === "production" && env.INNGEST_EVENT_KEY && !env.INNGEST_SIGNING_KEY) {
      ctx.addIssue({
        code: "custom",
        path: ["INNGEST_SIGNING_KEY"],
        message: "is required with INNGEST_EVENT_KEY in production",
      });
    }
  })
  .transform((env) => {
    const dataDir = path.resolve(/*turbopackIgnore: true*/ env.DATA_DIR);
    const schemaFromUrl = env.DATABASE_URL ? new URL(env.DATABASE_URL).searchParams.get("schema") : null;
    return {
      ...env,
      DATA_DIR: dataDir,
      PGLITE_DIR:
        env.PGLITE_DIR === "memory://"
          ? "memory://"
          : path.resolve(/*turbopackIgnore: true*/ env.PGLITE_DIR ?? path.join(dataDir, "pglite")),
      DATABASE_SCHEMA: env.DATABASE_SCHEMA ?? schemaFromUrl ?? "public",
      UPLOAD_DIR: path.resolve(/*turbopackIgnore: true*/ env.UPLOAD_DIR ?? path.join(dataDir, "uploads")),
      APP_URL: env.APP_URL ?? `http://localhost:${env.PORT}`,
      /** True when Inngest (Cloud, self-hosted or dev server) is configured to run background work. */
      inngestEnabled: Boolean(env.INNGEST_EVENT_KEY || env.INNGEST_BASE_URL || env.INNGEST_DEV),
    };
  });

/** @typedef {z.infer<typeof envSchema>} Env */

export class EnvError extends Error {
  /** @param {string} message */
  constructor(message) {
    super(message);
    this.name = "EnvError";
  }
}

/**
 * Validate an environment. Empty strings count as unset. Throws an EnvError whose message is one
 * line per bad variable, each naming the variable.
 * @param {Record<string, string | undefined>} source
 * @returns {Env}
 */
export function parseEnv(source) {
  /** @type {Record<string, string>} */
  const cleaned = {};
  for (const [key, value] of Object.entries(source)) {
    if (value !== undefined && value !== "") cleaned[key] = value;
  }
  const result = envSchema.safeParse(cleaned);
  if (result.success) return result.data;
  const lines = result.error.issues.map((issue) => {
    const name = String(issue.path[0] ?? "environment");
    return `Invalid configuration: ${name} ${issue.message}`;
  });
  throw new EnvError([...new Set(lines)].join("\n"));
}

/** @type {Env | undefined} */
let cached;

/** The validated process environment, parsed once. */
export function getEnv() {
  cached ??= parseEnv(process.env);
  return cached;
}

/** Forget the cached environment (tests that change process.env). */
export function resetEnvCache() {
  cached = undefined;
}
