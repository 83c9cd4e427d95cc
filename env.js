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

const zSmtpUrl = z
  .string()
  .trim()
  .refine((v) => {
    try {
      const url = new URL(v);
      return (url.protocol === "smtp:" || url.protocol === "smtps:") && url.hostname !== "";
    } catch {
      return false;
    }
  }, "must be an smtp:// or smtps:// URL with a host, e.g. smtp://user:password@smtp.example.com:587");

/** "address@example.com" or "Name <address@example.com>". */
const zMailFrom = z
  .string()
  .trim()
  .refine(
    (v) => /^[^\s<>@]+@[^\s<>@]+$/.test(v) || /^[^<>]*<[^\s<>@]+@[^\s<>@]+>$/.test(v),
    'must be an e-mail address or "Name <address@example.com>"',
  );

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
    /**
     * Connections each process opens to PostgreSQL at most. Default 10 on a server, 2 on Vercel,
     * where every function instance has a pool of its own (put a pooler in front: docs/operations.md).
     */
    DATABASE_POOL_MAX: z.coerce.number().int().min(1).max(200).optional(),
    /**
     * Named prepared statements on PostgreSQL (server/db/statement-names.ts): each statement
     * parsed and planned once per connection. Turn off behind a pooler in transaction mode that
     * cannot keep them (PgBouncer before 1.21, or without max_prepared_statements). Default: on,
     * except on Vercel, where a pooler usually stands in front.
     */
    DATABASE_PREPARED_STATEMENTS: zBool.optional(),
    /**
     * PostgreSQL connection for the cache listener (LISTEN), when DATABASE_URL goes through a pooler
     * in transaction mode (PgBouncer), where LISTEN does not work. Default: DATABASE_URL.
     */
    CACHE_LISTEN_URL: zPostgresUrl.optional(),
    /** Folder for the embedded database, uploads and generated demo credentials. */
    DATA_DIR: z.string().trim().min(1).default(".data"),
    /** Where PGlite keeps its files. Default DATA_DIR/pglite; "memory://" keeps it in memory (tests). */
    PGLITE_DIR: z.string().trim().min(1).optional(),
    /** Signs admin sessions (next-auth). At least 32 characters. Required in production. */
    AUTH_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
    /**
     * Signs the proof-of-work captcha challenges of guest commenting (docs/engagement.md). At least
     * 32 characters. Unset: derived from AUTH_SECRET (required in production); outside production
     * without either, a fixed development key.
     */
    CAPTCHA_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
    /**
     * Encrypts secrets kept in the database (payment-gateway credentials): AES-256-GCM under a key
     * derived from this (HKDF-SHA-256). At least 32 characters. Unset: derived from AUTH_SECRET.
     * Changing it makes stored secrets unreadable: re-enter them (docs/operations.md).
     */
    ENCRYPTION_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
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
    /**
     * Let social-login calls (OpenID discovery, keys, userinfo, the Graph API) reach loopback and
     * private addresses: for a login provider on the local network, and for tests.
     */
    SOCIAL_LOGIN_ALLOW_PRIVATE_URLS: zBool.default(false),
    /**
     * Let `npm run import -- --from content-api BASE_URL` read a site on loopback or private
     * addresses (an old site on the local network; tests pass it explicitly).
     */
    IMPORT_ALLOW_PRIVATE_URLS: zBool.default(false),
    /**
     * Razorpay's API (docs/subscriptions.md, "Payment adapters"). Changed only to point the adapter
     * at a stand-in of Razorpay's API (tests, local development).
     */
    RAZORPAY_API_BASE_URL: zHttpUrl.default("https://api.razorpay.com"),
    /**
     * Stripe's API, reached through the official SDK's host/port/protocol options
     * (docs/subscriptions.md, "Stripe"). Changed only to point the adapter at a fake of Stripe's
     * API (tests, local development).
     */
    STRIPE_API_BASE_URL: zHttpUrl.default("https://api.stripe.com"),
    /**
     * Where readers' browsers load Stripe.js (docs/subscriptions.md, "Stripe"): the payment options
     * name it (`js_url`) and the browser SDK loads it for Stripe's Payment Element. Changed only to
     * serve a fake of Stripe.js (browser tests).
     */
    STRIPE_JS_URL: z
      .string()
      .trim()
      .refine((v) => /^https?:\/\/[^/]+/.test(v), "must be an http:// or https:// URL")
      .default("https://js.stripe.com/v3/"),
    /**
     * Let calls to payment gateways' APIs reach loopback and private addresses: for a stand-in of a
     * gateway on the local network, and for tests. Never needed for the real gateways.
     */
    PAYMENT_GATEWAY_ALLOW_PRIVATE_URLS: zBool.default(false),
    /**
     * An external comment scorer (docs/engagement.md, "Plugging in another scorer"): Masthead POSTs
     * each comment's ScorerInput as JSON and expects a CommentScore. Unset: none. Accounts choose
     * to use it (live or in shadow) on the dashboard's Scoring page.
     */
    MODERATION_SCORER_URL: zHttpUrl.optional(),
    /** Milliseconds the external scorer has to answer before the built-in scorer answers instead. */
    MODERATION_SCORER_TIMEOUT_MS: z.coerce.number().int().min(50).max(10_000).default(800),
    /** Sent to the external scorer as `Authorization: Bearer <token>`; never logged. */
    MODERATION_SCORER_TOKEN: z.string().trim().min(1).optional(),
    /** Let the external scorer's URL reach loopback and private addresses (a scorer on your own network, tests). */
    MODERATION_SCORER_ALLOW_PRIVATE_URLS: zBool.default(false),
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
    /** Largest document upload for a story's file element (PDF, Office, text, CSV), in bytes. */
    FILE_UPLOAD_MAX_BYTES: z.coerce
      .number()
      .int()
      .min(1024)
      .max(200 * 1024 * 1024)
      .default(20 * 1024 * 1024),
    /** Where files uploaded to the dashboard's Import page are kept. Default DATA_DIR/imports. */
    IMPORT_DIR: z.string().trim().min(1).optional(),
    /** Largest file the dashboard's Import page accepts, in bytes (a 200,000-comment Disqus export is ~150 MB). */
    IMPORT_UPLOAD_MAX_BYTES: z.coerce
      .number()
      .int()
      .min(1024)
      .max(16 * 1024 * 1024 * 1024)
      .default(512 * 1024 * 1024),
    /**
     * S3-compatible bucket (AWS S3, Cloudflare R2, MinIO) for uploaded images. Unset: images are
     * stored on the local disk under UPLOAD_DIR.
     */
    S3_BUCKET: z.string().trim().min(1).optional(),
    /** The S3 API's address (R2, MinIO). Unset: AWS S3 for S3_REGION. */
    S3_ENDPOINT: zHttpUrl.optional(),
    /** Region of the bucket ("auto" for R2). */
    S3_REGION: z.string().trim().min(1).default("us-east-1"),
    /** Access key; unset (with S3_SECRET_ACCESS_KEY) to use the SDK's own chain (IAM role, AWS_* variables). */
    S3_ACCESS_KEY_ID: z.string().trim().min(1).optional(),
    S3_SECRET_ACCESS_KEY: z.string().trim().min(1).optional(),
    /** Address objects as <endpoint>/<bucket>/<key> instead of <bucket>.<endpoint>/<key> (MinIO). */
    S3_FORCE_PATH_STYLE: zBool.default(false),
    /**
     * Public address images are served from (a CDN or a public bucket URL), the key appended; used in
     * the image URLs the API gives. Unset: Masthead serves them at APP_URL/images/<key>.
     */
    IMAGE_PUBLIC_BASE_URL: zHttpUrl.optional(),
    /**
     * SMTP server the outbox sends mail through, e.g. smtp://user:password@smtp.example.com:587
     * (STARTTLS when offered) or smtps://…:465 (TLS from the start). Unset: mail is written to the log.
     */
    SMTP_URL: zSmtpUrl.optional(),
    /** Sender of outgoing mail: "address@example.com" or "Name <address@example.com>"; required with SMTP_URL. */
    MAIL_FROM: zMailFrom.optional(),
    /**
     * Newsletter mails handed to the SMTP server per second, at most (docs/newsletters.md "Sending"):
     * shared by every instance when RATE_LIMIT_STORE is redis or database, per process with memory.
     */
    NEWSLETTER_MAX_PER_SECOND: z.coerce.number().int().min(1).max(10_000).default(20),
    /** Seconds that shared caches (CDNs) may keep public content responses (Cache-Control s-maxage). */
    CONTENT_CACHE_SECONDS: z.coerce.number().int().min(0).max(86_400).default(60),
    /**
     * Megabytes of built public responses (content reads, comment lists and counts) each process
     * keeps in memory, dropped by the events that change them (docs/architecture.md "Response
     * cache"); 0 turns the cache off.
     */
    RESPONSE_CACHE_MB: z.coerce.number().int().min(0).max(4096).default(64),
    /**
     * How far V8 lets the server's heap grow past its live data before collecting it, in per cent
     * (npm start passes it as --heap-growing-percent; docs/operations.md "Memory"); 0 leaves it to
     * V8, which grows the heap up to 4 times under a high allocation rate and does not give it back.
     */
    HEAP_GROWTH_PERCENT: z.coerce.number().int().min(0).max(400).default(100),
    /** Days a member stays logged in. */
    MEMBER_SESSION_DAYS: z.coerce.number().int().min(1).max(365).default(30),
    /** Allow `npm run db:seed` (demo data, well-known passwords) when NODE_ENV=production. */
    ALLOW_DEMO_SEED: zBool.default(false),
    /**
     * The demo publisher's test tools (docs/subscriptions.md "Demo paywalled story"): the demo
     * page's reader sign-in (a JWT minted for a typed-in e-mail) and the `demo_test` payment
     * gateway, both for the demo account only. Off unless set; `npm start` turns it on when the
     * shell's NODE_ENV is not production (the served app itself always runs with production).
     */
    DEMO_TOOLS: zBool.default(false),
    /**
     * Serve the benchmark's baseline routes (GET /api/bench/empty and /api/bench/empty/{id}):
     * `npm run bench` sets it on the instances it starts. Off: they answer 404 like any unknown path.
     */
    BENCH_ROUTES: zBool.default(false),
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
    if (env.VERCEL) {
      // Serverless functions keep no disk, no process and no memory between requests: what needs
      // them is refused here, one line each (docs/operations.md, "On Vercel").
      const refuse = (/** @type {string} */ name, /** @type {string} */ message) =>
        ctx.addIssue({ code: "custom", path: [name], message });
      if (!env.DATABASE_URL)
        refuse("DATABASE_URL", "is required on Vercel (the embedded database needs a lasting disk)");
      if (!env.S3_BUCKET)
        refuse(
          "S3_BUCKET",
          "is required on Vercel (uploaded images need object storage: functions have no lasting disk)",
        );
      if (!env.INNGEST_EVENT_KEY && !env.INNGEST_BASE_URL)
        refuse(
          "INNGEST_EVENT_KEY",
          "(or INNGEST_BASE_URL) is required on Vercel (background work runs on Inngest: no process stays up to run it)",
        );
      if (env.RATE_LIMIT_STORE === "memory")
        refuse("RATE_LIMIT_STORE", "must be redis or database on Vercel (each function instance has its own memory)");
    }
    if (env.SMTP_URL && !env.MAIL_FROM) {
      ctx.addIssue({
        code: "custom",
        path: ["MAIL_FROM"],
        message: "is required with SMTP_URL (the sender of every mail)",
      });
    }
    if (Boolean(env.S3_ACCESS_KEY_ID) !== Boolean(env.S3_SECRET_ACCESS_KEY)) {
      ctx.addIssue({
        code: "custom",
        path: [env.S3_ACCESS_KEY_ID ? "S3_SECRET_ACCESS_KEY" : "S3_ACCESS_KEY_ID"],
        message: "is required with the other S3 key (set both, or neither to use the SDK's credential chain)",
      });
    }
    if (!env.S3_BUCKET) {
      for (const name of /** @type {const} */ (["S3_ENDPOINT", "S3_ACCESS_KEY_ID", "S3_SECRET_ACCESS_KEY"])) {
        if (env[name]) ctx.addIssue({ code: "custom", path: [name], message: "is set but S3_BUCKET is not" });
      }
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
      DATABASE_POOL_MAX: env.DATABASE_POOL_MAX ?? (env.VERCEL ? 2 : 10),
      DATABASE_PREPARED_STATEMENTS: env.DATABASE_PREPARED_STATEMENTS ?? !env.VERCEL,
      UPLOAD_DIR: path.resolve(/*turbopackIgnore: true*/ env.UPLOAD_DIR ?? path.join(dataDir, "uploads")),
      IMPORT_DIR: path.resolve(/*turbopackIgnore: true*/ env.IMPORT_DIR ?? path.join(dataDir, "imports")),
      APP_URL: env.APP_URL ?? `http://localhost:${env.PORT}`,
      /** Where uploaded images live: "s3" with S3_BUCKET, else "disk" (UPLOAD_DIR). */
      imageStorage: /** @type {"s3" | "disk"} */ (env.S3_BUCKET ? "s3" : "disk"),
      /** How the outbox sends mail: "smtp" with SMTP_URL, else "log". */
      mailTransport: /** @type {"smtp" | "log"} */ (env.SMTP_URL ? "smtp" : "log"),
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
