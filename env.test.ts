import { spawnSync } from "node:child_process";
import path from "node:path";

import { describe, expect, it } from "vitest";

import { EnvError, parseEnv } from "./env.js";

const error = (source: Record<string, string>) => {
  try {
    parseEnv(source);
  } catch (e) {
    if (e instanceof EnvError) return e.message;
    throw e;
  }
  throw new Error("expected an EnvError");
};

describe("configuration (env.js)", () => {
  it("has working defaults for a fresh clone", () => {
    const env = parseEnv({});
    expect(env.PORT).toBe(3000);
    expect(env.APP_URL).toBe("http://localhost:3000");
    expect(env.DATA_DIR).toBe(path.resolve(".data"));
    expect(env.PGLITE_DIR).toBe(path.resolve(".data/pglite"));
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env.RATE_LIMIT_STORE).toBe("memory");
    expect(env.inngestEnabled).toBe(false);
  });

  it("treats empty strings as unset", () => {
    expect(parseEnv({ DATABASE_URL: "", PORT: "" }).PORT).toBe(3000);
  });

  it("names the variable in one line per problem", () => {
    expect(error({ PORT: "eighty" })).toMatch(/^Invalid configuration: PORT /);
    expect(error({ DATABASE_URL: "mysql://x" })).toBe(
      "Invalid configuration: DATABASE_URL must be a postgres:// or postgresql:// URL",
    );
    expect(error({ RATE_LIMIT_STORE: "redis" })).toBe(
      "Invalid configuration: REDIS_URL is required when RATE_LIMIT_STORE=redis",
    );
    expect(error({ NODE_ENV: "production" })).toBe(
      "Invalid configuration: AUTH_SECRET is required when NODE_ENV=production",
    );
    expect(error({ AUTH_SECRET: "short" })).toBe("Invalid configuration: AUTH_SECRET must be at least 32 characters");
    expect(error({ PORT: "0", TRUST_PROXY: "maybe" }).split("\n")).toHaveLength(2);
  });

  it("refuses on Vercel what cannot work there, one line each, and takes a serverless setup", () => {
    expect(error({ VERCEL: "1", AUTH_SECRET: "s".repeat(32) }).split("\n")).toEqual([
      "Invalid configuration: DATABASE_URL is required on Vercel (the embedded database needs a lasting disk)",
      "Invalid configuration: S3_BUCKET is required on Vercel (uploaded images need object storage: functions have no lasting disk)",
      "Invalid configuration: INNGEST_EVENT_KEY (or INNGEST_BASE_URL) is required on Vercel (background work runs on Inngest: no process stays up to run it)",
      "Invalid configuration: RATE_LIMIT_STORE must be redis or database on Vercel (each function instance has its own memory)",
    ]);
    const serverless = {
      VERCEL: "1",
      DATABASE_URL: "postgres://u:p@db.example:5432/news",
      S3_BUCKET: "images",
      INNGEST_EVENT_KEY: "key",
      INNGEST_SIGNING_KEY: "signkey-prod-x",
      RATE_LIMIT_STORE: "redis",
      REDIS_URL: "rediss://cache.example:6379",
    };
    expect(parseEnv(serverless)).toMatchObject({ imageStorage: "s3", inngestEnabled: true });
    expect(parseEnv({ ...serverless, RATE_LIMIT_STORE: "database" }).RATE_LIMIT_STORE).toBe("database");
  });

  it("reads the schema from DATABASE_URL's ?schema= and enables Inngest when configured", () => {
    const env = parseEnv({ DATABASE_URL: "postgres://u@h:5432/db?schema=news", INNGEST_DEV: "1" });
    expect(env.DATABASE_SCHEMA).toBe("news");
    expect(env.inngestEnabled).toBe(true);
  });

  it("chooses the mail transport and image storage, and checks their variables", () => {
    expect(parseEnv({})).toMatchObject({ mailTransport: "log", imageStorage: "disk" });
    const env = parseEnv({
      SMTP_URL: "smtp://mailer:pw@smtp.example.com:587",
      MAIL_FROM: "The Gazette <news@gazette.test>",
      S3_BUCKET: "images",
      S3_ENDPOINT: "http://127.0.0.1:9000/",
      S3_FORCE_PATH_STYLE: "true",
      IMAGE_PUBLIC_BASE_URL: "https://cdn.gazette.test/img/",
    });
    expect(env).toMatchObject({
      mailTransport: "smtp",
      imageStorage: "s3",
      S3_ENDPOINT: "http://127.0.0.1:9000",
      S3_REGION: "us-east-1",
      S3_FORCE_PATH_STYLE: true,
      IMAGE_PUBLIC_BASE_URL: "https://cdn.gazette.test/img",
    });
    expect(error({ SMTP_URL: "smtp://mailer:pw@smtp.example.com" })).toBe(
      "Invalid configuration: MAIL_FROM is required with SMTP_URL (the sender of every mail)",
    );
    // The message names the variable, never its value (an SMTP URL carries the password).
    const bad = error({ SMTP_URL: "http://mailer:hunter22@smtp.example.com", MAIL_FROM: "news@gazette.test" });
    expect(bad).toMatch(/^Invalid configuration: SMTP_URL must be an smtp:\/\/ or smtps:\/\/ URL/);
    expect(bad).not.toContain("hunter22");
    expect(error({ SMTP_URL: "smtp://h", MAIL_FROM: "not an address" })).toMatch(/^Invalid configuration: MAIL_FROM /);
    expect(error({ S3_ENDPOINT: "http://127.0.0.1:9000" })).toBe(
      "Invalid configuration: S3_ENDPOINT is set but S3_BUCKET is not",
    );
    expect(error({ S3_BUCKET: "b", S3_ACCESS_KEY_ID: "id" })).toMatch(
      /^Invalid configuration: S3_SECRET_ACCESS_KEY is required with the other S3 key/,
    );
  });

  it("takes an external comment scorer: its URL, timeout (800 ms by default) and token", () => {
    expect(parseEnv({})).toMatchObject({
      MODERATION_SCORER_TIMEOUT_MS: 800,
      MODERATION_SCORER_ALLOW_PRIVATE_URLS: false,
    });
    expect(
      parseEnv({ MODERATION_SCORER_URL: "https://scorer.example.com/score/", MODERATION_SCORER_TIMEOUT_MS: "1500" }),
    ).toMatchObject({
      MODERATION_SCORER_URL: "https://scorer.example.com/score",
      MODERATION_SCORER_TIMEOUT_MS: 1500,
    });
    expect(error({ MODERATION_SCORER_URL: "ftp://scorer.example.com" })).toMatch(
      /^Invalid configuration: MODERATION_SCORER_URL /,
    );
    expect(error({ MODERATION_SCORER_TIMEOUT_MS: "20" })).toMatch(
      /^Invalid configuration: MODERATION_SCORER_TIMEOUT_MS /,
    );
  });

  it("stops `npm start` at once with that line when a value is bad", () => {
    const result = spawnSync(process.execPath, ["--import", "tsx", "scripts/start.ts"], {
      env: { PATH: process.env.PATH, NODE_ENV: "development", PORT: "not-a-port", DATA_DIR: "/tmp/masthead-env-test" },
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(result.status).toBe(1);
    expect(result.stderr.trim()).toMatch(/^Invalid configuration: PORT /);
    expect(result.stdout).not.toContain("building");
    // A child Node.js with tsx: seconds on a machine busy with the other suites, not a hang.
  }, 60_000);
});
