/**
 * Migrations without Prisma's native schema engine (which cannot be downloaded on offline machines).
 *
 * The WebAssembly build of the same engine (`@prisma/schema-engine-wasm`) runs over our driver
 * adapter. It reads the standard `prisma/migrations/<timestamp>_<name>/migration.sql` folders and
 * records them in `_prisma_migrations`, exactly as `prisma migrate deploy` does, so a machine that
 * has the native engine can use the stock CLI on the same folder. See docs/database.md.
 */
import fs from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";

import { bindMigrationAwareSqlAdapterFactory } from "@prisma/driver-adapter-utils";
import type { MigrationList, SchemaEngine } from "@prisma/schema-engine-wasm";
import type * as SchemaEngineWasm from "@prisma/schema-engine-wasm";

import type { OpenedAdapter } from "./adapter";

const require = createRequire(import.meta.url);

const PROJECT_ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), "../..");
/** The schema's folder: the generator and datasource in base.prisma, each area's models in its own file. */
export const SCHEMA_DIR = path.join(PROJECT_ROOT, "prisma/schema");
export const MIGRATIONS_DIR = path.join(PROJECT_ROOT, "prisma/migrations");

const NO_FILTER = { externalTables: [], externalEnums: [] };

type EngineRuntime = typeof SchemaEngineWasm;
let runtime: Promise<EngineRuntime["SchemaEngine"]> | undefined;

/** Instantiate the wasm module once per process (the same steps as Prisma's own loader). */
function loadEngineClass(): Promise<EngineRuntime["SchemaEngine"]> {
  runtime ??= (async () => {
    const bg = (await import("@prisma/schema-engine-wasm/schema_engine_bg")) as unknown as {
      __wbg_set_wasm: (exports: WebAssembly.Exports) => void;
      SchemaEngine: EngineRuntime["SchemaEngine"];
    };
    const wasmPath = path.join(
      path.dirname(require.resolve("@prisma/schema-engine-wasm/schema_engine_bg")),
      "schema_engine_bg.wasm",
    );
    const wasmModule = new WebAssembly.Module(await fs.readFile(wasmPath));
    const instance = new WebAssembly.Instance(wasmModule, {
      "./schema_engine_bg.js": bg as unknown as WebAssembly.ModuleImports,
    });
    bg.__wbg_set_wasm(instance.exports);
    (instance.exports.__wbindgen_start as () => void)();
    return bg.SchemaEngine;
  })();
  return runtime;
}

/** One file of the schema, as the engine reads it. */
type SchemaFile = { path: string; content: string };

/** The schema's files (every `*.prisma` of `dir`), in name order. */
export async function readSchemaFiles(dir = SCHEMA_DIR): Promise<SchemaFile[]> {
  const names = (await fs.readdir(dir)).filter((name) => name.endsWith(".prisma")).sort();
  return Promise.all(
    names.map(async (name) => ({
      path: path.join(dir, name),
      content: await fs.readFile(path.join(dir, name), "utf8"),
    })),
  );
}

/** Engine log lines (the diff script arrives there, not in the result). */
type EngineLog = { lines: string[] };

/** The engine over a migration session of `adapter`'s, ended (and its advisory lock released) after `fn`. */
async function withEngine<T>(
  adapter: Pick<OpenedAdapter, "migrationSession">,
  schema: SchemaFile[] | undefined,
  fn: (engine: SchemaEngine, log: EngineLog) => Promise<T>,
): Promise<T> {
  const SchemaEngineClass = await loadEngineClass();
  const log: EngineLog = { lines: [] };
  const datamodels = schema?.map((file): [string, string] => [file.path, file.content]);
  const session = await adapter.migrationSession();
  try {
    const engine = await SchemaEngineClass.new(
      { datamodels },
      (line: string) => {
        log.lines.push(line);
      },
      bindMigrationAwareSqlAdapterFactory(session.factory),
    );
    try {
      return await fn(engine, log);
    } finally {
      engine.free();
    }
  } finally {
    await session.end();
  }
}

/** Read the migrations folder as the engine wants it. */
export async function listMigrations(dir = MIGRATIONS_DIR): Promise<MigrationList> {
  const entries = await fs.readdir(dir, { withFileTypes: true }).catch(() => []);
  const migrationDirectories = [];
  for (const entry of entries.filter((e) => e.isDirectory()).sort((a, b) => a.name.localeCompare(b.name))) {
    const content = await fs
      .readFile(path.join(dir, entry.name, "migration.sql"), "utf8")
      .then((value) => ({ tag: "ok" as const, value }))
      .catch((error: Error) => ({ tag: "error" as const, value: error.message }));
    migrationDirectories.push({ path: entry.name, migrationFile: { path: "migration.sql", content } });
  }
  const lockPath = path.join(dir, "migration_lock.toml");
  const lockContent = await fs.readFile(lockPath, "utf8").catch(() => null);
  return {
    baseDir: dir,
    lockfile: { path: "migration_lock.toml", content: lockContent },
    shadowDbInitScript: "",
    migrationDirectories,
  };
}

/**
 * Apply every migration that the database has not recorded yet. Applying twice is a no-op.
 * Returns the names applied by this call.
 */
export async function applyMigrations(
  adapter: Pick<OpenedAdapter, "migrationSession">,
  dir = MIGRATIONS_DIR,
): Promise<string[]> {
  const migrationsList = await listMigrations(dir);
  // The engine serialises migrations with a database-wide advisory lock and gives up after 10 s;
  // another process migrating another schema of the same database holds it only while it applies
  // (its migration session ends with the engine).
  for (let attempt = 1; ; attempt++) {
    try {
      return await withEngine(adapter, undefined, async (engine) => {
        const result = await engine.applyMigrations({ migrationsList, filters: NO_FILTER });
        return result.appliedMigrationNames;
      });
    } catch (error) {
      const lockTimeout = (error as { code?: string }).code === "P1002" && String(error).includes("advisory lock");
      if (!lockTimeout || attempt >= 5) throw error;
    }
  }
}

/**
 * SQL that takes the database behind `factory` (which must already hold every committed
 * migration) to the schema in prisma/schema (or `schemaFiles`). Empty when there is no drift.
 */
export async function diffDatabaseToSchema(
  adapter: Pick<OpenedAdapter, "migrationSession">,
  schemaFiles?: SchemaFile[],
): Promise<string> {
  const files = schemaFiles ?? (await readSchemaFiles());
  return withEngine(adapter, files, async (engine, log) => {
    const result = await engine.diff({
      from: { tag: "schemaDatasource", files, configDir: PROJECT_ROOT },
      to: { tag: "schemaDatamodel", files },
      script: true,
      exitCode: null,
      filters: NO_FILTER,
    });
    const script = result.stdout ?? log.lines.join("\n");
    return isEmptyMigration(script) ? "" : script.trim() + "\n";
  });
}

/** The engine writes a comment when there is nothing to do. */
function isEmptyMigration(script: string): boolean {
  return script
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith("--"))
    .every((line) => line === "");
}
