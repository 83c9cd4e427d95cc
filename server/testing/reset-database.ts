import type { Database } from "../db/client";

/**
 * Empty every table a test touched (rows left, or an id sequence moved) and restart its ids.
 *
 * As a superuser (the local PostgreSQL's `postgres`, and PGlite), one statement deletes the rows
 * with triggers off (`session_replication_role = replica`: no foreign-key checks and none of the
 * schema's own triggers, so emptying comments recounts nothing) and sets the sequences back. A
 * TRUNCATE makes a new file for each table and index it empties: about 18 ms a table on
 * PostgreSQL and 8 ms on PGlite, about half the integration run's time, where deleting a test's
 * few rows costs a fraction of a millisecond. Another role falls back to one TRUNCATE … RESTART
 * IDENTITY CASCADE. Which tables and sequences exist is read once.
 */
export async function resetDatabase(db: Database, how?: "delete" | "truncate"): Promise<void> {
  const schema = db.config.kind === "postgresql" ? db.config.schema : "public";
  plan ??= await readPlan(db, schema);
  if (!plan) return;
  const dirty = await db.prisma.$queryRawUnsafe<{ name: string }[]>(plan.dirtyTables, schema);
  if (dirty.length === 0) return;
  const tables = [...new Set(dirty.map((r) => r.name))];
  const qualified = (name: string) => `${quoteIdent(schema)}.${quoteIdent(name)}`;
  if ((how ?? (plan.superuser ? "delete" : "truncate")) === "truncate") {
    await db.prisma.$executeRawUnsafe(`TRUNCATE ${tables.map(qualified).join(", ")} RESTART IDENTITY CASCADE`);
    return;
  }
  const sequences = tables.flatMap((name) => plan!.sequences.get(name) ?? []);
  await db.prisma.$executeRawUnsafe(
    [
      "DO $reset$ BEGIN",
      "PERFORM set_config('session_replication_role', 'replica', true);",
      ...tables.map((name) => `DELETE FROM ${qualified(name)};`),
      ...sequences.map(({ name, start }) => `PERFORM setval('${quoteLiteral(qualified(name))}', ${start}, false);`),
      "END $reset$",
    ].join("\n"),
  );
}

type Plan = {
  /** One statement naming the tables that hold a row or whose sequence has handed out a value ($1: the schema). */
  dirtyTables: string;
  /** The sequences each table owns (serial and identity columns), with their start values. */
  sequences: Map<string, { name: string; start: string }[]>;
  superuser: boolean;
};
let plan: Plan | null | undefined;

const quoteIdent = (name: string) => `"${name.replaceAll('"', '""')}"`;
const quoteLiteral = (text: string) => text.replaceAll("'", "''");

/** The tables of the test database (`schema`), but the migrations' own. */
export async function tablesOf(db: Database, schema: string): Promise<string[]> {
  const rows = await db.prisma.$queryRawUnsafe<{ name: string }[]>(
    `SELECT tablename AS name FROM pg_tables WHERE schemaname = $1 AND tablename <> '_prisma_migrations'`,
    schema,
  );
  return rows.map((r) => r.name);
}

async function readPlan(db: Database, schema: string): Promise<Plan | null> {
  const tables = await tablesOf(db, schema);
  if (tables.length === 0) return null;
  // A sequence's owner table, through the dependency a serial or identity column records.
  const owned = `FROM pg_sequences s
    JOIN pg_class sc ON sc.relname = s.sequencename
    JOIN pg_namespace n ON n.oid = sc.relnamespace AND n.nspname = s.schemaname
    JOIN pg_depend d ON d.objid = sc.oid AND d.classid = 'pg_class'::regclass AND d.refclassid = 'pg_class'::regclass
    JOIN pg_class t ON t.oid = d.refobjid
    WHERE s.schemaname = $1 AND t.relname <> '_prisma_migrations'`;
  const withRows = tables.map(
    (name) =>
      `SELECT '${quoteLiteral(name)}'::text AS name WHERE EXISTS (SELECT 1 FROM ${quoteIdent(schema)}.${quoteIdent(name)})`,
  );
  const withMovedSequence = `SELECT t.relname::text AS name ${owned} AND s.last_value IS NOT NULL`;
  const sequences = new Map<string, { name: string; start: string }[]>();
  const rows = await db.prisma.$queryRawUnsafe<{ owner: string; name: string; start: string }[]>(
    `SELECT t.relname::text AS owner, s.sequencename::text AS name, s.start_value::text AS start ${owned}`,
    schema,
  );
  for (const row of rows) sequences.set(row.owner, [...(sequences.get(row.owner) ?? []), row]);
  const [role] = await db.prisma.$queryRawUnsafe<{ superuser: boolean }[]>(
    `SELECT current_setting('is_superuser') = 'on' AS superuser`,
  );
  return {
    dirtyTables: [...withRows, withMovedSequence].join(" UNION ALL "),
    sequences,
    superuser: role?.superuser === true,
  };
}
