/** A page read past Prisma Client (findPage, the hot read of every comment create and list). */
import { describe, expect, it } from "vitest";

import { getDb } from "@/server/db";
import { createTestPublisher } from "@/server/testing/publishing-factories";

import { findPage } from "./pages";

describe("findPage", () => {
  it("answers what Prisma's typed read answers, every field, and null for an unknown URL", async () => {
    const db = await getDb();
    const account = await createTestPublisher(db);
    const url = "https://news.example.com/2026/11/harbour";
    const bare = await db.page.create({ data: { accountId: account.id, url } });
    expect(await findPage(db, account.id, url)).toStrictEqual(bare);
    await db.page.update({
      where: { id: bare.id },
      data: {
        headline: "The harbour deal",
        heroImageUrl: "https://cdn.example.com/h.jpg",
        authorIds: ["a-1", 'author "two", with a comma', "{braces}"],
        metadata: { section: "Local", tags: ["x", "y"], n: 3 },
      },
    });
    const typed = await db.page.findUniqueOrThrow({ where: { id: bare.id } });
    expect(await findPage(db, account.id, url)).toStrictEqual(typed);
    expect(await findPage(db, account.id, `${url}/other`)).toBeNull();
  });
});
