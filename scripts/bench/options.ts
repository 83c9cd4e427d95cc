/** The bench's command line (npm run bench -- --stories 50000 …) and its fixed settings. */
import path from "node:path";
import { parseArgs } from "node:util";

const { values } = parseArgs({
  options: {
    stories: { type: "string", default: "50000" },
    requests: { type: "string", default: "3000" },
    connections: { type: "string", default: "10" },
    seconds: { type: "string", default: "20" },
    warmup: { type: "string", default: "200" },
    instances: { type: "string", default: "1" },
    only: { type: "string", default: "" },
    /** Leave out the floors (the scenarios' SQL replayed alone, their answers serialised). */
    "no-floors": { type: "boolean", default: false },
  },
});

function positive(name: string, raw: string | undefined): number {
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) {
    console.error(`--${name} takes a positive whole number.`);
    process.exit(1);
  }
  return n;
}

export const STORIES = positive("stories", values.stories);
export const REQUESTS = positive("requests", values.requests);
export const CONNECTIONS = positive("connections", values.connections);
export const SECONDS = positive("seconds", values.seconds);
export const WARMUP = positive("warmup", values.warmup);
export const INSTANCES = positive("instances", values.instances);
export const FLOORS = !values["no-floors"];
/** `--only a,b`: the scenarios whose names contain one of these (the empty baselines always run). */
export const ONLY = values.only
  .split(",")
  .map((part) => part.trim().toLowerCase())
  .filter(Boolean);
/** Build + seed + runs: the bench never hangs longer. */
export const OVERALL_LIMIT_MS = 45 * 60_000;

export const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "../..");
export const databaseUrl = process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test?schema=mh_bench";
export const dbHost = new URL(databaseUrl).hostname;
if (!["127.0.0.1", "localhost", "::1", "[::1]"].includes(dbHost)) {
  console.error(`The bench only runs against a local database; DATABASE_URL points at ${dbHost}.`);
  process.exit(1);
}
export const dataDir = path.join(root, ".data-bench");
/** The application_name of the instances' connections: PostgreSQL's CPU is counted for these backends. */
export const APP_NAME = `masthead-bench-${process.pid}`;

export function log(message: string) {
  console.log(`[bench] ${message}`);
}
