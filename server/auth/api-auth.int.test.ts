import { describe, expect, it } from "vitest";

import { getDb } from "../db";
import { authenticatePublisherJwt } from "./api-auth";

describe("authenticatePublisherJwt: the account id from the path", () => {
  it("takes the id only in canonical decimal digits and within the id range", async () => {
    const db = await getDb();
    const account = await db.account.create({
      data: { slug: `p${Math.random().toString(36).slice(2, 8)}`, name: "Gazette", jwtSecret: "x".repeat(32) },
    });
    const id = account.id;
    expect((await authenticatePublisherJwt(db, String(id), null, { user: "optional" })).account.id).toBe(id);
    const spellings = [
      `0x${id.toString(16)}`,
      `${id}e0`,
      `+${id}`,
      ` ${id}`,
      `${id} `,
      `0${id}`,
      `${id}.0`,
      "2147483648",
      "99999999999999999999",
    ];
    const outcomes: string[] = [];
    for (const spelling of spellings) {
      const outcome = await authenticatePublisherJwt(db, spelling, null, { user: "optional" }).then(
        () => "found",
        (error: unknown) => (error as { code?: string }).code ?? String(error),
      );
      if (outcome !== "NOT_FOUND") outcomes.push(`${JSON.stringify(spelling)}: ${outcome}`);
    }
    expect(outcomes).toEqual([]);
  });
});
