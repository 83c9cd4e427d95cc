/**
 * Opens the driver adapter for a DatabaseConfig. The same adapter serves Prisma Client
 * (queries) and the WebAssembly schema engine (migrations), so both paths see one database.
 */
import fs from "node:fs";

import { PGlite } from "@electric-sql/pglite";
import { PrismaPg } from "@prisma/adapter-pg";
import type { SqlMigrationAwareDriverAdapterFactory } from "@prisma/driver-adapter-utils";
import { PrismaPGlite } from "pglite-prisma-adapter";

import type { DatabaseConfig } from "./config";

export type OpenedAdapter = {
  /** The PGlite instance, when the database is PGlite (snapshots, tests). */
  pglite?: PGlite;
  factory: SqlMigrationAwareDriverAdapterFactory;
  /** Runs a statement outside Prisma (schema creation, health probes, test resets). */
  exec: (sql: string) => Promise<void>;
  close: () => Promise<void>;
};

export type OpenAdapterOptions = {
  /** PGlite only: start from this dump (PGlite.dumpDataDir) instead of an empty database. */
  pgliteSnapshot?: Blob;
};

export async function openAdapter(config: DatabaseConfig, options: OpenAdapterOptions = {}): Promise<OpenedAdapter> {
  if (config.kind === "pglite") {
    if (config.dir !== "memory://") fs.mkdirSync(config.dir, { recursive: true });
    const pglite = await PGlite.create(config.dir, options.pgliteSnapshot ? { loadDataDir: options.pgliteSnapshot } : {});
    return {
      // The adapter's types come from its own copy of driver-adapter-utils (7.2); the contract is the same.
      factory: new PrismaPGlite(pglite) as unknown as SqlMigrationAwareDriverAdapterFactory,
      exec: async (sql) => {
        await pglite.exec(sql);
      },
      pglite,
      close: () => pglite.close(),
    };
  }
  const { Pool } = await import("pg");
  // Every connection works in the configured schema: the schema engine's SQL is unqualified and
  // follows search_path (the adapter's `schema` option only reaches Prisma Client's queries).
  const pool = new Pool({ connectionString: config.url, max: 10, options: `-c search_path="${config.schema}"` });
  // A dropped connection must not crash the process; the next query reports the error.
  pool.on("error", () => undefined);
  if (config.schema !== "public") await pool.query(`CREATE SCHEMA IF NOT EXISTS "${config.schema}"`);

  return {
    factory: new PrismaPg(pool, { schema: config.schema }),
    exec: async (sql) => {
      await pool.query(sql);
    },
    close: () => pool.end(),
  };
}
