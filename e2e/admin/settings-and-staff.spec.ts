/**
 * What an owner does on the first day: the Settings page (site URL, domains, CDN, logo, menu, SEO,
 * language, served by GET /api/v1/config), the Users & keys page (invite someone, change roles,
 * disable, the last owner kept, API key rotation), "Forgot password?" and the reset page, and the
 * dashboard's own 404. Each page at desktop width and at 390 px without horizontal scrolling.
 */
import type { Page } from "@playwright/test";

import { expect, openFilters, seriousViolations, submitSignIn, test } from "../fixtures";

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1440, height: 900 };

async function expectNoHorizontalScroll(page: Page) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, "the page scrolls sideways").toBeLessThanOrEqual(0);
}

/** On the reset page: the new password, twice, and "Set password". */
async function setNewPassword(page: Page, password: string) {
  await page.getByLabel("New password", { exact: true }).fill(password);
  await page.getByLabel("Repeat the new password").fill(password);
  await page.getByRole("button", { name: "Set password" }).click();
}

/** The newest outbox mail's reset link (the Outbox page shows bodies). */
async function lastResetLink(page: Page, to: string): Promise<string> {
  await page.goto("/admin/mail");
  const body = page.getByText(new RegExp(`/admin/reset-password\\?token=`)).first();
  await expect(page.getByText(to).first()).toBeVisible();
  const text = (await body.textContent()) ?? "";
  const match = /(https?:\/\/\S+\/admin\/reset-password\?token=\S+)/.exec(text);
  expect(match, text).not.toBeNull();
  return match![1]!;
}

test("an owner sets the site, domains, images, menu, SEO and language, and config serves them", async ({
  page,
  users,
  signIn,
}) => {
  await page.setViewportSize(DESKTOP);
  await signIn(users.owner);
  await page
    .getByRole("navigation", { name: "Dashboard" })
    .getByRole("link", { name: "Settings", exact: true })
    .click();
  await expect(page.getByRole("heading", { name: "Settings", level: 1 })).toBeVisible();

  const before = (await (await page.request.get("/api/v1/config")).json()) as Record<string, unknown>;
  await page.getByLabel("Public URL of the site").fill("https://www.gazette.example/");
  await page.getByLabel(/Other domains/).fill("gazette.example\nm.gazette.example");
  await page.getByLabel(/Image CDN host/).fill("https://img.gazette.example/");
  await page.getByLabel(/Logo URL/).fill("https://img.gazette.example/logo.png");
  await expect(page.getByLabel("Public URL of the site")).toHaveValue("https://www.gazette.example/");
  await page.getByRole("textbox", { name: "Title (optional)", exact: true }).fill("The Gazette: city news");
  await page.getByRole("textbox", { name: "Description (optional)", exact: true }).fill("News from the city");
  await page.getByRole("textbox", { name: "Keywords (optional)", exact: true }).fill("city, news");
  await page.getByLabel("Language tag").fill("en-GB");
  // The demo has a menu of its own: start a new one.
  await page.getByLabel("The sections (default)").check();
  await page.getByLabel("These items").check();
  await expect(page.getByLabel("Public URL of the site")).toHaveValue("https://www.gazette.example/");
  await page.getByRole("button", { name: "Add menu item" }).click();
  await page.getByLabel("Item 1 title").fill("About us");
  await page.getByLabel("Item 1 kind").selectOption("link");
  await page.getByLabel("Item 1 address").fill("/about");
  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(page.getByTestId("settings-saved")).toContainText("Settings saved");
  await expect(page.getByTestId("site-url-missing")).toHaveCount(0);

  // A bad value is a message next to its field, not a crash.
  await page.getByLabel(/Image CDN host/).fill("img.gazette.example/<bad>");
  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(page.getByTestId("field-error").first()).toContainText("is not a host");
  await page.getByLabel(/Image CDN host/).fill("img.gazette.example");

  const config = (await (await page.request.get("/api/v1/config")).json()) as Record<string, unknown>;
  expect(config).toMatchObject({
    "sketches-host": "https://www.gazette.example",
    "cdn-image": "img.gazette.example",
    language: { "ietf-code": "en-GB" },
    "publisher-settings": { "publisher-logo": { url: "https://img.gazette.example/logo.png" } },
  });
  expect((config.layout as { menu: unknown[] }).menu).toEqual([
    expect.objectContaining({ title: "About us", url: "https://www.gazette.example/about" }),
  ]);
  expect(config["updated-at"]).not.toEqual(before["updated-at"]);

  // A published story's "view" link now leads to the site: <site>/<slug>.
  const listed = await page.request.get(
    `/api/trpc/stories.list?input=${encodeURIComponent(JSON.stringify({ json: { status: "PUBLISHED", limit: 1 } }))}`,
  );
  expect(listed.status()).toBe(200);
  const story = ((await listed.json()) as { result: { data: { json: { items: { id: string; slug: string }[] } } } })
    .result.data.json.items[0];
  expect(story, "the demo content has a published story").toBeDefined();
  await page.goto(`/admin/content/stories/${story!.id}`);
  await expect(page.getByTestId("story-view-link")).toHaveAttribute(
    "href",
    `https://www.gazette.example/${story!.slug}`,
  );

  await page.goto("/admin/audit-log");
  // The action filter lists the actions the log holds.
  await expect(page.locator('option[value="settings.update"]')).toHaveCount(1);

  await page.setViewportSize(PHONE);
  await page.goto("/admin/settings");
  await expect(page.getByLabel("Public URL of the site")).toHaveValue("https://www.gazette.example");
  await expectNoHorizontalScroll(page);

  // Back to the sections menu and Masthead's own address, as the other specs expect.
  await page.getByLabel("The sections (default)").check();
  await page.getByLabel("Public URL of the site").fill(String(before["sketches-host"]));
  await page.getByLabel(/Image CDN host/).fill("");
  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(page.getByTestId("settings-saved")).toBeVisible();
  await expect(page.getByTestId("site-url-missing")).toBeVisible();
});

test("the account's time zone sets how every dashboard time reads; the site URL can be emptied", async ({
  page,
  users,
  signIn,
}) => {
  await page.setViewportSize(DESKTOP);
  await signIn(users.owner);
  await page.goto("/admin/settings");
  await page.getByLabel("Time zone").selectOption("Asia/Tokyo");
  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(page.getByTestId("settings-saved")).toBeVisible();

  await page.setViewportSize(PHONE);
  await page.goto("/admin");
  // "22 Nov 2026, 21:00 GMT+9": one format, in the account's zone, with the zone.
  await expect(page.locator("main time").first()).toHaveText(/^\d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2} (JST|GMT\+9)$/);
  await expectNoHorizontalScroll(page);
  // Days are the account's too: the overview's chart and the stories list's date range say whose.
  await expect(page.getByTestId("activity-chart")).toContainText("(days in Asia/Tokyo)");
  await page.goto("/admin/content/stories");
  await openFilters(page);
  await expect(page.getByText("Days in Asia/Tokyo, both included.")).toBeVisible();

  await page.goto("/admin/settings");
  await page.getByLabel("Time zone").selectOption("UTC");
  await page.getByLabel("Public URL of the site").fill("");
  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(page.getByTestId("settings-saved")).toBeVisible();
  await expect(page.getByTestId("site-url-missing")).toBeVisible();
  await page.goto("/admin");
  await expect(page.locator("main time").first()).toHaveText(/ UTC$/);
});

test("an owner invites a user who sets a password, changes roles, disables them; the last owner stays", async ({
  page,
  users,
  signIn,
  browser,
}) => {
  await page.setViewportSize(PHONE);
  await signIn(users.owner);
  await page.goto("/admin/users");
  await expect(page.getByRole("heading", { name: "Users & keys", level: 1 })).toBeVisible();
  await expectNoHorizontalScroll(page);

  const email = `casey.${Date.now()}@demo.masthead.test`;
  await page.getByRole("button", { name: "Add user" }).click();
  // No role is ticked to start with; Contributor and Editor exclude each other.
  for (const role of [/^Owner/, /^Editor \(/, /^Moderator/, /^Revenue/, /^Contributor/])
    await expect(page.getByLabel(role)).not.toBeChecked();
  await page.getByLabel(/^Editor \(/).check();
  await page.getByLabel(/^Contributor/).check();
  await expect(page.getByLabel(/^Editor \(/)).not.toBeChecked();
  await page.getByLabel(/^Editor \(/).check();
  await expect(page.getByLabel(/^Contributor/)).not.toBeChecked();
  await page.getByLabel(/^Editor \(/).uncheck();
  expect(await seriousViolations(page)).toEqual([]);
  await page.getByLabel("Name", { exact: true }).fill("Casey Copy");
  await page.getByLabel("E-mail", { exact: true }).fill(email);
  await page.getByLabel(/^Moderator/).check();
  await page.getByRole("button", { name: "Add and invite" }).click();
  await expect(page.getByTestId("staff-notice")).toContainText("invitation");
  const row = page.getByTestId("staff-row").filter({ hasText: email });
  await expect(row.getByText("Invited")).toBeVisible();
  await expectNoHorizontalScroll(page);

  // The invitation's link opens the dashboard's own page; the new user chooses a password and signs in.
  const link = await lastResetLink(page, email);
  const other = await browser.newContext();
  const guest = await other.newPage();
  await guest.setViewportSize(PHONE);
  await guest.goto(link);
  await expect(guest.getByRole("heading", { name: "Choose your password" })).toBeVisible();
  await setNewPassword(guest, "casey's long password");
  await expect(guest.getByTestId("reset-password-done")).toBeVisible();
  await expectNoHorizontalScroll(guest);
  await guest.getByRole("link", { name: "Sign in" }).click();
  await submitSignIn(guest, { email, password: "casey's long password" });
  await expect(guest).toHaveURL(/\/admin$/);
  // The same link does not work twice.
  await guest.goto(link);
  await setNewPassword(guest, "another long password");
  await expect(guest.getByRole("alert").filter({ hasText: "invalid, expired or already used" })).toBeVisible();

  // Roles: moderator → editor (their session ends).
  await page.goto("/admin/users");
  await page.getByRole("button", { name: "Change roles of Casey Copy" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel(/^Moderator/).uncheck();
  await dialog.getByLabel(/^Editor/).check();
  await dialog.getByRole("button", { name: "Save roles" }).click();
  await expect(page.getByTestId("staff-notice")).toContainText("roles are changed");
  await expect(row.getByText("Editor", { exact: true })).toBeVisible();
  await guest.goto("/admin");
  await expect(guest).toHaveURL(/\/admin\/sign-in/);

  // Disable, with a confirmation; then enable again.
  await page.getByRole("button", { name: "Disable Casey Copy" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Disable" }).click();
  await expect(row.getByText("Disabled")).toBeVisible();
  await page.getByRole("button", { name: "Enable Casey Copy" }).click();
  await expect(row.getByText("Disabled")).toHaveCount(0);

  // The demo owner is the only owner: demoting them is refused with a clear message.
  const ownerRow = page.getByTestId("staff-row").filter({ hasText: users.owner.email });
  await ownerRow.getByRole("button", { name: /Change roles of/ }).click();
  await page
    .getByRole("dialog")
    .getByLabel(/^Owner/)
    .uncheck();
  await page
    .getByRole("dialog")
    .getByLabel(/^Editor/)
    .check();
  await page.getByRole("dialog").getByRole("button", { name: "Save roles" }).click();
  await expect(
    page.getByRole("dialog").getByRole("alert").filter({ hasText: "An account needs an owner" }),
  ).toBeVisible();
  await page.getByRole("dialog").getByRole("button", { name: "Cancel" }).click();
  await ownerRow.getByRole("button", { name: /^Disable/ }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Disable" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "An account needs an owner" })).toBeVisible();
  await other.close();
});

test("API keys show their prefix only; rotating shows the new key once and keeps the old one for 24 h", async ({
  page,
  users,
  signIn,
}) => {
  await page.setViewportSize(DESKTOP);
  await signIn(users.owner);
  await page.goto("/admin/users");
  const rows = page.getByTestId("api-key-row");
  await expect(rows.first()).toBeVisible();
  const before = await rows.count();
  const rotate = page.getByRole("button", { name: /^Rotate key/ }).first();
  await rotate.click();
  await expect(page.getByRole("dialog")).toContainText("24 hours");
  await page.getByRole("dialog").getByRole("button", { name: "Rotate key" }).click();
  const key = (await page.getByTestId("new-key-value").textContent())!.trim();
  expect(key).toMatch(/^mh_(sk|pk)_[0-9A-Za-z]{32}$/);
  await expect(page.getByText(/Rotated: works until/).first()).toBeVisible();
  await expect(rows).toHaveCount(before + 1);
  await page.getByRole("button", { name: "Done" }).click();
  await expect(page.getByTestId("new-key-once")).toHaveCount(0);
  // Never shown again: not on the page, not in the list's API answer.
  await page.reload();
  await expect(page.getByText(key)).toHaveCount(0);
  const listed = await page.request.get(`/api/trpc/staff.apiKeys.list`);
  expect(await listed.text()).not.toContain(key);
  await page.setViewportSize(PHONE);
  await expectNoHorizontalScroll(page);
});

test("forgot password: the same answer for any e-mail, a link for a real user, a dashboard reset page", async ({
  page,
  users,
  signIn,
}) => {
  await page.setViewportSize(PHONE);
  await page.goto("/admin/sign-in");
  await page.getByRole("link", { name: "Forgot password?" }).click();
  await expect(page.getByRole("heading", { name: "Forgot your password?" })).toBeVisible();
  await expectNoHorizontalScroll(page);
  await page.getByLabel("E-mail").fill("nobody-at-all@demo.masthead.test");
  await page.getByRole("button", { name: "Send me a link" }).click();
  const unknownAnswer = await page.getByTestId("forgot-password-done").textContent();

  await page.goto("/admin/forgot-password");
  await page.getByLabel("E-mail").fill(users.editor.email);
  await page.getByRole("button", { name: "Send me a link" }).click();
  await expect(page.getByTestId("forgot-password-done")).toHaveText(unknownAnswer!);

  // The reset page refuses a made-up token with a clear message.
  await page.goto("/admin/reset-password?token=made-up");
  await setNewPassword(page, "a brand new password");
  await expect(page.getByRole("alert").filter({ hasText: "invalid, expired or already used" })).toBeVisible();

  // The owner sees the mail in the Outbox; its link is the dashboard's reset page.
  await page.setViewportSize(DESKTOP);
  await signIn(users.owner);
  const link = await lastResetLink(page, users.editor.email);
  expect(new URL(link).pathname).toBe("/admin/reset-password");
});

test("unknown dashboard pages are a 404 inside the dashboard, with the navigation", async ({ page, users, signIn }) => {
  await signIn(users.owner);
  for (const size of [DESKTOP, PHONE]) {
    await page.setViewportSize(size);
    const response = await page.goto("/admin/no-such-page/at-all");
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "This page does not exist" })).toBeVisible();
    await expect(page.getByTestId("account-name")).toBeVisible();
    await expectNoHorizontalScroll(page);
  }
  const response = await page.goto("/admin/webhooks/00000000-0000-4000-8000-000000000000");
  expect([404, 200]).toContain(response?.status());
  await page.setViewportSize(DESKTOP);
  await page.goto("/admin/nope");
  await expect(page.getByRole("navigation", { name: "Dashboard" })).toBeVisible();
  await page.getByRole("link", { name: "Back to the overview" }).click();
  await expect(page).toHaveURL(/\/admin$/);
});
