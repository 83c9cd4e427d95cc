/**
 * npm run db:seed [-- --stories N] [-- --engagement]
 * Migrates, then creates the demo publisher and its content (idempotent), prints its credentials and
 * writes them to DATA_DIR/demo-credentials.json. Refuses when NODE_ENV=production unless
 * ALLOW_DEMO_SEED=true. `--stories N` also generates published stories for benchmarks until the
 * demo account has N of them (a second run tops up, it does not double). `--engagement` adds the
 * engagement benchmark's readers, pages, comments and reactions (server/seed/large-engagement.ts)
 * and writes DATA_DIR/bench-engagement.json. `--access` adds the access benchmark's subscription
 * stories, subscribers and meter history (server/seed/large-access.ts) and writes
 * DATA_DIR/bench-access.json.
 */
// First: on a Node.js older than package.json's engines.node, stop with one line before anything loads.
import "./lib/require-supported-node";

import { parseArgs } from "node:util";

import { getEnv } from "../env.js";
import { databaseConfigFromEnv, describeDatabase } from "../server/db/config";
import { formatCredentials, runSeed, SeedRefusedError } from "../server/seed/run";
import { exitOnEnvError, exitOnKnownError } from "./lib/cli";

const { values } = parseArgs({
  options: { stories: { type: "string" }, engagement: { type: "boolean" }, access: { type: "boolean" } },
});
const stories = values.stories === undefined ? undefined : Number(values.stories);
if (stories !== undefined && (!Number.isInteger(stories) || stories < 0 || stories > 10_000_000)) {
  console.error("--stories takes a whole number between 0 and 10000000.");
  process.exit(1);
}

const env = exitOnEnvError(() => getEnv());
const config = databaseConfigFromEnv(env);
try {
  const started = Date.now();
  const { credentials, report, credentialsFile, large, engagement, access } = await runSeed(env, config, {
    stories,
    engagement: values.engagement === true,
    access: values.access === true,
    onProgress: (done, target) => process.stdout.write(`\rGenerated stories: ${done}/${target}`),
  });
  if (large) {
    if (large.created > 0) process.stdout.write("\n");
    console.log(
      `Generated stories: ${large.created} created, ${large.total} in all (${((Date.now() - started) / 1000).toFixed(1)} s).`,
    );
  }
  if (engagement) {
    console.log(
      engagement.created
        ? `Engagement benchmark data: ${engagement.bigPageComments} comments on ${engagement.bigPage} and ${engagement.countPages.length} other pages.`
        : `Engagement benchmark data already there (${engagement.bigPageComments} comments on the big page; ${engagement.removed} comments of earlier runs removed).`,
    );
  }
  if (access) {
    console.log(
      `Access benchmark data: ${access.storyIds.length} subscription stories listed, ${access.subscriberIds.length} subscribers, ${access.anonymousIds.length} metered anonymous readers.`,
    );
  }
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
