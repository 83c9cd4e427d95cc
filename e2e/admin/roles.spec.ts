/** What each role sees: navigation items are filtered, and pages refuse with a real 403. */
import { expect, test } from "../fixtures";

test("a moderator sees only their areas and gets a 403 page on the audit log", async ({ page, users, signIn }) => {
  await signIn(users.moderator);

  const nav = page.getByRole("navigation", { name: "Dashboard" });
  await expect(nav.getByRole("link", { name: "Overview", exact: true })).toBeVisible();
  await expect(nav.getByRole("link", { name: "Engagement", exact: true })).toBeVisible();
  for (const hidden of [
    "Audit log",
    "Import",
    "OAuth clients",
    "Users & keys",
    "Settings",
    "Webhooks",
    "Content",
    "Subscriptions",
  ]) {
    await expect(nav.getByRole("link", { name: hidden, exact: true })).toHaveCount(0);
  }
  await expect(page.getByRole("heading", { name: "Your recent activity" })).toBeVisible();

  await nav.getByRole("link", { name: "Moderation", exact: true }).click();
  await expect(page).toHaveURL(/\/admin\/engagement\/moderation$/);
  await expect(page.getByRole("heading", { name: "Moderation queue", level: 1 })).toBeVisible();

  const response = await page.goto("/admin/audit-log");
  expect(response?.status()).toBe(403);
  await expect(page.getByRole("heading", { name: "You don't have access to this page" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Back to the overview" })).toHaveAttribute("href", "/admin");
  // Inside the dashboard's frame: the navigation stays, with what the moderator can open.
  await expect(page.getByTestId("admin-forbidden")).toBeVisible();
  await expect(nav.getByRole("link", { name: "Moderation", exact: true })).toBeVisible();

  // The API behind the page refuses too.
  const api = await page.request.get(
    `/api/trpc/auditLog.list?input=${encodeURIComponent(JSON.stringify({ json: {} }))}`,
  );
  expect(api.status()).toBe(403);
});
