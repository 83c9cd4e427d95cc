/**
 * npm run db:migrate
 * Applies pending migrations to the configured database (DATABASE_URL, or the embedded PGlite).
 * Offline; applying twice is a no-op. Stop `npm start` first when using PGlite: one process at a time.
 */
// First: on a Node.js older than package.json's engines.node, stop with one line before anything loads.
import "./lib/require-supported-node";

import { databaseConfigFromEnv, describeDatabase } from "../server/db/config";
import { migrateDatabase } from "../server/db/setup";
import { exitOnEnvError, exitOnKnownError } from "./lib/cli";

const config = exitOnEnvError(() => databaseConfigFromEnv());
const applied = await migrateDatabase(config).catch(exitOnKnownError);
console.log(
  applied.length
    ? `Applied ${applied.length} migration(s) to ${describeDatabase(config)}: ${applied.join(", ")}`
    : `${describeDatabase(config)} is up to date.`,
);
