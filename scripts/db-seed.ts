/**
 * npm run db:seed
 * Migrates, then creates the demo publisher (idempotent), prints its credentials and writes them to
 * DATA_DIR/demo-credentials.json. Refuses when NODE_ENV=production unless ALLOW_DEMO_SEED=true.
 */
import { getEnv } from "../env.js";
import { databaseConfigFromEnv, describeDatabase } from "../server/db/config";
import { formatCredentials, runSeed, SeedRefusedError } from "../server/seed/run";
import { exitOnEnvError, exitOnKnownError } from "./lib/cli";

const env = exitOnEnvError(() => getEnv());
const config = databaseConfigFromEnv(env);
try {
  const { credentials, report, credentialsFile } = await runSeed(env, config);
  console.log(
    report.created.length
      ? `Seeded ${describeDatabase(config)}: ${report.created.join(", ")}.`
      : `${describeDatabase(config)} already holds the demo publisher; nothing changed.`,
  );
  console.log(`Demo credentials (also in ${credentialsFile}):\n${formatCredentials(credentials)}`);
} catch (error) {
  if (error instanceof SeedRefusedError) {
    console.error(error.message);
    process.exit(1);
  }
  exitOnKnownError(error);
}
