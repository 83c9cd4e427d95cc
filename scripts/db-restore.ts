/**
 * npm run db:restore -- --from <file> [--force]
 * Restores a backup made by `npm run db:backup` into the configured database, then applies the
 * migrations the backup lacks. Refuses to replace a database that holds data unless --force (PGlite:
 * the old folder is kept, renamed), a backup taken by a newer Masthead, and, on PostgreSQL, a
 * database whose migrations are newer than the backup's. Stop `npm start` first.
 */
// First: on a Node.js older than package.json's engines.node, stop with one line before anything loads.
import "./lib/require-supported-node";

import { getEnv } from "../env.js";
import { BackupError, restoreDatabase } from "../server/db/backup";
import { databaseConfigFromEnv, describeDatabase } from "../server/db/config";
import { parseCliArgs, restoreArgsSchema, userPath } from "./lib/backup-cli";
import { exitOnEnvError, exitOnKnownError } from "./lib/cli";

const args = parseCliArgs(
  restoreArgsSchema,
  { from: { type: "string" }, force: { type: "boolean" } },
  "npm run db:restore -- --from <file> [--force]",
);
const env = exitOnEnvError(() => getEnv());
const config = databaseConfigFromEnv(env);

try {
  const file = userPath(args.from);
  const result = await restoreDatabase(config, file, { force: args.force, env: process.env });
  console.log(`Restored ${file} into ${describeDatabase(config)} (${result.migrations.length} migrations).`);
  if (result.movedAside) console.log(`The database it replaced was kept in ${result.movedAside}; delete it when done.`);
  console.log(
    result.applied.length
      ? `The backup was older than this version: applied ${result.applied.length} migration(s): ${result.applied.join(", ")}.`
      : "Its schema is up to date with this version.",
  );
} catch (error) {
  if (error instanceof BackupError) {
    console.error(error.message);
    process.exit(1);
  }
  exitOnKnownError(error);
}
