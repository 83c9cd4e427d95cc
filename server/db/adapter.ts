/**
 * Opens the driver adapter for a DatabaseConfig. Prisma Client (queries) and the WebAssembly
 * schema engine (migrations) reach the same database through it: the client through `factory`,
 * the engine through a migration session of its own (`migrationSession`).
 */
import fs from "node:fs";

import { PGlite } from "@electric-sql/pglite";
import { PrismaPg } from "@prisma/adapter-pg";
import type { SqlMigrationAwareDriverAdapterFactory } from "@prisma/driver-adapter-utils";
import { PrismaPGlite } from "pglite-prisma-adapter";

import type { DatabaseConfig } from "./config";
import { statementNames } from "./statement-names";

export type OpenedAdapter = {
  /** The PGlite instance, when the database is PGlite (snapshots, tests). */
  pglite?: PGlite;
  factory: SqlMigrationAwareDriverAdapterFactory;
  /**
   * What the schema engine connects through, ended when the engine is done. On PostgreSQL it is a
   * connection of its own: the engine serialises migrations with a session-level advisory lock
   * (pg_advisory_lock) that it never releases, and ending the connection does. So the lock lasts
   * as long as the migrating, and another process migrating the same database (an instance
   * starting, `npm run db:seed`, a test run beside it) waits no longer. It must never be a
   * connection of the client's pool, which would keep the lock for as long as it lives. PGlite is
   * one session: the client's own factory.
   */
  migrationSession: () => Promise<MigrationSession>;
  /** Runs a statement outside Prisma (schema creation, health probes, test resets). */
  exec: (sql: string) => Promise<void>;
  close: () => Promise<void>;
};

/** Connections a process opens at most on PostgreSQL when DATABASE_POOL_MAX does not say. */
export const DEFAULT_POOL_MAX = 10;

type MigrationSession = { factory: SqlMigrationAwareDriverAdapterFactory; end: () => Promise<void> };

export type OpenAdapterOptions = {
  /** PGlite only: start from this dump (PGlite.dumpDataDir) instead of an empty database. */
  pgliteSnapshot?: Blob;
};

export async function openAdapter(config: DatabaseConfig, options: OpenAdapterOptions = {}): Promise<OpenedAdapter> {
  if (config.kind === "pglite") {
    let unlock = () => undefined as void;
    if (config.dir !== "memory://") {
      fs.mkdirSync(config.dir, { recursive: true });
      unlock = lockPgliteDir(config.dir);
    }
    let pglite: PGlite;
    try {
      pglite = await PGlite.create(config.dir, options.pgliteSnapshot ? { loadDataDir: options.pgliteSnapshot } : {});
    } catch (error) {
      unlock();
      throw error;
    }
    const factory = wholeMigrationScripts(new PrismaPGlite(pglite), (script) => pglite.exec(script));
    return {
      factory,
      migrationSession: async () => ({ factory, end: async () => undefined }),
      exec: async (sql) => {
        await pglite.exec(sql);
      },
      pglite,
      close: async () => {
        await pglite.close();
        unlock();
      },
    };
  }
  const { Pool } = await import("pg");
  // Every connection works in the configured schema: the schema engine's SQL is unqualified and
  // follows search_path (the adapter's `schema` option only reaches Prisma Client's queries).
  const connection = { connectionString: config.url, options: `-c search_path="${config.schema}"` };
  const pool = new Pool({ ...connection, max: config.poolMax ?? DEFAULT_POOL_MAX });
  // A dropped connection must not crash the process; the next query reports the error.
  pool.on("error", () => undefined);
  if (config.schema !== "public") await pool.query(`CREATE SCHEMA IF NOT EXISTS "${config.schema}"`);

  return {
    factory: wholeMigrationScripts(
      new PrismaPg(pool, {
        schema: config.schema,
        ...(config.preparedStatements === false ? {} : { statementNameGenerator: statementNames().nameOf }),
      }),
      (script) => pool.query(script),
    ),
    migrationSession: async () => {
      const own = new Pool({ ...connection, max: 1 });
      own.on("error", () => undefined);
      return {
        factory: wholeMigrationScripts(new PrismaPg(own, { schema: config.schema }), (script) => own.query(script)),
        end: () => own.end(),
      };
    },
    exec: async (sql) => {
      await pool.query(sql);
    },
    close: () => pool.end(),
  };
}

/**
 * A migration's script is sent as one simple query, which PostgreSQL (and PGlite) runs as one
 * transaction: all of it or nothing, and statements with semicolons of their own (a function's
 * body, migration 20261124100000_access_change_notices) arrive whole. The adapters do otherwise:
 * `@prisma/adapter-pg` splits the script at every ";" and runs the pieces one by one, and
 * pglite-prisma-adapter (0.7.2) starts the script without awaiting it (the schema engine would
 * record a failing migration as finished). Here the script is awaited and its error reaches the
 * engine, which records the migration as failed.
 */
function wholeMigrationScripts(
  adapterFactory: PrismaPg | PrismaPGlite,
  exec: (script: string) => Promise<unknown>,
): SqlMigrationAwareDriverAdapterFactory {
  // The adapters' types come from their own copies of driver-adapter-utils; the contract is the same.
  const factory = adapterFactory as unknown as SqlMigrationAwareDriverAdapterFactory;
  const connect = factory.connect.bind(factory);
  factory.connect = async () => {
    const adapter = await connect();
    adapter.executeScript = async (script) => {
      try {
        await exec(script);
      } catch (error) {
        (adapter as unknown as { onError: (error: unknown) => never }).onError(error); // as a DriverAdapterError
      }
    };
    return adapter;
  };
  return factory;
}

export class DatabaseInUseError extends Error {
  constructor(dir: string, pid: number) {
    super(
      `The embedded database in ${dir} is open in another process (pid ${pid}), probably \`npm start\`. ` +
        "PGlite allows one process at a time: stop that process first, or use PostgreSQL (DATABASE_URL).",
    );
    this.name = "DatabaseInUseError";
  }
}

/**
 * PGlite files must not be opened by two processes at once (the second would corrupt them).
 * A lock file holds the owner's pid; a lock whose process is gone (killed, crashed) is taken over.
 * Returns the release function. Also used by the restore (server/db/backup.ts), which replaces the folder.
 */
export function lockPgliteDir(dir: string): () => void {
  const lockFile = `${dir}.lock`;
  for (let tries = 0; tries < 2; tries++) {
    try {
      fs.writeFileSync(lockFile, String(process.pid), { flag: "wx" });
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        process.off("exit", release);
        try {
          if (fs.readFileSync(lockFile, "utf8") === String(process.pid)) fs.rmSync(lockFile);
        } catch {
          // already gone
        }
      };
      process.once("exit", release);
      return release;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const owner = Number(fs.readFileSync(lockFile, "utf8"));
      if (owner === process.pid) return () => undefined; // this process already holds it
      if (Number.isInteger(owner) && owner > 0 && isAlive(owner)) throw new DatabaseInUseError(dir, owner);
      fs.rmSync(lockFile, { force: true }); // stale: its process is gone
    }
  }
  throw new Error(`Could not lock ${dir}`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
