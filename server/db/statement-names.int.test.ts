/**
 * Prisma's statements are prepared by name on PostgreSQL (./statement-names.ts): a statement run
 * again on a connection is not parsed again, and PostgreSQL may keep its plan.
 */
import { describe, expect, it } from "vitest";

import { getDb } from "./index";
import { withTransaction } from "./transaction";

describe.runIf(process.env.TEST_DB === "postgres")("named prepared statements", () => {
  it("prepares a statement run more than once on a connection, under one name, and answers the same", async () => {
    const db = await getDb();
    const account = await db.account.create({
      data: { slug: "prepared", name: "Prepared", jwtSecret: "x".repeat(32) },
    });
    await withTransaction(db, async (tx) => {
      // One transaction: one connection, whose prepared statements pg_prepared_statements lists.
      const answers = [];
      for (let run = 0; run < 4; run++) answers.push(await tx.account.findUnique({ where: { id: account.id } }));
      expect(new Set(answers.map((a) => JSON.stringify(a))).size).toBe(1);
      expect(answers[0]).toMatchObject({ slug: "prepared" });
      const prepared = await tx.$queryRaw<{ name: string; statement: string }[]>`
        SELECT name, statement FROM pg_prepared_statements WHERE name LIKE 'mh\\_%'`;
      const mine = prepared.filter((p) => p.statement.includes('"accounts"') && p.statement.includes("WHERE"));
      expect(mine.length).toBeGreaterThanOrEqual(1);
      expect(new Set(prepared.map((p) => p.name)).size).toBe(prepared.length);
    });
  });
});
