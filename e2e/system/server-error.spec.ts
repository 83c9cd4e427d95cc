/**
 * A dashboard page whose data fails on the server (here: the database loses the stories table
 * under a running server) says so inside the dashboard, with the reference (the request id) that
 * finds the failure in the server's log, never Next.js's bare error page or a stack trace; once the
 * database is back, "Try again" shows the data.
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

test("data that fails on the server is an error inside the dashboard with a reference, and recovers", async ({
  page,
}) => {
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

    await db.$executeRawUnsafe(`ALTER TABLE "${SCHEMA}"."stories" RENAME TO "stories_away"`);
    await page.goto(`${server.url}/admin/content/stories`);
    await expect(page.getByRole("heading", { name: "Stories", level: 1 })).toBeVisible();
    const failure = page.getByRole("alert").filter({ hasText: "could not be loaded" });
    await expect(failure).toBeVisible();
    await expect(failure.getByTestId("error-reference")).toHaveText(/^Reference [0-9a-f-]{36}$/);
    await expect(page.getByRole("navigation").first()).toBeVisible();
    expect(await page.content()).not.toMatch(/\n\s+at .*\.(ts|js|mjs):\d+|Application error/);

    await db.$executeRawUnsafe(`ALTER TABLE "${SCHEMA}"."stories_away" RENAME TO "stories"`);
    await failure.getByRole("button", { name: "Try again" }).click();
    await expect(page.getByText(/No stories|Showing/).first()).toBeVisible();
    await expect(failure).toHaveCount(0);
  } finally {
    await server?.kill();
  }
});
