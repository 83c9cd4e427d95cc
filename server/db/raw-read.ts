/**
 * Hand-written SQL on the hot paths (an access check's first look at a story and a meter; a
 * comment create's reads and its one-statement write),
 * sent through the driver adapter the client was opened with rather than through Prisma Client's
 * raw query path. That path (the request's building and logging, its interpreter, the result's
 * mapping, and the promises of each step, each paying for the request context's async hooks) cost
 * about 0.1 ms of CPU per statement over the adapter's own 0.04 ms (measured over 4,000 statements,
 * 10 at a time, each inside an AsyncLocalStorage as a request's are, on PostgreSQL; docs/database.md
 * "Reads past Prisma Client").
 *
 * Only outside a transaction, on a client opened by openDatabase (./client.ts registers its
 * adapter): anything else (a transaction client, a test's own client) goes through
 * `$queryRawUnsafe` as before, with the same answer. Columns come back as Prisma's raw queries
 * give them for the types read here: int4 and floats as numbers, int8 as bigint, booleans,
 * text, timestamps as Date, json as parsed JSON; other types as the adapter gives them.
 */
import { ColumnTypeEnum, type ArgType, type SqlDriverAdapter } from "@prisma/driver-adapter-utils";

import type { Prisma } from "../generated/prisma/client";
import type { Db } from "./client";

export type RawArg = string | number | boolean | Date | bigint | null;

const drivers = new WeakMap<object, SqlDriverAdapter>();

/** Reads of `client` may go through `driver` (openDatabase; the same pool or PGlite as the client). */
export function registerRawReads(client: object, driver: SqlDriverAdapter): void {
  drivers.set(client, driver);
}

/** Whether readRaw on `db` goes past Prisma Client (a client openDatabase opened, not a transaction). */
export function readsPastPrisma(db: Db): boolean {
  return drivers.has(db);
}

function argType(value: RawArg): ArgType {
  if (value === null) return { scalarType: "unknown", arity: "scalar" };
  if (typeof value === "string") return { scalarType: "string", arity: "scalar" };
  if (typeof value === "boolean") return { scalarType: "boolean", arity: "scalar" };
  if (typeof value === "bigint") return { scalarType: "bigint", arity: "scalar" };
  if (value instanceof Date) return { scalarType: "datetime", arity: "scalar" };
  return { scalarType: Number.isInteger(value) ? "int" : "float", arity: "scalar" };
}

function argValue(value: RawArg): unknown {
  if (value instanceof Date) return value.toISOString();
  if (typeof value === "bigint") return value.toString();
  return value;
}

function column(type: number, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  switch (type) {
    case ColumnTypeEnum.Int32:
    case ColumnTypeEnum.Float:
    case ColumnTypeEnum.Double:
      return Number(value);
    case ColumnTypeEnum.Int64:
      return BigInt(value as string | number);
    case ColumnTypeEnum.DateTime:
      return new Date(value as string);
    case ColumnTypeEnum.Json:
      return typeof value === "string" ? (JSON.parse(value) as unknown) : value;
    default:
      return value;
  }
}

/** The rows of `sql` (placeholders $1, $2…; casts in the SQL) as objects by column name. */
export async function readRaw<T extends Record<string, unknown>>(db: Db, sql: string, args: RawArg[]): Promise<T[]> {
  const driver = drivers.get(db);
  if (!driver) return db.$queryRawUnsafe<T[]>(sql, ...args);
  const result = await driver.queryRaw({ sql, args: args.map(argValue), argTypes: args.map(argType) });
  const { columnNames, columnTypes } = result;
  return result.rows.map((row) => {
    const out: Record<string, unknown> = {};
    for (let i = 0; i < columnNames.length; i++) out[columnNames[i]!] = column(columnTypes[i]!, row[i]);
    return out as T;
  });
}

/** The rows of a `Prisma.sql` statement (scalar values only), as readRaw reads them. */
export function readSql<T extends Record<string, unknown>>(db: Db, sql: Prisma.Sql): Promise<T[]> {
  return readRaw<T>(db, sql.text, sql.values as RawArg[]);
}

/**
 * A select list giving each column of `alias` the name of its model field (`a.account_id AS
 * "accountId"`), so that readRaw's rows have the model's shape. `columns` names every field of the
 * type, so a field added to the model and not here fails the type check.
 */
export function columnsAs<T>(alias: string, columns: { [K in keyof T]-?: string }): string {
  return Object.entries(columns as Record<string, string>)
    .map(([field, column]) => `${alias}.${column} AS "${field}"`)
    .join(", ");
}

/**
 * columnsAs for a row read beside another one in the same statement (a joined table's): each
 * column named `<prefix><field>`, so the two rows' names never meet; with those names. `unprefixed`
 * gives the row back by its fields.
 */
export function prefixedColumnsAs(
  alias: string,
  prefix: string,
  columns: Record<string, string>,
): { sql: string; names: string[] } {
  const prefixed = Object.fromEntries(Object.entries(columns).map(([field, column]) => [prefix + field, column]));
  return { sql: columnsAs(alias, prefixed), names: Object.keys(prefixed) };
}

/** The fields of `row` named with `prefix` (prefixedColumnsAs), by their own names. */
export function unprefixed(row: Record<string, unknown>, prefix: string): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(row))
    if (name.startsWith(prefix)) fields[name.slice(prefix.length)] = value;
  return fields;
}
