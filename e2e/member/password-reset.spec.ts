/**
 * A reader who forgot their password, on the hosted member pages: "Forgot password?" on the login
 * page, the same answer for any e-mail, the link from the mail (read in the dashboard's Outbox)
 * opening the hosted reset page, "Password changed", and the new password signing in. At 1440
 * and 390 px, with axe on every page.
 */
import type { Browser, Page } from "@playwright/test";

import { expect, expectCleanPage, test, VIEWPORTS } from "../fixtures";

/** The newest reset link mailed to `to`, as the owner sees it in the dashboard's Outbox. */
async function mailedResetLink(browser: Browser, signInOwner: (page: Page) => Promise<void>, to: string) {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await signInOwner(page);
    await page.goto("/admin/mail");
    await expect(page.getByText(to).first()).toBeVisible();
    const body = page.getByText(/\/member\/reset-password\?token=/).first();
    const text = (await body.textContent()) ?? "";
    const match = /(https?:\/\/\S+\/member\/reset-password\?token=[A-Za-z0-9_-]+)/.exec(text);
    expect(match, text).not.toBeNull();
    return match![1]!;
  } finally {
    await context.close();
  }
}

for (const size of VIEWPORTS) {
  test(`a reader resets a forgotten password on the hosted pages (${size.name})`, async ({
    browser,
    page,
    request,
    users,
  }) => {
    await page.setViewportSize({ width: size.width, height: size.height });
    const email = `reader.reset.${size.name}.${Date.now()}@example.com`;
    const signup = await request.post("/api/auth/v1/signup", {
      data: { name: "Rita Reader", email, password: "the old password", "dont-login": true },
    });
    expect(signup.status()).toBe(201);

    await page.goto("/member/login?return_to=%2Fstory%2F1");
    await page.getByRole("link", { name: "Forgot password?" }).click();
    await expect(page).toHaveURL(/\/member\/forgot-password\?return_to=%2Fstory%2F1/);
    await expect(page.getByRole("heading", { name: "Forgot your password?", level: 1 })).toBeVisible();
    await expectCleanPage(page, "forgot password");

    // The same answer for an e-mail nobody has.
    await page.getByLabel("E-mail").fill(`nobody.${Date.now()}@example.com`);
    await page.getByRole("button", { name: "Send me a link" }).click();
    const unknownAnswer = await page.getByTestId("member-forgot-password-done").textContent();
    await page.goto("/member/forgot-password");
    await page.getByLabel("E-mail").fill(email);
    await page.getByRole("button", { name: "Send me a link" }).click();
    await expect(page.getByTestId("member-forgot-password-done")).toHaveText(unknownAnswer!);
    await expectCleanPage(page, "forgot password, sent");

    // A made-up token is refused with the reason and a way to ask again.
    await page.goto("/member/reset-password?token=made-up");
    await page.getByLabel("New password", { exact: true }).fill("a brand new password");
    await page.getByLabel("Repeat the new password").fill("a brand new password");
    await page.getByRole("button", { name: "Set password" }).click();
    await expect(page.getByRole("alert").filter({ hasText: "invalid, expired or already used" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Ask for a new link" })).toBeVisible();

    const link = await mailedResetLink(
      browser,
      async (ownerPage) => {
        await ownerPage.goto("/admin/sign-in");
        await ownerPage.getByLabel("E-mail").fill(users.owner.email);
        await ownerPage.getByLabel("Password").fill(users.owner.password);
        await ownerPage.getByRole("button", { name: "Sign in" }).click();
        await expect(ownerPage).toHaveURL(/\/admin$/);
      },
      email,
    );
    const url = new URL(link);
    expect(url.pathname).toBe("/member/reset-password");

    await page.goto(url.pathname + url.search);
    await expect(page.getByRole("heading", { name: "Choose a new password", level: 1 })).toBeVisible();
    await expectCleanPage(page, "reset password");
    await page.getByLabel("New password", { exact: true }).fill("the new password");
    await page.getByLabel("Repeat the new password").fill("not the same");
    await page.getByRole("button", { name: "Set password" }).click();
    await expect(page.getByRole("alert").filter({ hasText: "The two passwords differ." })).toBeVisible();
    await page.getByLabel("Repeat the new password").fill("the new password");
    await page.getByRole("button", { name: "Set password" }).click();
    await expect(page.getByTestId("member-reset-password-done")).toContainText("Password changed");
    await expectCleanPage(page, "reset password, done");

    await page.getByRole("link", { name: "Sign in" }).click();
    await expect(page.getByRole("heading", { name: "Sign in", level: 1 })).toBeVisible();
    await page.getByLabel("E-mail").fill(email);
    await page.getByLabel("Password").fill("the old password");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByRole("alert").filter({ hasText: "The e-mail or password is incorrect." })).toBeVisible();
    await page.getByLabel("Password").fill("the new password");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page).not.toHaveURL(/\/member\/login/);
  });
}
