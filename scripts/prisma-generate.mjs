// postinstall: generate the Prisma client offline.
// `prisma generate` never runs the native schema engine, but the CLI insists that a binary exists
// before it starts (it would try to download one, and downloads fail on offline machines). Point it
// at any existing file; see docs/database.md.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

if (!existsSync("prisma/schema")) process.exit(0);
// The Prisma CLI is a build tool (devDependencies): an install without them (npm ci --omit=dev, on
// a machine that runs a build made elsewhere) has nothing to generate with, and needs nothing.
if (!existsSync("node_modules/prisma/package.json")) {
  console.log("prisma-generate: the Prisma CLI is not installed (no devDependencies); skipping client generation");
  process.exit(0);
}
const env = {
  ...process.env,
  PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY ?? process.execPath,
};
const result = spawnSync("npx", ["--no-install", "prisma", "generate"], { stdio: "inherit", env });
process.exit(result.status ?? 1);
