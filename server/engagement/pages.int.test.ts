/**
 * A page read past Prisma Client (findPage, the hot read of every comment create and list), and
 * read beside a returning reader's member (pageBeside: a comment create's first statement).
 */
import { describe, expect, it } from "vitest";

import { getDb } from "@/server/db";
import { findOrCreateJwtMember, findOrCreateJwtMemberBeside } from "@/server/members/identities";
import { createTestPublisher } from "@/server/testing/publishing-factories";

import { historyBeside, readHistory } from "./moderation/writing";
import { findPage, pageBeside, readPage } from "./pages";

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

describe("pageBeside", () => {
  it("reads the page with a returning reader, every field as Prisma gives it; null when there is none", async () => {
    const db = await getDb();
    const account = await createTestPublisher(db);
    const now = new Date();
    const user = { id: "reader-7", name: "Ada", email: null, avatarUrl: null, provider: null };
    const url = "https://news.example.com/2026/11/ferry";
    const read = async (pageUrl: string) => {
      const found = await findOrCreateJwtMemberBeside(db, {
        accountId: account.id,
        user,
        now,
        beside: [historyBeside({ accountId: account.id, now }), pageBeside(account.id, pageUrl)],
      });
      return { member: found.member, page: readPage(found.beside), history: readHistory(found.beside) };
    };
    // A reader seen first is created apart: nothing is read beside it.
    expect((await read(url)).page).toBeUndefined();
    expect((await read(url)).page).toBeNull();
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
    const both = await read(url);
    expect(both.page).toStrictEqual(typed);
    expect(both.member).toStrictEqual(await findOrCreateJwtMember(db, { accountId: account.id, user, now }));
    expect(both.history).toEqual({ firstCommentAt: null, publishedComments: 0, ban: null });
    expect((await read(`${url}/none`)).page).toBeNull();
  });
});
