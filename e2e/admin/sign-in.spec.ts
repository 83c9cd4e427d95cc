/** Signing in and out of the dashboard, and what a signed-out visitor gets. */
import type { Page } from "@playwright/test";

import { expect, openFilters, submitSignIn, test } from "../fixtures";

// Next.js keeps an empty role="alert" route announcer on every page: look for ours by its text.
const signInAlert = (page: Page) => page.getByRole("alert").filter({ hasText: /\S/ });

test("an owner signs in, sees the dashboard, finds the sign-in in the audit log, and signs out", async ({
  page,
  users,
}) => {
  await page.goto("/admin");
  await expect(page).toHaveURL(/\/admin\/sign-in\?callbackUrl=%2Fadmin$/);
  await submitSignIn(page, users.owner);

  await expect(page).toHaveURL(/\/admin$/);
  const header = page.getByRole("banner");
  await expect(header.getByRole("link", { name: "Masthead" })).toBeVisible();
  await expect(header.getByTestId("account-name")).toHaveText(/\S/);
  await expect(header.getByTestId("signed-in-user")).toContainText(users.owner.email);
  await expect(header.getByRole("button", { name: "Sign out" })).toBeVisible();

  const nav = page.getByRole("navigation", { name: "Dashboard" });
  for (const item of [
    "Overview",
    "Content",
    "Engagement",
    "Subscriptions",
    "Webhooks",
    "Audit log",
    "Users & keys",
    "Settings",
  ]) {
    await expect(nav.getByRole("link", { name: item, exact: true })).toBeVisible();
  }
  await expect(nav.getByRole("link", { name: "Stories", exact: true })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Dashboard users" })).toBeVisible();

  await nav.getByRole("link", { name: "Audit log", exact: true }).click();
  await expect(page).toHaveURL(/\/admin\/audit-log$/);
  await expect(page.getByRole("heading", { name: "Audit log", level: 1 })).toBeVisible();
  const newest = page.getByRole("row").nth(1);
  await expect(newest).toContainText("admin.sign_in");
  await expect(newest).toContainText(users.owner.email);

  // The action filter narrows the list to that action.
  await openFilters(page);
  await page.getByLabel("Action").selectOption("admin.sign_in");
  await expect(page.getByRole("row").nth(1)).toContainText("admin.sign_in");
  for (const row of await page.getByRole("row").all()) {
    if ((await row.getByRole("cell").count()) > 0) await expect(row).toContainText("admin.sign_in");
  }

  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/admin\/sign-in$/);
  await expect(page.getByRole("heading", { name: "Sign in to the dashboard" })).toBeVisible();
  await page.goto("/admin");
  await expect(page).toHaveURL(/\/admin\/sign-in\?callbackUrl=%2Fadmin$/);
});

test("a wrong password shows one message and signs nobody in; so does an unknown e-mail", async ({ page, users }) => {
  await page.goto("/admin/sign-in");
  await submitSignIn(page, { email: users.owner.email, password: "not-the-password" });
  await expect(signInAlert(page)).toHaveText("Wrong e-mail or password.");
  await expect(page).toHaveURL(/\/admin\/sign-in$/);

  await page.goto("/admin/sign-in");
  await expect(signInAlert(page)).toHaveCount(0);
  await submitSignIn(page, { email: "nobody@demo.masthead.test", password: "not-the-password" });
  await expect(signInAlert(page)).toHaveText("Wrong e-mail or password.");

  await page.goto("/admin");
  await expect(page).toHaveURL(/\/admin\/sign-in\?callbackUrl=%2Fadmin$/);
});

test("a signed-out visit to the audit log goes to sign-in and comes back after it", async ({ page, users }) => {
  await page.goto("/admin/audit-log");
  await expect(page).toHaveURL(/\/admin\/sign-in\?callbackUrl=%2Fadmin%2Faudit-log$/);
  await submitSignIn(page, users.owner);
  await expect(page).toHaveURL(/\/admin\/audit-log$/);
  await expect(page.getByRole("heading", { name: "Audit log", level: 1 })).toBeVisible();
});

test("signing in comes back to the view it was asked from, query included", async ({ page, users }) => {
  await page.goto("/admin/content/stories?status=draft");
  await expect(page).toHaveURL(/\/admin\/sign-in\?callbackUrl=%2Fadmin%2Fcontent%2Fstories%3Fstatus%3Ddraft$/);
  await submitSignIn(page, users.owner);
  await expect(page).toHaveURL(/\/admin\/content\/stories\?status=draft$/);
});
