/**
 * Backups and restore of the configured database (`npm run db:backup`, `npm run db:restore`;
 * docs/operations.md "Backups and restore").
 *
 * - PostgreSQL: `pg_dump --format=custom` of the configured schema, restored with `pg_restore
 *   --clean --if-exists --no-owner --single-transaction`. The client tools are spawned; the password
 *   reaches them in PGPASSWORD, never on their command line.
 * - PGlite: PGlite's own `dumpDataDir()` (a gzipped tarball of the data folder), taken while this
 *   process holds the folder's lock (the server must be stopped); restored with `loadDataDir` into a
 *   staging folder that then takes the configured folder's place.
 *
 * Either way the restore refuses a backup taken by a newer Masthead (migrations this version does
 * not have), refuses to replace existing data without `force`, and applies the migrations the
 * backup lacks afterwards, so an old backup comes up to date.
 */
import { spawn } from "node:child_process";
import fsSync from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";

import type { PGlite } from "@electric-sql/pglite";

import { lockPgliteDir, openAdapter } from "./adapter";
import { openDatabase } from "./client";
import { describeDatabase, type DatabaseConfig } from "./config";
import { applyMigrations, listMigrations, MIGRATIONS_DIR } from "./migrate";

/** A failure the operator can act on; its message says what to do. */
export class BackupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "BackupError";
  }
}

/**
 * Environment the PostgreSQL client tools run with (PATH, PG* variables): the caller's, usually
 * process.env (server code does not read it itself).
 */
type ToolEnv = NodeJS.ProcessEnv;

type BackupResult = {
  file: string;
  bytes: number;
  /** Migrations recorded in the backup, oldest first. */
  migrations: string[];
};

type RestoreOptions = {
  /** Replace a database that already holds data (PGlite: the old folder is kept, renamed). */
  force?: boolean;
  env: ToolEnv;
  /** The migrations of this version of Masthead (tests point it elsewhere). */
  migrationsDir?: string;
};

type RestoreResult = {
  /** Migrations recorded in the backup. */
  migrations: string[];
  /** Migrations applied after the restore (the backup was older than this version). */
  applied: string[];
  /** PGlite with force: where the folder that was replaced now is. */
  movedAside?: string;
};

// ─── Backup ──────────────────────────────────────────────────────────────────────────────────

/** Write a backup of the database to `file`, which must not exist yet. */
export async function backupDatabase(
  config: DatabaseConfig,
  file: string,
  options: { env: ToolEnv },
): Promise<BackupResult> {
  const target = path.resolve(file);
  if (fsSync.existsSync(target)) throw new BackupError(`${target} already exists: backups never overwrite a file.`);
  await fs.mkdir(path.dirname(target), { recursive: true });
  // Written under another name first, so an interrupted backup never looks like a complete one.
  const partial = `${target}.partial`;
  try {
    let migrations: string[];
    if (config.kind === "pglite") {
      migrations = await dumpPglite(config.dir, partial);
    } else {
      const connection = libpqConnection(config.url, options.env);
      await runTool(
        "pg_dump",
        ["--format=custom", `--schema=${config.schema}`, `--file=${partial}`, `--dbname=${connection.dbname}`],
        connection,
      );
      // Reading the migrations back out of the file checks that pg_restore can read it.
      migrations = (await readPostgresBackup(partial, options.env)).migrations;
    }
    await fs.rename(partial, target);
    return { file: target, bytes: (await fs.stat(target)).size, migrations };
  } catch (error) {
    await fs.rm(partial, { force: true });
    throw error;
  }
}

async function dumpPglite(dir: string, out: string): Promise<string[]> {
  if (dir === "memory://") throw new BackupError("PGLITE_DIR is memory://: there is nothing on disk to back up.");
  if (!fsSync.existsSync(path.join(dir, "PG_VERSION")))
    throw new BackupError(`There is no embedded database in ${dir} (PGLITE_DIR) to back up.`);
  // Takes the folder's lock: a running server (or any other process) holding it is a DatabaseInUseError.
  const adapter = await openAdapter({ kind: "pglite", dir });
  try {
    const migrations = await pgliteMigrations(adapter.pglite!);
    const dump = await adapter.pglite!.dumpDataDir("gzip");
    await fs.writeFile(out, Buffer.from(await dump.arrayBuffer()));
    return migrations;
  } finally {
    await adapter.close();
  }
}

// ─── Restore ─────────────────────────────────────────────────────────────────────────────────

/** Restore `file` (made by backupDatabase) into the configured database, then apply pending migrations. */
export async function restoreDatabase(
  config: DatabaseConfig,
  file: string,
  options: RestoreOptions,
): Promise<RestoreResult> {
  const source = path.resolve(file);
  const kind = await backupKind(source);
  if (kind !== config.kind) {
    throw new BackupError(
      kind === "postgresql"
        ? `${source} is a PostgreSQL backup (pg_dump), but the configured database is the embedded PGlite: set DATABASE_URL.`
        : `${source} is a backup of the embedded PGlite database, but the configured database is PostgreSQL (DATABASE_URL).`,
    );
  }
  const known = new Set(
    (await listMigrations(options.migrationsDir ?? MIGRATIONS_DIR)).migrationDirectories.map((m) => m.path),
  );
  return config.kind === "pglite"
    ? restorePglite(config.dir, source, known, options)
    : restorePostgres(config, source, known, options);
}

async function restorePglite(
  dir: string,
  source: string,
  known: Set<string>,
  options: RestoreOptions,
): Promise<RestoreResult> {
  if (dir === "memory://") throw new BackupError("PGLITE_DIR is memory://: set it to the folder to restore into.");
  await fs.mkdir(path.dirname(dir), { recursive: true });
  const release = lockPgliteDir(dir); // the server (or anything else) holding the folder stops us here
  const staging = `${dir}.restoring`;
  try {
    const occupied = fsSync.existsSync(dir) && (await fs.readdir(dir)).length > 0;
    if (occupied && !options.force) {
      throw new BackupError(
        `${dir} already holds a database. Restoring replaces it: run again with --force ` +
          `(the current folder is kept, renamed to ${path.basename(dir)}.before-restore-<time>).`,
      );
    }
    await fs.rm(staging, { recursive: true, force: true }); // left by an interrupted restore
    let database;
    try {
      database = await openDatabase(
        { kind: "pglite", dir: staging },
        { pgliteSnapshot: new Blob([await fs.readFile(source)]) },
      );
    } catch (error) {
      throw new BackupError(`${source} could not be loaded as an embedded database: ${String(error)}`);
    }
    let migrations: string[];
    let applied: string[];
    try {
      migrations = await pgliteMigrations(database.adapter.pglite!);
      refuseNewerBackup(migrations, known);
      applied = await applyMigrations(database.adapter, options.migrationsDir);
    } finally {
      await database.close();
    }
    let movedAside: string | undefined;
    if (occupied) {
      movedAside = `${dir}.before-restore-${new Date().toISOString().replace(/[:.]/g, "-")}`;
      await fs.rename(dir, movedAside);
    } else {
      await fs.rm(dir, { recursive: true, force: true }); // an empty folder
    }
    await fs.rename(staging, dir);
    return { migrations, applied, movedAside };
  } catch (error) {
    await fs.rm(staging, { recursive: true, force: true });
    throw error;
  } finally {
    release();
  }
}

async function restorePostgres(
  config: Extract<DatabaseConfig, { kind: "postgresql" }>,
  source: string,
  known: Set<string>,
  options: RestoreOptions,
): Promise<RestoreResult> {
  const backup = await readPostgresBackup(source, options.env);
  if (backup.schema !== config.schema) {
    throw new BackupError(
      `${source} is a backup of the schema "${backup.schema}", but the configured schema is "${config.schema}" ` +
        `(DATABASE_SCHEMA). pg_restore recreates a schema under its own name: set DATABASE_SCHEMA=${backup.schema} ` +
        "(pointing DATABASE_URL at a scratch database if that schema must not be replaced).",
    );
  }
  refuseNewerBackup(backup.migrations, known);

  const target = await inspectPostgresSchema(config);
  const backupSet = new Set(backup.migrations);
  const newer = target.migrations.filter((name) => !backupSet.has(name));
  if (newer.length > 0) {
    throw new BackupError(
      `${describeDatabase(config)} has migrations the backup does not (${newer.join(", ")}): it is newer than the ` +
        "backup, and restoring over it would leave the newer tables behind. Restore into an empty schema: drop it " +
        `first (DROP SCHEMA "${config.schema}" CASCADE), then run the restore again.`,
    );
  }
  const backupTables = new Set(backup.tables);
  const extra = target.tables.filter((table) => !backupTables.has(table));
  if (extra.length > 0) {
    throw new BackupError(
      `${describeDatabase(config)} holds tables the backup does not (${extra.join(", ")}), which would stop ` +
        "the restore from replacing the schema (a migration that failed half-way leaves such tables). Restore " +
        `into an empty schema: drop it first (DROP SCHEMA "${config.schema}" CASCADE), then run the restore again.`,
    );
  }
  if (target.tables.length > 0 && !options.force) {
    throw new BackupError(
      `${describeDatabase(config)} already holds ${target.tables.length} tables. Restoring replaces them with the ` +
        "backup's: run again with --force.",
    );
  }

  const connection = libpqConnection(config.url, options.env);
  await runTool(
    "pg_restore",
    [
      "--clean",
      "--if-exists",
      "--no-owner",
      "--single-transaction",
      "--exit-on-error",
      `--dbname=${connection.dbname}`,
      source,
    ],
    connection,
  );

  const adapter = await openAdapter(config);
  try {
    const applied = await applyMigrations(adapter, options.migrationsDir);
    return { migrations: backup.migrations, applied };
  } finally {
    await adapter.close();
  }
}

function refuseNewerBackup(migrations: string[], known: Set<string>) {
  const unknown = migrations.filter((name) => !known.has(name));
  if (unknown.length > 0) {
    throw new BackupError(
      `The backup was taken by a newer version of Masthead: it holds migrations this version does not have ` +
        `(${unknown.join(", ")}). Restore it with that version or a later one.`,
    );
  }
}

// ─── Reading backups and databases ───────────────────────────────────────────────────────────

/** pg_dump's custom format starts with "PGDMP"; PGlite's dump is a gzipped tarball. */
async function backupKind(file: string): Promise<DatabaseConfig["kind"]> {
  let head: Buffer;
  try {
    const handle = await fs.open(file, "r");
    try {
      head = Buffer.alloc(5);
      await handle.read(head, 0, 5, 0);
    } finally {
      await handle.close();
    }
  } catch (error) {
    throw new BackupError(`Cannot read ${file}: ${(error as Error).message}`);
  }
  if (head.toString("latin1") === "PGDMP") return "postgresql";
  if (head[0] === 0x1f && head[1] === 0x8b) return "pglite";
  throw new BackupError(`${file} is not a backup made by npm run db:backup.`);
}

/** The schema a pg_dump archive holds, its tables and the migrations recorded in it, read with pg_restore. */
async function readPostgresBackup(
  file: string,
  env: ToolEnv,
): Promise<{ schema: string; tables: string[]; migrations: string[] }> {
  const script = await runTool("pg_restore", ["--data-only", "--table=_prisma_migrations", "--file=-", file], { env });
  const lines = script.split("\n");
  const start = lines.findIndex((line) => /^COPY \S+\._prisma_migrations \(.*\) FROM stdin;$/.test(line));
  if (start < 0)
    throw new BackupError(`${file} is not a backup of a Masthead database (it has no _prisma_migrations).`);
  const header = /^COPY (\S+)\._prisma_migrations \((.*)\) FROM stdin;$/.exec(lines[start]!)!;
  const schema = header[1]!.replace(/^"(.*)"$/, "$1");
  const columns = header[2]!.split(", ");
  const at = (name: string) => columns.indexOf(name);
  const migrations: string[] = [];
  for (const line of lines.slice(start + 1)) {
    if (line === "\\.") break;
    const values = line.split("\t");
    // Only migrations that finished and were not rolled back, as the engine counts them.
    if (values[at("finished_at")] !== "\\N" && values[at("rolled_back_at")] === "\\N")
      migrations.push(values[at("migration_name")]!);
  }
  // The archive's table of contents: "<id>; <oid> <oid> TABLE <schema> <name> <owner>".
  const contents = await runTool("pg_restore", ["--list", file], { env });
  const tables = [...contents.matchAll(/^\d+; \d+ \d+ TABLE (\S+) (\S+) /gm)]
    .filter((match) => match[1] === schema)
    .map((match) => match[2]!);
  return { schema, tables, migrations: migrations.sort() };
}

async function pgliteMigrations(pglite: PGlite): Promise<string[]> {
  const exists = await pglite.query<{ found: string | null }>(
    `SELECT to_regclass('_prisma_migrations')::text AS found`,
  );
  if (!exists.rows[0]?.found) return [];
  const rows = await pglite.query<{ migration_name: string }>(
    `SELECT migration_name FROM _prisma_migrations
      WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL ORDER BY migration_name`,
  );
  return rows.rows.map((row) => row.migration_name);
}

/** The tables the configured schema holds, and the migrations recorded there (without creating it). */
async function inspectPostgresSchema(config: Extract<DatabaseConfig, { kind: "postgresql" }>) {
  const { Client } = await import("pg");
  const client = new Client({ connectionString: config.url });
  client.on("error", () => undefined);
  await client.connect();
  try {
    const tables = await client.query<{ tablename: string }>(
      "SELECT tablename FROM pg_tables WHERE schemaname = $1 ORDER BY tablename",
      [config.schema],
    );
    const log = await client.query<{ found: string | null }>("SELECT to_regclass($1)::text AS found", [
      `"${config.schema}"._prisma_migrations`,
    ]);
    const migrations = log.rows[0]?.found
      ? (
          await client.query<{ migration_name: string }>(
            `SELECT migration_name FROM "${config.schema}"._prisma_migrations
              WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`,
          )
        ).rows.map((row) => row.migration_name)
      : [];
    return { tables: tables.rows.map((row) => row.tablename), migrations };
  } finally {
    await client.end();
  }
}

// ─── PostgreSQL client tools ─────────────────────────────────────────────────────────────────

/** libpq's connection parameters: query parameters it does not know make it refuse the URI. */
const LIBPQ_PARAMS = new Set([
  "application_name",
  "channel_binding",
  "connect_timeout",
  "gssencmode",
  "keepalives",
  "keepalives_count",
  "keepalives_idle",
  "keepalives_interval",
  "options",
  "sslcert",
  "sslcrl",
  "sslkey",
  "sslmode",
  "sslrootcert",
  "sslsni",
  "target_session_attrs",
  "tcp_user_timeout",
]);

type ToolConnection = { dbname: string; env: ToolEnv; password?: string };

/** The URL for `--dbname` without its password, which goes in PGPASSWORD (not visible in `ps`). */
function libpqConnection(url: string, env: ToolEnv): ToolConnection {
  const parsed = new URL(url);
  const password = parsed.password ? decodeURIComponent(parsed.password) : undefined;
  parsed.password = "";
  if (parsed.searchParams.get("ssl") === "true" && !parsed.searchParams.has("sslmode"))
    parsed.searchParams.set("sslmode", "require");
  for (const key of [...parsed.searchParams.keys()]) if (!LIBPQ_PARAMS.has(key)) parsed.searchParams.delete(key);
  return { dbname: parsed.toString(), env: password ? { ...env, PGPASSWORD: password } : env, password };
}

/** Run a PostgreSQL client tool; its stdout, or a BackupError with its stderr. */
function runTool(command: string, args: string[], connection: { env: ToolEnv; password?: string }): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env: connection.env, stdio: ["ignore", "pipe", "pipe"] });
    const stdout: Buffer[] = [];
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => {
      if (stderr.length < 20_000) stderr += chunk.toString("utf8");
    });
    child.on("error", (error: NodeJS.ErrnoException) => {
      reject(
        error.code === "ENOENT"
          ? new BackupError(
              `${command} was not found. PostgreSQL backups use PostgreSQL's client tools (pg_dump, pg_restore): ` +
                "install them (Debian and Ubuntu: apt-get install postgresql-client), in a major version at least " +
                "the server's, and make sure they are on the PATH.",
            )
          : error,
      );
    });
    child.on("close", (code) => {
      if (code === 0) return resolve(Buffer.concat(stdout).toString("utf8"));
      const message = connection.password ? stderr.split(connection.password).join("[redacted]") : stderr;
      reject(new BackupError(`${command} failed (exit code ${code}):\n${message.trim()}`));
    });
  });
}
