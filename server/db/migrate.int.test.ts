import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";

import { describe, expect, it } from "vitest";

import { getDatabase } from ".";
import { openDatabase } from "./client";
import { describeSchema } from "./inspect";
import { applyMigrations, diffDatabaseToSchema, MIGRATIONS_DIR, SCHEMA_PATH } from "./migrate";

const db = await getDatabase();
const onPglite = db.config.kind === "pglite";
const schemaName = db.config.kind === "postgresql" ? db.config.schema : "public";

describe("migrations", () => {
  // The schema engine's introspection runs on PGlite only: @prisma/adapter-pg cannot decode the
  // "char" catalog columns it reads. PostgreSQL is held to the same schema by the catalog test below.
  it.runIf(onPglite)("produce exactly the schema in schema.prisma (no drift)", async () => {
    expect(await diffDatabaseToSchema(db.adapter.factory)).toBe("");
  });

  it.runIf(onPglite)("report drift when schema.prisma has a change no migration holds", async () => {
    const schema = await fs.readFile(SCHEMA_PATH, "utf8");
    const changed = schema.replace("model Account {\n", "model Account {\n  driftProbe String?\n");
    const sql = await diffDatabaseToSchema(db.adapter.factory, changed);
    expect(sql).toMatch(/ALTER TABLE "accounts" ADD COLUMN\s+"driftProbe" TEXT/);
  });

  it("give this database the same catalog as a fresh PGlite migrated from the same folder", async () => {
    const reference = await openDatabase({ kind: "pglite", dir: "memory://" });
    try {
      await applyMigrations(reference.adapter.factory);
      const expected = await describeSchema(reference.prisma, "public");
      const actual = await describeSchema(db.prisma, schemaName);
      expect(expected.length).toBeGreaterThan(20);
      expect(actual).toEqual(expected);
    } finally {
      await reference.close();
    }
  });

  it("applying them again is a no-op", async () => {
    expect(await applyMigrations(db.adapter.factory)).toEqual([]);
  });

  it("apply a new migration folder in order and record it", async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), "mh-migrations-"));
    await fs.cp(MIGRATIONS_DIR, dir, { recursive: true });
    await fs.mkdir(path.join(dir, "99990101000000_probe"));
    await fs.writeFile(path.join(dir, "99990101000000_probe/migration.sql"), 'CREATE TABLE "probe_table" ("id" INTEGER);\n');
    try {
      expect(await applyMigrations(db.adapter.factory, dir)).toEqual(["99990101000000_probe"]);
      const rows = await db.prisma.$queryRawUnsafe<{ migration_name: string }[]>(
        `SELECT migration_name FROM _prisma_migrations ORDER BY started_at`,
      );
      expect(rows.at(-1)?.migration_name).toBe("99990101000000_probe");
    } finally {
      await db.adapter.exec(`DROP TABLE IF EXISTS "probe_table"; DELETE FROM _prisma_migrations WHERE migration_name = '99990101000000_probe'`);
      await fs.rm(dir, { recursive: true, force: true });
    }
  });
});
