// @ts-check
/**
 * Masthead's configuration: every environment variable it reads, validated with zod.
 *
 * Imported by next.config.js (so a bad value fails `next build`), by scripts/start.ts (so it fails
 * `npm start` before anything else happens) and by server code through `getEnv()`.
 * Each variable is described in ENV_DOCS, from which README.md's "Configuration" list is written
 * (`npm run docs:env`).
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

/** Every variable and how it is validated; what each means is in ENV_DOCS below. */
const envShape = z.object({
  NODE_ENV: z.enum(["development", "test", "production"]).default("development"),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  HOST: z.string().trim().min(1).default("0.0.0.0"),
  APP_URL: zHttpUrl.optional(),
  DATABASE_URL: zPostgresUrl.optional(),
  DATABASE_SCHEMA: z
    .string()
    .trim()
    .regex(/^[a-z_][a-z0-9_]{0,62}$/, "must be a lower-case SQL identifier")
    .optional(),
  DATABASE_POOL_MAX: z.coerce.number().int().min(1).max(200).optional(),
  DATABASE_PREPARED_STATEMENTS: zBool.optional(),
  CACHE_LISTEN_URL: zPostgresUrl.optional(),
  DATA_DIR: z.string().trim().min(1).default(".data"),
  PGLITE_DIR: z.string().trim().min(1).optional(),
  AUTH_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
  CAPTCHA_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
  ENCRYPTION_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
  INNGEST_EVENT_KEY: z.string().trim().min(1).optional(),
  INNGEST_SIGNING_KEY: z.string().trim().min(1).optional(),
  INNGEST_BASE_URL: zHttpUrl.optional(),
  INNGEST_DEV: z.string().trim().min(1).optional(),
  RATE_LIMIT_STORE: z.enum(["memory", "database", "redis"]).default("memory"),
  REDIS_URL: z
    .string()
    .trim()
    .refine((v) => /^rediss?:\/\/.+/.test(v), "must be a redis:// or rediss:// URL")
    .optional(),
  TRUST_PROXY: zBool.default(false),
  CORS_ALLOWED_ORIGINS: z.string().trim().min(1).default("*"),
  MAX_BODY_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(50 * 1024 * 1024)
    .default(1024 * 1024),
  LOG_LEVEL: z.enum(["debug", "info", "warn", "error", "silent"]).default("info"),
  METRICS_TOKEN: z.string().trim().min(24, "must be at least 24 characters").optional(),
  WEBHOOK_ALLOW_PRIVATE_URLS: zBool.default(false),
  SOCIAL_LOGIN_ALLOW_PRIVATE_URLS: zBool.default(false),
  IMPORT_ALLOW_PRIVATE_URLS: zBool.default(false),
  RAZORPAY_API_BASE_URL: zHttpUrl.default("https://api.razorpay.com"),
  STRIPE_API_BASE_URL: zHttpUrl.default("https://api.stripe.com"),
  STRIPE_JS_URL: z
    .string()
    .trim()
    .refine((v) => /^https?:\/\/[^/]+/.test(v), "must be an http:// or https:// URL")
    .default("https://js.stripe.com/v3/"),
  PAYMENT_GATEWAY_ALLOW_PRIVATE_URLS: zBool.default(false),
  MODERATION_SCORER_URL: zHttpUrl.optional(),
  MODERATION_SCORER_TIMEOUT_MS: z.coerce.number().int().min(50).max(10_000).default(800),
  MODERATION_SCORER_TOKEN: z.string().trim().min(1).optional(),
  MODERATION_SCORER_ALLOW_PRIVATE_URLS: zBool.default(false),
  WEBHOOK_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
  WEBHOOK_CONCURRENCY: z.coerce.number().int().min(1).max(256).default(16),
  JOBS_POLL_INTERVAL_MS: z.coerce.number().int().min(50).max(60_000).default(1000),
  JOBS_LOCAL_RUNNER: zBool.default(true),
  PUBLISHING_ACCOUNT: z.string().trim().min(1).optional(),
  UPLOAD_DIR: z.string().trim().min(1).optional(),
  UPLOAD_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(100 * 1024 * 1024)
    .default(10 * 1024 * 1024),
  FILE_UPLOAD_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(200 * 1024 * 1024)
    .default(20 * 1024 * 1024),
  IMPORT_DIR: z.string().trim().min(1).optional(),
  IMPORT_UPLOAD_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(16 * 1024 * 1024 * 1024)
    .default(512 * 1024 * 1024),
  S3_BUCKET: z.string().trim().min(1).optional(),
  S3_ENDPOINT: zHttpUrl.optional(),
  S3_REGION: z.string().trim().min(1).default("us-east-1"),
  S3_ACCESS_KEY_ID: z.string().trim().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().trim().min(1).optional(),
  S3_FORCE_PATH_STYLE: zBool.default(false),
  IMAGE_PUBLIC_BASE_URL: zHttpUrl.optional(),
  SMTP_URL: zSmtpUrl.optional(),
  MAIL_FROM: zMailFrom.optional(),
  NEWSLETTER_MAX_PER_SECOND: z.coerce.number().int().min(1).max(10_000).default(20),
  CONTENT_CACHE_SECONDS: z.coerce.number().int().min(0).max(86_400).default(60),
  RESPONSE_CACHE_MB: z.coerce.number().int().min(0).max(4096).default(64),
  HEAP_GROWTH_PERCENT: z.coerce.number().int().min(0).max(400).default(100),
  MEMBER_SESSION_DAYS: z.coerce.number().int().min(1).max(365).default(30),
  ALLOW_DEMO_SEED: zBool.default(false),
  DEMO_TOOLS: zBool.default(false),
  OFFER_COUNTRY_HEADER: z
    .string()
    .trim()
    .toLowerCase()
    .regex(/^[a-z0-9-]+$/, "must be a header name such as CF-IPCountry")
    .default("cf-ipcountry"),
  BENCH_ROUTES: zBool.default(false),
  SHUTDOWN_DRAIN_MS: z.coerce.number().int().min(0).max(600_000).default(5000),
  VERCEL: z.string().optional(),
});

/**
 * What each variable means, and its default as README.md's table says it where the schema's own
 * default does not say it (`shown`). README.md's "Configuration" table is written from this by
 * `npm run docs:env` (scripts/docs-env.ts), and a unit test fails when the two differ or when a
 * variable of the schema has no entry here. In the table's order.
 * @type {Record<keyof z.input<typeof envShape>, { doc: string; shown?: string }>}
 */
export const ENV_DOCS = {
  PORT: { doc: "HTTP port" },
  HOST: { doc: "interface to bind; `0.0.0.0` serves every interface" },
  APP_URL: {
    shown: "`http://localhost:$PORT`",
    doc: "public address of this Masthead (no trailing slash), used in links, feeds and sign-in redirects",
  },
  DATABASE_URL: { doc: "`postgres://…` to use PostgreSQL. Unset: the embedded PGlite database" },
  DATABASE_SCHEMA: { shown: "`public`", doc: "PostgreSQL schema (also read from `?schema=` in `DATABASE_URL`)" },
  DATABASE_POOL_MAX: {
    shown: "`10` (`2` on Vercel)",
    doc: "PostgreSQL connections each process opens at most (on Vercel every function instance has a pool of its own: put a pooler in front, docs/operations.md)",
  },
  DATABASE_PREPARED_STATEMENTS: {
    shown: "`true` (`false` on Vercel)",
    doc: "named prepared statements on PostgreSQL, each parsed and planned once per connection (docs/database.md); `false` behind a transaction-mode pooler that cannot keep them (PgBouncer before 1.21, or without `max_prepared_statements`)",
  },
  CACHE_LISTEN_URL: {
    shown: "`DATABASE_URL`",
    doc: "direct PostgreSQL connection for the cache listener (`LISTEN`) when `DATABASE_URL` goes through a transaction-mode pooler",
  },
  DATA_DIR: { doc: "embedded database, generated secrets, demo credentials" },
  PGLITE_DIR: { shown: "`$DATA_DIR/pglite`", doc: "where PGlite keeps its files (`memory://` for throwaway runs)" },
  AUTH_SECRET: {
    shown: "generated into `$DATA_DIR/auth-secret` outside production",
    doc: "signs admin sessions; 32+ characters; **required** with `NODE_ENV=production`",
  },
  CAPTCHA_SECRET: {
    shown: "derived from `AUTH_SECRET`",
    doc: "signs the guest-comment captcha challenges (docs/engagement.md); 32+ characters",
  },
  ENCRYPTION_SECRET: {
    shown: "derived from `AUTH_SECRET`",
    doc: "encrypts stored secrets (payment-gateway keys), AES-256-GCM under a key derived by HKDF-SHA-256; 32+ characters; changing it makes them unreadable: re-enter them",
  },
  INNGEST_EVENT_KEY: {
    doc: "Inngest Cloud event key: background work runs on Inngest (so it does with `INNGEST_BASE_URL` or `INNGEST_DEV`)",
  },
  INNGEST_SIGNING_KEY: { doc: "Inngest Cloud signing key; required with `INNGEST_EVENT_KEY` in production" },
  INNGEST_BASE_URL: { doc: "self-hosted Inngest server, e.g. `http://inngest:8288`" },
  INNGEST_DEV: { doc: "`1` to use a local Inngest dev server" },
  RATE_LIMIT_STORE: { doc: "`memory` (one process), `database` or `redis` (several processes)" },
  REDIS_URL: { doc: "`redis://…` or `rediss://…`; required when `RATE_LIMIT_STORE=redis`" },
  TRUST_PROXY: { doc: "take the client IP from `X-Forwarded-For` (only behind a proxy you run)" },
  CORS_ALLOWED_ORIGINS: {
    doc: "origins allowed to call browser-facing APIs: `*` or a comma-separated list (only listed origins may send readers' cookies)",
  },
  MAX_BODY_BYTES: { doc: "largest request body (413 beyond)" },
  LOG_LEVEL: { doc: "`debug`, `info`, `warn`, `error` or `silent`" },
  METRICS_TOKEN: {
    doc: "bearer token for `GET /api/metrics` (Prometheus), 24+ characters; unset: the route is not served (docs/operations.md)",
  },
  BENCH_ROUTES: {
    doc: "serve the benchmark's baseline routes (`/api/bench/empty`, `/api/bench/empty/{id}`); `npm run bench` sets it for the instances it starts, otherwise they answer 404",
  },
  SHUTDOWN_DRAIN_MS: {
    doc: 'after SIGTERM, how long health answers 503 "stopping" while connections are still served, before the listener closes (load balancers stop sending meanwhile)',
  },
  WEBHOOK_ALLOW_PRIVATE_URLS: {
    doc: "let outgoing webhooks reach loopback, private, link-local and metadata addresses (development, tests)",
  },
  SOCIAL_LOGIN_ALLOW_PRIVATE_URLS: {
    doc: "let social-login calls (OpenID discovery, keys, userinfo, Graph API) reach loopback and private addresses (a provider on your network, tests)",
  },
  IMPORT_ALLOW_PRIVATE_URLS: {
    doc: "let `npm run import -- --from content-api BASE_URL` read a site on loopback or private addresses (an old site on your network, tests)",
  },
  RAZORPAY_API_BASE_URL: {
    doc: "Razorpay's API; changed only to point the Razorpay adapter at a stand-in (tests, local development)",
  },
  STRIPE_API_BASE_URL: {
    doc: "Stripe's API, reached by the official SDK; changed only to point the Stripe adapter at a fake of Stripe (tests, local development)",
  },
  STRIPE_JS_URL: {
    doc: "where readers' browsers load Stripe.js for Stripe's Payment Element (listed in the payment options as `js_url`); changed only to serve a fake of Stripe.js (browser tests)",
  },
  PAYMENT_GATEWAY_ALLOW_PRIVATE_URLS: {
    doc: "let calls to payment gateways' APIs reach loopback and private addresses (a gateway stand-in, tests); never needed for the real gateways",
  },
  MODERATION_SCORER_URL: {
    doc: "an external comment scorer over HTTP: Masthead posts each comment and expects a score; used live or in shadow by accounts that choose it on the Scoring page (docs/operations.md)",
  },
  MODERATION_SCORER_TIMEOUT_MS: {
    doc: "milliseconds the external scorer has to answer (50 to 10,000) before the built-in scorer answers",
  },
  MODERATION_SCORER_TOKEN: { doc: "sent to the external scorer as `Authorization: Bearer …`; never logged" },
  MODERATION_SCORER_ALLOW_PRIVATE_URLS: {
    doc: "let the external scorer's URL reach loopback and private addresses (a scorer on your network, tests)",
  },
  WEBHOOK_RETENTION_DAYS: { doc: "days webhook events, deliveries and attempts are kept" },
  WEBHOOK_CONCURRENCY: { doc: "deliveries one process sends at once (the local runner and each Inngest sweep)" },
  JOBS_POLL_INTERVAL_MS: { doc: "how often the local runner looks for due work (no Inngest)" },
  JOBS_LOCAL_RUNNER: { doc: "`false` to not run background work in this process (a web-only instance)" },
  PUBLISHING_ACCOUNT: {
    doc: "account (slug) the public content API serves when the request's host matches no account's domain or site URL; unset: the only account",
  },
  UPLOAD_DIR: { shown: "`$DATA_DIR/uploads`", doc: "where uploaded images are stored (served at `/images/<key>`)" },
  UPLOAD_MAX_BYTES: { doc: "largest image upload (413 beyond)" },
  FILE_UPLOAD_MAX_BYTES: {
    doc: "largest document upload for a story's file element (PDF, Office, text, CSV; 413 beyond; served at `/files/<key>`)",
  },
  IMPORT_DIR: {
    shown: "`$DATA_DIR/imports`",
    doc: "where exports uploaded to the dashboard's Import page are kept (docs/migration.md)",
  },
  IMPORT_UPLOAD_MAX_BYTES: {
    doc: "largest export the Import page accepts (413 beyond; a 200,000-comment Disqus export is about 150 MB)",
  },
  S3_BUCKET: {
    doc: "S3-compatible bucket (S3, R2, MinIO) for uploaded images instead of `UPLOAD_DIR` (docs/operations.md)",
  },
  S3_ENDPOINT: { shown: "unset (AWS S3)", doc: "the S3 API's address (R2, MinIO)" },
  S3_REGION: { doc: "the bucket's region (`auto` for R2)" },
  S3_ACCESS_KEY_ID: {
    doc: "the bucket's access key, with `S3_SECRET_ACCESS_KEY` (both or neither; neither: the AWS SDK's credential chain)",
  },
  S3_SECRET_ACCESS_KEY: { doc: "the bucket's secret key, with `S3_ACCESS_KEY_ID`" },
  S3_FORCE_PATH_STYLE: { doc: "`true` for path-style addressing, `<endpoint>/<bucket>/<key>` (MinIO)" },
  IMAGE_PUBLIC_BASE_URL: {
    shown: "unset (`$APP_URL/images/<key>`)",
    doc: "public address images are read from (CDN, public bucket), used in image URLs",
  },
  SMTP_URL: {
    doc: "`smtp://user:password@host:587` (STARTTLS when offered) or `smtps://…:465`: send mail through it; unset: mail goes to the log",
  },
  MAIL_FROM: {
    doc: "sender of outgoing mail (`news@example.com` or `Name <news@example.com>`); required with `SMTP_URL`",
  },
  NEWSLETTER_MAX_PER_SECOND: {
    doc: "newsletter mails handed to the SMTP server per second (shared by every instance with a redis or database `RATE_LIMIT_STORE`, per process with memory)",
  },
  CONTENT_CACHE_SECONDS: {
    doc: "how long CDNs may keep public content responses (`s-maxage`); browsers always revalidate with the `ETag`",
  },
  RESPONSE_CACHE_MB: {
    doc: "megabytes of built public answers (content reads, comment lists and counts) each process keeps, dropped by the changes that alter them (docs/architecture.md); `0`: off",
  },
  HEAP_GROWTH_PERCENT: {
    doc: "how far the server's heap may grow past its live data before V8 collects it (`--heap-growing-percent`; docs/operations.md); `0`: V8's own, which grows up to 4 times under load and does not give it back",
  },
  MEMBER_SESSION_DAYS: { doc: "how long a reader (member) stays logged in" },
  ALLOW_DEMO_SEED: { doc: "allow the demo seed (well-known passwords) with `NODE_ENV=production`" },
  DEMO_TOOLS: {
    shown: "`false`; `true` under `npm start`",
    doc: "the demo account's test tools: the demo page's reader sign-in and the `demo_test` gateway (docs/subscriptions.md); `npm start` turns it on when the shell's `NODE_ENV` is not production",
  },
  OFFER_COUNTRY_HEADER: {
    doc: "the request header that carries the reader's ISO country code, read by the paywall offers' country segments (docs/subscriptions.md, \"Offers and experiments\"): `CF-IPCountry` (Cloudflare), `X-Vercel-IP-Country` (Vercel), or your proxy's; only set by a proxy you run",
  },
  NODE_ENV: { doc: "`production` makes `AUTH_SECRET` mandatory and refuses the demo seed" },
  VERCEL: { doc: 'set by Vercel: the checks for serverless functions apply (docs/operations.md, "On Vercel")' },
};

export const envSchema = envShape
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
