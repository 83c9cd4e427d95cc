/**
 * A dashboard page that fails on the server (here: the database loses the table that holds
 * dashboard sessions, which the dashboard's frame reads on every page) shows Masthead's error
 * page with a reference, never Next.js's bare "Application error" page or a stack trace; once the
 * database is back, "Try again" shows the page.
 */
import { expect, test } from "@playwright/test";

import { hashPassword } from "../../server/auth/password";
import { submitSignIn } from "../fixtures";
import { openSchema, startBuiltServer, type BuiltServer } from "./built-server";

const SCHEMA = `mh_servererror_${process.pid}`;
const PORT = Number(process.env.E2E_PORT ?? 3210) + 24;

test.setTimeout(180_000);

let database: Awaited<ReturnType<typeof openSchema>>;
test.beforeAll(async () => {
  database = await openSchema(SCHEMA);
});
test.afterAll(async () => {
  await database.drop();
});

test("a page that fails on the server shows the error page with a reference, and recovers", async ({ page }) => {
  const db = database.prisma;
  const account = await db.account.create({ data: { slug: "errors", name: "Errors", jwtSecret: "x".repeat(32) } });
  const owner = { email: "owner@errors.test", password: "a-long-enough-password" };
  await db.adminUser.create({
    data: {
      accountId: account.id,
      email: owner.email,
      name: "Owner",
      roles: ["OWNER"],
      passwordHash: await hashPassword(owner.password),
    },
  });
  let server: BuiltServer | undefined;
  try {
    server = await startBuiltServer({ port: PORT, schema: SCHEMA });
    await page.goto(`${server.url}/admin/sign-in`);
    await submitSignIn(page, owner);
    await expect(page).toHaveURL(/\/admin$/);

    await db.$executeRawUnsafe(`ALTER TABLE "${SCHEMA}"."admin_sessions" RENAME TO "admin_sessions_away"`);
    await page.goto(`${server.url}/admin/content`);
    await expect(page.getByRole("heading", { name: "Something went wrong on our side" })).toBeVisible();
    await expect(page.getByTestId("error-reference")).toContainText(/Error reference \S+/);
    await expect(page.getByText("Application error")).toHaveCount(0);
    expect(await page.content()).not.toMatch(/\n\s+at .*\.(ts|js|mjs):\d+/);

    await db.$executeRawUnsafe(`ALTER TABLE "${SCHEMA}"."admin_sessions_away" RENAME TO "admin_sessions"`);
    await page.getByRole("button", { name: "Try again" }).click();
    await expect(page.getByRole("heading", { name: "Content", level: 1 })).toBeVisible();
  } finally {
    await server?.kill();
  }
});
