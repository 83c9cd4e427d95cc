/**
 * npm start (and npm run dev with --dev): the one command that runs Masthead from a fresh clone.
 *
 *   0. On a Node.js older than package.json's engines.node, stop with one line saying so.
 *   1. Validate the configuration (env.js); a bad value stops here with a line naming it.
 *   2. Outside production, make an AUTH_SECRET if none is set and keep it in DATA_DIR.
 *   3. Apply pending migrations to the configured database (embedded PGlite by default).
 *   4. On the first run (no account yet), seed the demo publisher, unless in production.
 *   5. Build the app when the sources changed since the last build (skipped with --dev).
 *   6. Serve it (scripts/serve.mjs: Next.js, production or dev) and print where the dashboard and the API are.
 *
 * With --build-only: steps 1, 2 and 5 (without regenerating the Prisma client), then exit: npm
 * test builds while its checks run, so that the Playwright step finds the build up to date.
 *
 * PGlite allows one process at a time: steps 3-4 close the database before step 6 opens it.
 */
// First: on a Node.js older than package.json's engines.node, stop with one line before anything loads.
import "./lib/require-supported-node";
// Writes to a closed terminal or pipe are dropped, not fatal (this process forwards signals to its server).
import "./lib/closed-output.mjs";

import { spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";

import { parseEnv, type Env } from "../env.js";
import { openDatabase } from "../server/db/client";
import { databaseConfigFromEnv, describeDatabase } from "../server/db/config";
import { applyMigrations } from "../server/db/migrate";
import { formatCredentials, runSeed } from "../server/seed/run";
import { exitOnEnvError } from "./lib/cli";
import { serverNodeFlags } from "./lib/server-flags";

const dev = process.argv.includes("--dev");
const buildOnly = process.argv.includes("--build-only");
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const nextBin = path.join(root, "node_modules/next/dist/bin/next");

function log(message: string) {
  console.log(`[masthead] ${message}`);
}

// ─── 1-2. Configuration ──────────────────────────────────────────────────────────────────────
const env: Env = exitOnEnvError(() => {
  const first = parseEnv(process.env);
  if (first.AUTH_SECRET) return first;
  // Not production (env.js requires AUTH_SECRET there): a random secret, kept so sessions survive restarts.
  const secretFile = path.join(first.DATA_DIR, "auth-secret");
  fs.mkdirSync(first.DATA_DIR, { recursive: true });
  if (!fs.existsSync(secretFile)) fs.writeFileSync(secretFile, randomBytes(32).toString("base64url"), { mode: 0o600 });
  process.env.AUTH_SECRET = fs.readFileSync(secretFile, "utf8").trim();
  return parseEnv(process.env);
});

const config = databaseConfigFromEnv(env);
log(`database: ${describeDatabase(config)}`);

// ─── 3-4. Migrate, and seed on the first run ──────────────────────────────────────────────────
if (!buildOnly) {
  const database = await openDatabase(config).catch((error: unknown) => {
    console.error(`[masthead] cannot open the database (${describeDatabase(config)}): ${String(error)}`);
    process.exit(1);
  });
  let accounts = 0;
  try {
    const applied = await applyMigrations(database.adapter);
    log(applied.length ? `applied migrations: ${applied.join(", ")}` : "database schema is up to date");
    accounts = await database.prisma.account.count();
  } finally {
    await database.close();
  }
  if (accounts === 0) {
    if (env.NODE_ENV === "production" && !env.ALLOW_DEMO_SEED) {
      log("the database has no publisher yet: create the first owner with `npm run admin:create`");
    } else {
      const { credentials, credentialsFile } = await runSeed(env, config);
      log(
        `first run: seeded the demo publisher (credentials in ${credentialsFile}):\n${formatCredentials(credentials)}`,
      );
    }
  }
}

// ─── 5. Build when needed ─────────────────────────────────────────────────────────────────────
const childEnv: NodeJS.ProcessEnv = {
  ...process.env,
  AUTH_SECRET: env.AUTH_SECRET,
  NEXTAUTH_SECRET: env.AUTH_SECRET,
  NEXTAUTH_URL: process.env.NEXTAUTH_URL ?? env.APP_URL,
  NEXT_TELEMETRY_DISABLED: "1",
  // The demo publisher's test tools (the paywall demo's reader sign-in, the demo_test gateway):
  // on outside production unless the shell says otherwise. The served app runs with
  // NODE_ENV=production either way, so it cannot tell by itself.
  DEMO_TOOLS: process.env.DEMO_TOOLS ?? (env.NODE_ENV === "production" ? "false" : "true"),
};

if (!dev) {
  const stampFile = path.join(root, ".next", "masthead-build-stamp");
  const stamp = sourceFingerprint();
  const built = fs.existsSync(path.join(root, ".next", "BUILD_ID")) && readIfExists(stampFile) === stamp;
  if (built) {
    log("build is up to date");
  } else {
    log("building the app (first start, or the sources changed); this takes a few minutes on 2 cores…");
    // Not with --build-only (npm test): the install generated the client, and the type check and
    // lint running beside this build would read it half rewritten.
    if (!buildOnly) run(process.execPath, [path.join(root, "scripts/prisma-generate.mjs")]);
    // NODE_ENV must be production for `next build`; the rest of the environment is the user's.
    run(process.execPath, [nextBin, "build"], { ...childEnv, NODE_ENV: "production" });
    fs.writeFileSync(stampFile, stamp);
  }
}
if (buildOnly) process.exit(0);

// ─── 6. Serve ────────────────────────────────────────────────────────────────────────────────
// scripts/serve.mjs: Next.js behind node:http (methods Next.js cannot answer, graceful shutdown).
const args = [...serverNodeFlags(env), path.join(root, "scripts/serve.mjs"), ...(dev ? ["--dev"] : [])];
const server = spawn(process.execPath, args, {
  cwd: root,
  stdio: "inherit",
  env: { ...(dev ? childEnv : { ...childEnv, NODE_ENV: "production" }), PORT: String(env.PORT), HOST: env.HOST },
});
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => server.kill(signal));
server.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));

void announceWhenReady();

async function announceWhenReady() {
  const local = `http://127.0.0.1:${env.PORT}`;
  for (let i = 0; i < 600; i++) {
    try {
      const response = await fetch(`${local}/api/health`);
      if (response.ok) {
        log(`ready on ${env.APP_URL}`);
        log(`  dashboard   ${env.APP_URL}/admin`);
        log(`  API         ${env.APP_URL}/api  (reference: ${env.APP_URL}/docs/api)`);
        log(`  health      ${env.APP_URL}/api/health`);
        log(`  widgets     ${env.APP_URL}/demo/article  (the demo article page)`);
        return;
      }
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

// ─── helpers ─────────────────────────────────────────────────────────────────────────────────
function run(command: string, argv: string[], runEnv: NodeJS.ProcessEnv = childEnv) {
  const result = spawnSync(command, argv, { cwd: root, stdio: "inherit", env: runEnv });
  if (result.status !== 0) {
    console.error(`[masthead] ${path.basename(argv[0] ?? command)} ${argv.slice(1).join(" ")} failed`);
    process.exit(result.status ?? 1);
  }
}

function readIfExists(file: string): string | undefined {
  try {
    return fs.readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
}

/** Size and modification time of every file the build reads: a change means a rebuild. */
function sourceFingerprint(): string {
  const roots = [
    "app",
    "components",
    "server",
    "sdk",
    "inngest",
    "public",
    "env.js",
    "next.config.js",
    "package-lock.json",
    "prisma/schema",
    "postcss.config.mjs",
    "tsconfig.json",
    "instrumentation.ts",
  ];
  const skip = new Set(["generated", "node_modules", ".next"]);
  const parts: string[] = [];
  const walk = (target: string) => {
    const full = path.join(root, target);
    let stat: fs.Stats;
    try {
      stat = fs.statSync(full);
    } catch {
      return;
    }
    if (stat.isDirectory()) {
      for (const entry of fs.readdirSync(full).sort()) {
        if (!skip.has(entry) && !entry.endsWith(".test.ts")) walk(path.join(target, entry));
      }
    } else {
      parts.push(`${target}:${stat.size}:${Math.floor(stat.mtimeMs)}`);
    }
  };
  roots.forEach(walk);
  return parts.join("\n");
}
