/**
 * npm run import -- --from <source> FILE [--account <slug>] [--actor <owner e-mail>] [--dry-run]
 * Imports comments (and, later, content and readers) from another system's export file into an
 * account: docs/migration.md. Ctrl-C stops it between batches; running it again resumes.
 */
// First: on a Node.js older than package.json's engines.node, stop with one line before anything loads.
import "./lib/require-supported-node";

import { getEnv } from "../env.js";
import { openDatabase } from "../server/db/client";
import { databaseConfigFromEnv } from "../server/db/config";
import { applyMigrations } from "../server/db/migrate";
import { importCommand } from "./import/cli";
import { exitOnEnvError, exitOnKnownError } from "./lib/cli";

const env = exitOnEnvError(() => getEnv());
const database = await openDatabase(databaseConfigFromEnv(env)).catch(exitOnKnownError);
const stop = new AbortController();
process.once("SIGINT", () => {
  console.error("Stopping after the batch in flight (Ctrl-C again to kill; running the import again resumes).");
  stop.abort();
  process.once("SIGINT", () => process.exit(130));
});
let code = 1;
try {
  await applyMigrations(database.adapter);
  ({ code } = await importCommand(database.prisma, process.argv.slice(2), {
    out: (text) => console.log(text),
    err: (text) => console.error(text),
    signal: stop.signal,
  }));
} catch (error) {
  console.error(`The import stopped: ${error instanceof Error ? error.message : String(error)}`);
} finally {
  await database.close();
}
process.exit(code);
