import { expect, test } from "vitest";

import { getDatabase } from "../db";
import { resetDatabase } from "./reset-database";

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
