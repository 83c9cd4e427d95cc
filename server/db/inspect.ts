/**
 * A normalised description of a database schema from the catalogs: tables, columns, indexes,
 * constraints and enums, as sorted lines. Two databases migrated from the same folder must give
 * the same lines, whatever the server (PGlite or PostgreSQL) and whatever the schema's name.
 */
import type { Db } from "./client";

export async function describeSchema(db: Db, schema: string): Promise<string[]> {
  const strip = (text: string) => text.replaceAll(`"${schema}".`, "").replaceAll(`${schema}.`, "");
  const columns = await db.$queryRawUnsafe<{ line: string }[]>(
    `SELECT 'column ' || table_name || '.' || column_name || ' ' || udt_name || ' null=' || is_nullable || ' default=' || coalesce(column_default, '') AS line
       FROM information_schema.columns WHERE table_schema = $1`,
    schema,
  );
  const indexes = await db.$queryRawUnsafe<{ line: string }[]>(
    `SELECT 'index ' || indexname || ' ' || indexdef AS line FROM pg_indexes WHERE schemaname = $1`,
    schema,
  );
  const constraints = await db.$queryRawUnsafe<{ line: string }[]>(
    `SELECT 'constraint ' || c.conname || ' ' || pg_get_constraintdef(c.oid) AS line
       FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace
      -- NOT NULL appears in pg_constraint only from PostgreSQL 18 (PGlite); columns carry it already.
      WHERE n.nspname = $1 AND c.contype <> 'n'`,
    schema,
  );
  const enums = await db.$queryRawUnsafe<{ line: string }[]>(
    `SELECT 'enum ' || t.typname || ' ' || string_agg(e.enumlabel, ',' ORDER BY e.enumsortorder) AS line
       FROM pg_type t JOIN pg_enum e ON e.enumtypid = t.oid JOIN pg_namespace n ON n.oid = t.typnamespace
      WHERE n.nspname = $1 GROUP BY t.typname`,
    schema,
  );
  return [...columns, ...indexes, ...constraints, ...enums]
    .map((row) => strip(row.line))
    .filter((line) => !line.includes("_prisma_migrations"))
    .sort();
}
