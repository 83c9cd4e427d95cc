import { expect, test } from "vitest";

import { getDatabase } from "../db";
import type { Database } from "../db/client";
import { createTestPublisher, insertSection, insertStory } from "./publishing-factories";
import { resetDatabase, tablesOf } from "./reset-database";

test("the reset empties the tables a test wrote to, and ids start again at 1", async () => {
  const database = await getDatabase();
  const { prisma } = database;
  const account = await prisma.account.create({ data: { slug: "a", name: "A", jwtSecret: "s" } });
  await prisma.section.create({ data: { accountId: account.id, name: "News", displayName: "News", slug: "news" } });
  // A table whose only row was deleted: empty, but its id sequence has moved on.
  const gone = await prisma.account.create({ data: { slug: "b", name: "B", jwtSecret: "s" } });
  await prisma.section.deleteMany({});
  await prisma.account.delete({ where: { id: gone.id } });
  await prisma.account.delete({ where: { id: account.id } });

  await resetDatabase(database);

  expect(await prisma.account.count()).toBe(0);
  const again = await prisma.account.create({ data: { slug: "c", name: "C", jwtSecret: "s" } });
  expect(again.id).toBe(1);
  const section = await prisma.section.create({
    data: { accountId: again.id, name: "News", displayName: "News", slug: "news" },
  });
  expect(section.id).toBe(1);
});

test("rows left behind are gone after the reset", async () => {
  const database = await getDatabase();
  const { prisma } = database;
  await prisma.account.create({ data: { slug: "a", name: "A", jwtSecret: "s" } });
  await resetDatabase(database);
  expect(await prisma.account.count()).toBe(0);
});

/** Every table of the test database holding a row, by name. */
async function tablesWithRows(database: Database): Promise<string[]> {
  const schema = database.config.kind === "postgresql" ? database.config.schema : "public";
  const counted = await Promise.all(
    (await tablesOf(database, schema)).map(async (name) => {
      const [row] = await database.prisma.$queryRawUnsafe<{ n: number }[]>(
        `SELECT count(*)::int AS n FROM "${schema}"."${name}"`,
      );
      return row!.n > 0 ? name : null;
    }),
  );
  return counted.filter((name): name is string => name !== null);
}

test.each(["delete", "truncate"] as const)(
  "by %s: rows the schema's triggers wrote (a story's kept form, a page's comment count) go too, and nothing comes back",
  async (how) => {
    const database = await getDatabase();
    const { prisma } = database;
    const account = await createTestPublisher(prisma);
    const section = await insertSection(prisma, account.id);
    await insertStory(prisma, account.id, { sectionIds: [section.id] });
    const reader = await prisma.member.create({
      data: { accountId: account.id, name: "Reader", email: "reader@example.com", passwordHash: "x" },
    });
    const page = await prisma.page.create({ data: { accountId: account.id, url: "https://news.example.com/a" } });
    await prisma.comment.create({
      data: { accountId: account.id, pageId: page.id, authorId: reader.id, body: {}, bodyDigest: "d" },
    });
    expect(await tablesWithRows(database)).toEqual(expect.arrayContaining(["story_wires", "comment_counts"]));

    await resetDatabase(database, how);

    expect(await tablesWithRows(database)).toEqual([]);
    const again = await prisma.account.create({ data: { slug: "c", name: "C", jwtSecret: "s" } });
    expect(again.id).toBe(1);
    expect((await prisma.page.create({ data: { accountId: again.id, url: "https://x.example/" } })).id).toBe(1);
  },
);
