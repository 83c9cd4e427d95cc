/**
 * A page read (findPage, the read of every comment create and list) and a page found or created
 * on first use (findOrCreatePage, a comment create's), each answering what Prisma's typed read of
 * the row answers.
 */
import { describe, expect, it } from "vitest";

import { getDb } from "@/server/db";
import { getPublisher } from "@/server/publishing/publisher";
import { createTestPublisher } from "@/server/testing/publishing-factories";

import { findOrCreatePage, findPage } from "./pages";

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

describe("findOrCreatePage", () => {
  it("answers the page read already, or reads it, every field as Prisma gives it; null read: created", async () => {
    const db = await getDb();
    const account = await createTestPublisher(db);
    const publisher = await getPublisher(db, account.id, { appUrl: "https://news.example.com" });
    const url = `${publisher.siteUrl}/2026/11/ferry`;
    const now = new Date();
    const created = await db.page.create({
      data: {
        accountId: account.id,
        url,
        headline: "The ferry timetable",
        authorIds: ["a-1", "b,2"],
        metadata: { section: "Transport", n: [1, 2] },
      },
    });
    await db.page.create({ data: { accountId: account.id, url: `${url}/other` } });
    const other = await createTestPublisher(db);
    await db.page.create({ data: { accountId: other.id, url } });
    const typed = await db.page.findUniqueOrThrow({ where: { id: created.id } });
    const read = await findPage(db, account.id, url);
    expect(read).toStrictEqual(typed);
    expect(await findOrCreatePage(db, publisher, url, now, read)).toStrictEqual(typed);
    expect(await findOrCreatePage(db, publisher, url, now)).toStrictEqual(typed);
    // Nothing at the URL: the page is made (once) and read back.
    expect(await findPage(db, account.id, `${url}/none`)).toBeNull();
    const made = await findOrCreatePage(db, publisher, `${url}/none`, now, null);
    expect(made).toStrictEqual(await db.page.findUniqueOrThrow({ where: { id: made.id } }));
    expect(await findOrCreatePage(db, publisher, `${url}/none`, now)).toStrictEqual(made);
  });
});
