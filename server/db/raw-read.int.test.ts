/**
 * Hot reads past Prisma Client (./raw-read.ts): the same rows as Prisma's raw query path, on both
 * databases, for every column type the hot paths read, and the fallback where no adapter is
 * registered (a transaction).
 */
import { describe, expect, it } from "vitest";

import { getDb } from "./index";
import { readRaw, readsPastPrisma } from "./raw-read";
import { withTransaction } from "./transaction";

const SQL = `
SELECT $1::int AS small, $2::bigint AS big, $3::float8 AS ratio, $4::boolean AS yes, $5::text AS word,
  $6::timestamptz AS at, json_build_object('a', 1, 'b', json_build_array('x', null)) AS doc,
  NULL::json AS nothing, NULL::int AS none, $7::text IS NULL AS was_null
FROM generate_series(1, 2) AS n`;

const ARGS = [7, 9007199254740993n, 0.25, true, "café", new Date("2026-11-24T10:11:12.345Z"), null];

describe("reads past Prisma Client", () => {
  it("answers what Prisma's raw query path answers, through the adapter and in a transaction", async () => {
    const db = await getDb();
    const direct = await readRaw(db, SQL, ARGS);
    const viaPrisma = await db.$queryRawUnsafe<Record<string, unknown>[]>(SQL, ...ARGS);
    const inTransaction = await withTransaction(db, (tx) => {
      expect(readsPastPrisma(tx)).toBe(false);
      return readRaw(tx, SQL, ARGS);
    });
    expect(readsPastPrisma(db)).toBe(true);
    expect(direct).toHaveLength(2);
    expect(direct[0]).toEqual({
      small: 7,
      big: 9007199254740993n,
      ratio: 0.25,
      yes: true,
      word: "café",
      at: new Date("2026-11-24T10:11:12.345Z"),
      doc: { a: 1, b: ["x", null] },
      nothing: null,
      none: null,
      was_null: true,
    });
    expect(viaPrisma).toEqual(direct);
    expect(inTransaction).toEqual(direct);
  });

  it("reports the database's errors", async () => {
    const db = await getDb();
    await expect(readRaw(db, "SELECT 1 FROM no_such_table", [])).rejects.toThrow();
  });
});
