/**
 * npm run vercel-build: what Vercel runs as the build command (docs/operations.md, "On Vercel").
 * 1. The configuration check, with Vercel's refusals (env.js): no PGlite, no local image disk, no
 *    background work without Inngest, no rate limits in one function's memory. One line each.
 * 2. proxy.ts: the edge checks that scripts/serve.mjs makes on a Node server (server/http/serverless-proxy.ts).
 * 3. Pending migrations, then the build.
 */
// First: on a Node.js older than package.json's engines.node, stop with one line before anything loads.
import "./lib/require-supported-node";

import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

import { getEnv } from "../env.js";
import { databaseConfigFromEnv, describeDatabase } from "../server/db/config";
import { migrateDatabase } from "../server/db/setup";
import { SERVERLESS_PROXY_FILE } from "../server/http/serverless-proxy";
import { exitOnEnvError, exitOnKnownError } from "./lib/cli";

const root = path.resolve(import.meta.dirname, "..");
exitOnEnvError(() => getEnv());

fs.writeFileSync(path.join(root, "proxy.ts"), SERVERLESS_PROXY_FILE);
console.log("proxy.ts written: the edge checks run in a Next.js proxy on this platform");

const config = databaseConfigFromEnv();
const applied = await migrateDatabase(config).catch(exitOnKnownError);
console.log(`${describeDatabase(config)}: ${applied.length} migration(s) applied`);

const build = spawnSync("npm", ["run", "build"], { cwd: root, stdio: "inherit", env: process.env });
process.exit(build.status ?? 1);
