/**
 * Backups really restore (server/db/backup.ts, `npm run db:backup` / `db:restore`): rows written
 * before the backup come back, changes made after it are undone, and an old backup is brought up
 * to date by the migrations it lacks. The embedded database runs with TEST_DB=pglite (folders in a
 * temporary directory), PostgreSQL with TEST_DB=postgres (schemas of the test's own, dropped after).
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";

import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";

import { TEST_DATABASE_URL } from "../testing/test-database";
import { DatabaseInUseError } from "./adapter";
import { backupDatabase, BackupError, restoreDatabase } from "./backup";
import { openDatabase } from "./client";
import type { DatabaseConfig } from "./config";
import { applyMigrations, listMigrations, MIGRATIONS_DIR } from "./migrate";

const testDb = inject("testDb");
const env = process.env;

let tmp: string;
let allMigrations: string[];
/** The migrations folder without its latest migration: what an older Masthead had. */
let olderMigrationsDir: string;

beforeAll(async () => {
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), "mh-backup-"));
  allMigrations = (await listMigrations()).migrationDirectories.map((m) => m.path);
  olderMigrationsDir = path.join(tmp, "older-migrations");
  await fs.mkdir(olderMigrationsDir);
  for (const name of await fs.readdir(MIGRATIONS_DIR)) {
    if (name === allMigrations.at(-1)) continue;
    await fs.cp(path.join(MIGRATIONS_DIR, name), path.join(olderMigrationsDir, name), { recursive: true });
  }
});

afterAll(async () => {
  await fs.rm(tmp, { recursive: true, force: true });
});

/**
 * Migrate (from `migrationsDir`) and write accounts: by SQL naming only the columns every schema
 * has, since an older schema may lack a column the client knows.
 */
async function createDatabase(config: DatabaseConfig, slugs: string[], migrationsDir = MIGRATIONS_DIR) {
  const db = await openDatabase(config);
  try {
    await applyMigrations(db.adapter, migrationsDir);
    for (const slug of slugs)
      await db.prisma.$executeRaw`INSERT INTO accounts (slug, name, jwt_secret, updated_at)
        VALUES (${slug}, ${`The ${slug}`}, ${`secret-of-${slug}`}, now())`;
  } finally {
    await db.close();
  }
}

async function readAccounts(config: DatabaseConfig) {
  const db = await openDatabase(config);
  try {
    const accounts = await db.prisma.account.findMany({ orderBy: { id: "asc" }, omit: { jwtSecret: false } });
    return accounts.map((a) => ({ id: a.id, slug: a.slug, name: a.name, jwtSecret: a.jwtSecret }));
  } finally {
    await db.close();
  }
}

const expectedAccounts = [
  { id: 1, slug: "gazette", name: "The gazette", jwtSecret: "secret-of-gazette" },
  { id: 2, slug: "courier", name: "The courier", jwtSecret: "secret-of-courier" },
];

// Each test migrates whole embedded databases from empty (every migration, several times): on 2
// cores shared with the other test steps that took up to 31 s, past the suite's 30 s default.
describe.runIf(testDb.kind === "pglite")("backups of the embedded database (PGlite)", { timeout: 120_000 }, () => {
  const folder = (name: string): DatabaseConfig => ({ kind: "pglite", dir: path.join(tmp, name) });

  it("restore into a new folder with the rows written before the backup", async () => {
    await createDatabase(folder("source"), ["gazette", "courier"]);
    const file = path.join(tmp, "source.tar.gz");
    const backup = await backupDatabase(folder("source"), file, { env });
    expect(backup).toMatchObject({ file, migrations: allMigrations });
    expect(backup.bytes).toBeGreaterThan(1000);

    const restored = await restoreDatabase(folder("copy"), file, { env });
    expect(restored).toEqual({ migrations: allMigrations, applied: [], movedAside: undefined });
    expect(await readAccounts(folder("copy"))).toEqual(expectedAccounts);
    // The staging folder is gone and nothing holds the lock.
    await expect(fs.access(path.join(tmp, "copy.restoring"))).rejects.toThrow();
    await expect(fs.access(path.join(tmp, "copy.lock"))).rejects.toThrow();
  });

  it("never overwrite a backup file, and refuse a folder another process holds", async () => {
    const file = path.join(tmp, "source.tar.gz");
    await expect(backupDatabase(folder("source"), file, { env })).rejects.toThrow(/already exists/);

    // The server's lock: another live process's pid (our parent's) in <dir>.lock.
    await fs.writeFile(path.join(tmp, "source.lock"), String(process.ppid));
    try {
      await expect(backupDatabase(folder("source"), path.join(tmp, "busy.tar.gz"), { env })).rejects.toThrow(
        DatabaseInUseError,
      );
      await expect(restoreDatabase(folder("source"), file, { env, force: true })).rejects.toThrow(DatabaseInUseError);
    } finally {
      await fs.rm(path.join(tmp, "source.lock"));
    }
    await expect(fs.access(path.join(tmp, "busy.tar.gz"))).rejects.toThrow();
    await expect(fs.access(path.join(tmp, "busy.tar.gz.partial"))).rejects.toThrow();
  });

  it("replace an existing database only with force, keeping the old folder aside", async () => {
    const file = path.join(tmp, "source.tar.gz");
    const db = await openDatabase(folder("copy"));
    await db.prisma.account.update({ where: { slug: "gazette" }, data: { name: "Changed after the backup" } });
    await db.prisma.account.delete({ where: { slug: "courier" } });
    await db.close();

    await expect(restoreDatabase(folder("copy"), file, { env })).rejects.toThrow(/already holds a database.*--force/);
    expect((await readAccounts(folder("copy")))[0]!.name).toBe("Changed after the backup");

    const restored = await restoreDatabase(folder("copy"), file, { env, force: true });
    expect(restored.movedAside).toMatch(/copy\.before-restore-/);
    expect(await readAccounts(folder("copy"))).toEqual(expectedAccounts);
    expect(await readAccounts({ kind: "pglite", dir: restored.movedAside! })).toEqual([
      { ...expectedAccounts[0]!, name: "Changed after the backup" },
    ]);
  });

  it("bring an old backup up to date, and refuse one taken by a newer version", async () => {
    await createDatabase(folder("old"), ["gazette"], olderMigrationsDir);
    const file = path.join(tmp, "old.tar.gz");
    expect((await backupDatabase(folder("old"), file, { env })).migrations).toEqual(allMigrations.slice(0, -1));

    const restored = await restoreDatabase(folder("old-restored"), file, { env });
    expect(restored.applied).toEqual([allMigrations.at(-1)]);
    expect((await readAccounts(folder("old-restored"))).map((a) => a.slug)).toEqual(["gazette"]);

    await expect(
      restoreDatabase(folder("newer"), path.join(tmp, "source.tar.gz"), { env, migrationsDir: olderMigrationsDir }),
    ).rejects.toThrow(/newer version of Masthead.*20/);
    await expect(fs.access(path.join(tmp, "newer"))).rejects.toThrow();
  });

  it("refuse a file that is not a PGlite backup", async () => {
    const file = path.join(tmp, "not-a-backup.txt");
    await fs.writeFile(file, "hello");
    await expect(restoreDatabase(folder("nothing"), file, { env })).rejects.toThrow(BackupError);
    await expect(backupDatabase(folder("nothing"), path.join(tmp, "x.tar.gz"), { env })).rejects.toThrow(
      /no embedded database/,
    );
  });
});

// Two tests migrate a schema from empty. PostgreSQL's migrations take a database-wide advisory lock
// (server/db/migrate.ts), which the content bench holds while it migrates its own schema of the same
// database: in a full `npm test` on a loaded machine these two waited past 30 s.
describe.runIf(testDb.kind === "postgres")("backups of PostgreSQL (pg_dump, pg_restore)", { timeout: 120_000 }, () => {
  const suffix = randomBytes(3).toString("hex");
  const schemas = { main: `mh_backup_${suffix}`, old: `mh_backup_old_${suffix}` };
  const inSchema = (schema: string): DatabaseConfig => ({ kind: "postgresql", url: TEST_DATABASE_URL, schema });
  const config = inSchema(schemas.main);

  afterAll(async () => {
    const { Client } = await import("pg");
    const client = new Client({ connectionString: TEST_DATABASE_URL });
    await client.connect();
    for (const schema of Object.values(schemas)) await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await client.end();
  });

  async function sql(statement: string) {
    const db = await openDatabase(config);
    try {
      await db.adapter.exec(statement);
    } finally {
      await db.close();
    }
  }

  it("undo the changes made after the backup", async () => {
    await createDatabase(config, ["gazette", "courier"]);
    const file = path.join(tmp, "pg.dump");
    const backup = await backupDatabase(config, file, { env });
    expect(backup.migrations).toEqual(allMigrations);
    expect((await fs.readFile(file)).subarray(0, 5).toString()).toBe("PGDMP");

    await sql(`UPDATE accounts SET name = 'Changed after the backup' WHERE slug = 'gazette';
               DELETE FROM accounts WHERE slug = 'courier';
               INSERT INTO accounts (slug, name, jwt_secret, updated_at) VALUES ('later', 'Later', 'x', now());`);

    await expect(restoreDatabase(config, file, { env })).rejects.toThrow(/already holds \d+ tables.*--force/);
    const restored = await restoreDatabase(config, file, { env, force: true });
    expect(restored).toEqual({ migrations: allMigrations, applied: [] });
    expect(await readAccounts(config)).toEqual(expectedAccounts);

    // The sequences came back too: the next account gets the next id.
    const db = await openDatabase(config);
    const next = await db.prisma.account.create({ data: { slug: "next", name: "Next", jwtSecret: "x" } });
    await db.prisma.account.delete({ where: { id: next.id } });
    await db.close();
    expect(next.id).toBe(3);
  });

  it("restore into a schema that is gone", async () => {
    await sql(`DROP SCHEMA "${schemas.main}" CASCADE`);
    const restored = await restoreDatabase(config, path.join(tmp, "pg.dump"), { env });
    expect(restored.applied).toEqual([]);
    expect(await readAccounts(config)).toEqual(expectedAccounts);
  });

  it("refuse a database newer than the backup, another schema's backup, a PGlite backup", async () => {
    const file = path.join(tmp, "pg.dump");
    await sql(`INSERT INTO _prisma_migrations (id, checksum, migration_name, finished_at, applied_steps_count)
               VALUES ('future', 'x', '29990101000000_future', now(), 1)`);
    await expect(restoreDatabase(config, file, { env, force: true })).rejects.toThrow(
      /29990101000000_future.*newer than the backup/,
    );
    await sql(`DELETE FROM _prisma_migrations WHERE id = 'future'`);

    // What a migration that failed half-way leaves behind.
    await sql(`CREATE TABLE "probe_half_done" ("id" INTEGER)`);
    await expect(restoreDatabase(config, file, { env, force: true })).rejects.toThrow(
      /tables the backup does not \(probe_half_done\).*DROP SCHEMA/,
    );
    await sql(`DROP TABLE "probe_half_done"`);

    await expect(restoreDatabase(inSchema(schemas.old), file, { env })).rejects.toThrow(
      new RegExp(`backup of the schema "${schemas.main}"`),
    );

    const notPg = path.join(tmp, "pglite-like.tar.gz");
    await fs.writeFile(notPg, Buffer.from([0x1f, 0x8b, 0, 0, 0]));
    await expect(restoreDatabase(config, notPg, { env })).rejects.toThrow(/embedded PGlite.*DATABASE_URL/);
  });

  it("bring an old backup up to date", async () => {
    const old = inSchema(schemas.old);
    await createDatabase(old, ["gazette"], olderMigrationsDir);
    const file = path.join(tmp, "pg-old.dump");
    expect((await backupDatabase(old, file, { env })).migrations).toEqual(allMigrations.slice(0, -1));
    const db = await openDatabase(old);
    await applyMigrations(db.adapter); // the upgrade the backup predates
    await db.close();

    // Newer than the backup: refused even with force.
    await expect(restoreDatabase(old, file, { env, force: true })).rejects.toThrow(/newer than the backup/);
    await sql(`DROP SCHEMA "${schemas.old}" CASCADE`);
    const restored = await restoreDatabase(old, file, { env });
    expect(restored.applied).toEqual([allMigrations.at(-1)]);
    expect((await readAccounts(old)).map((a) => a.slug)).toEqual(["gazette"]);
  });
});

describe("the PostgreSQL client tools", () => {
  it("missing are a clear error", async () => {
    const config: DatabaseConfig = { kind: "postgresql", url: "postgres://u:secret@127.0.0.1:1/db", schema: "public" };
    const error = await backupDatabase(config, path.join(tmp, "no-tools.dump"), {
      env: { ...env, PATH: "/nonexistent" },
    }).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(error).toBeInstanceOf(BackupError);
    expect(error!.message).toMatch(/pg_dump was not found.*postgresql-client/);
    expect(error!.message).not.toContain("secret");
  });
});
