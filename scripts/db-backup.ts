/**
 * npm run db:backup -- --out <file>
 * Writes a backup of the configured database to a new file: pg_dump's custom format of the
 * configured schema on PostgreSQL, a tarball of the data folder on the embedded PGlite (stop
 * `npm start` first: one process at a time). Uploaded images are not in it (docs/operations.md).
 */
// First: on a Node.js older than package.json's engines.node, stop with one line before anything loads.
import "./lib/require-supported-node";

import { getEnv } from "../env.js";
import { backupDatabase, BackupError } from "../server/db/backup";
import { databaseConfigFromEnv, describeDatabase } from "../server/db/config";
import { backupArgsSchema, parseCliArgs, userPath } from "./lib/backup-cli";
import { exitOnEnvError, exitOnKnownError } from "./lib/cli";

const args = parseCliArgs(backupArgsSchema, { out: { type: "string" } }, "npm run db:backup -- --out <file>");
const env = exitOnEnvError(() => getEnv());
const config = databaseConfigFromEnv(env);

try {
  const result = await backupDatabase(config, userPath(args.out), { env: process.env });
  const latest = result.migrations.at(-1);
  console.log(
    `Backed up ${describeDatabase(config)} to ${result.file} (${formatBytes(result.bytes)}; ` +
      `${result.migrations.length} migrations${latest ? `, the latest ${latest}` : ""}).`,
  );
  if (env.imageStorage === "disk")
    console.log(`Uploaded images are not in it: copy ${env.UPLOAD_DIR} as well (docs/operations.md).`);
} catch (error) {
  if (error instanceof BackupError) {
    console.error(error.message);
    process.exit(1);
  }
  exitOnKnownError(error);
}

function formatBytes(bytes: number): string {
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}
