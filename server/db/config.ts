/**
 * Which database this process talks to, derived from the environment (env.js):
 * PostgreSQL when DATABASE_URL is set, otherwise the embedded PGlite in PGLITE_DIR.
 */
import { getEnv } from "../../env.js";

export type DatabaseConfig =
  | { kind: "pglite"; dir: string }
  /**
   * `poolMax`: connections this process opens at most (default DEFAULT_POOL_MAX, ./adapter.ts); `preparedStatements`: false
   * sends every statement unnamed (./statement-names.ts).
   */
  | { kind: "postgresql"; url: string; schema: string; poolMax?: number; preparedStatements?: boolean };

export function databaseConfigFromEnv(env = getEnv()): DatabaseConfig {
  if (env.DATABASE_URL)
    return {
      kind: "postgresql",
      url: stripSchemaParam(env.DATABASE_URL),
      schema: env.DATABASE_SCHEMA,
      poolMax: env.DATABASE_POOL_MAX,
      preparedStatements: env.DATABASE_PREPARED_STATEMENTS,
    };
  return { kind: "pglite", dir: env.PGLITE_DIR };
}

/** node-postgres does not understand Prisma's `?schema=`; the schema goes to the adapter instead. */
function stripSchemaParam(url: string): string {
  const parsed = new URL(url);
  parsed.searchParams.delete("schema");
  return parsed.toString();
}

/** A description safe to print or return from /api/health: no credentials. */
export function describeDatabase(config: DatabaseConfig): string {
  if (config.kind === "pglite") return config.dir === "memory://" ? "PGlite (in memory)" : `PGlite at ${config.dir}`;
  const url = new URL(config.url);
  return `PostgreSQL at ${url.hostname}:${url.port || "5432"}${url.pathname} (schema ${config.schema})`;
}
