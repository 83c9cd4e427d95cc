/**
 * Newsletters (docs/newsletters.md) at 1440 and 390 px, with axe on every step: the owner creates a
 * newsletter in the dashboard (a field's problem shown under it first); a reader signs up, turns it
 * on on the self-service page (pending: the e-mail is not verified), confirms it from the mail (read
 * in the dashboard's Outbox) on the page that asks, then unsubscribes with one click (an RFC 8058
 * POST to the mail's List-Unsubscribe URL); the self-service page and the subscribers list say so.
 */
import type { Browser } from "@playwright/test";

import { demoUsers, expect, submitSignIn, test, trpcQuery } from "../fixtures";
import { expectCleanPage, SIZES } from "./fixtures";

/** The newest confirmation mail to `to`, as the owner reads it in the Outbox (mail.list). */
async function confirmationMail(browser: Browser, to: string): Promise<string> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.goto("/admin/sign-in");
    await submitSignIn(page, demoUsers().owner);
    await expect(page).toHaveURL(/\/admin$/);
    let text = "";
    await expect(async () => {
      const list = await trpcQuery<{ items: { to: string; kind: string; text: string }[] }>(
        context.request,
        "mail.list",
        {
          limit: 50,
        },
      );
      text = list.items.find((m) => m.to === to && m.kind === "newsletter.confirm")?.text ?? "";
      expect(text).not.toBe("");
    }).toPass({ timeout: 15_000 });
    return text;
  } finally {
    await context.close();
  }
}

for (const size of SIZES) {
  test.describe(`newsletters on a ${size.name}`, () => {
    test.use({ viewport: { width: size.width, height: size.height } });

    test("staff create a newsletter; a reader subscribes, confirms, and leaves with one click", async ({
      browser,
      page,
      request,
      signIn,
      users,
    }) => {
      const stamp = `${size.name}-${Date.now()}`;
      const name = `Morning Briefing ${stamp}`;

      // Staff: the form shows each problem under its field, then creates the newsletter.
      await signIn(users.owner);
      await page.goto("/admin/newsletters");
      await expect(page.getByRole("heading", { name: "Newsletters", level: 1 })).toBeVisible();
      await expectCleanPage(page, "the newsletters");
      await page.getByRole("button", { name: "New newsletter" }).click();
      await page.getByLabel("Name", { exact: true }).fill(name);
      await page.getByLabel("Slug", { exact: true }).fill(`morning-${stamp}`);
      await page.getByLabel("Sender name", { exact: true }).fill("The Gazette");
      await page.getByLabel("Sender e-mail", { exact: true }).fill("not an address");
      await page.getByLabel("Footer", { exact: true }).fill("1 Main Street, Springfield");
      await page.getByRole("button", { name: "Create newsletter" }).click();
      await expect(page.getByText("must be an e-mail address")).toBeVisible();
      await expectCleanPage(page, "the form with a problem");
      await page.getByLabel("Sender e-mail", { exact: true }).fill("news@gazette.example");
      await page.getByRole("button", { name: "Create newsletter" }).click();
      await expect(page).toHaveURL(/\/admin\/newsletters\/\d+$/);
      await expect(page.getByLabel("Name", { exact: true })).toHaveValue(name);
      await expectCleanPage(page, "the newsletter's settings");
      const newsletterUrl = page.url();

      // A reader signs up and turns the newsletter on: pending until the mail is confirmed.
      const email = `reader.news.${stamp}@example.com`;
      const password = "a long enough password";
      const signup = await request.post("/api/auth/v1/signup", {
        data: { name: "Nell Reader", email, password, "dont-login": true },
      });
      expect(signup.status()).toBe(201);
      const reader = await browser.newContext({ viewport: { width: size.width, height: size.height } });
      const readerPage = await reader.newPage();
      await readerPage.goto("/member/login?return_to=%2Fmember%2Fsubscriptions");
      await readerPage.getByLabel("E-mail").fill(email);
      await readerPage.getByLabel("Password").fill(password);
      await readerPage.getByRole("button", { name: "Sign in" }).click();
      await expect(readerPage).toHaveURL(/\/member\/subscriptions$/);
      await expect(readerPage.getByRole("heading", { name: "Newsletters", level: 2 })).toBeVisible();
      const choice = readerPage.getByTestId("newsletter-choice").filter({ hasText: name });
      await choice.getByRole("switch", { name: `Receive ${name}` }).check();
      await expect(choice).toContainText("Waiting for your confirmation");
      await expectCleanPage(readerPage, "the self-service newsletters");

      // The mail: confirm on the page that asks (opening it changes nothing).
      const text = await confirmationMail(browser, email);
      const confirmLink = /(https?:\/\/\S+\/newsletters\/confirm\/\S+)/.exec(text)![1]!;
      const unsubscribeLink = /(https?:\/\/\S+\/api\/newsletters\/unsubscribe\/\S+)/.exec(text)![1]!;
      await readerPage.goto(new URL(confirmLink).pathname);
      await expect(readerPage.getByRole("heading", { name: "Confirm your subscription" })).toBeVisible();
      await expectCleanPage(readerPage, "the confirm page");
      await readerPage.getByRole("button", { name: "Confirm subscription" }).click();
      await expect(readerPage.getByRole("heading", { name: "You are subscribed" })).toBeVisible();
      await readerPage.goto("/member/subscriptions");
      await expect(choice).toContainText("Subscribed");

      // One click from the mail client: a POST without cookies.
      const oneClick = await request.post(new URL(unsubscribeLink).pathname, {
        headers: { "content-type": "application/x-www-form-urlencoded" },
        data: "List-Unsubscribe=One-Click",
      });
      expect(oneClick.status()).toBe(200);
      expect(await oneClick.json()).toMatchObject({ status: "unsubscribed" });
      await readerPage.reload();
      await expect(choice).toContainText("Unsubscribed");
      await expect(choice.getByRole("switch", { name: `Receive ${name}` })).not.toBeChecked();
      await expectCleanPage(readerPage, "the self-service page after unsubscribing");

      // The unsubscribe page, opened from the link, now only says so.
      await readerPage.goto(new URL(unsubscribeLink).pathname);
      await expect(readerPage).toHaveURL(/\/newsletters\/unsubscribe\//);
      await expect(readerPage.getByRole("heading", { name: "You are unsubscribed" })).toBeVisible();
      await expectCleanPage(readerPage, "the unsubscribe page");
      await reader.close();

      // Staff see the reader with the consent and how they left.
      await page.goto(`${newsletterUrl}/subscribers`);
      const row = page.getByTestId("subscriber-row").filter({ hasText: email });
      await expect(row).toContainText("Unsubscribed");
      await expect(row).toContainText("Consent: self-service page");
      await expect(row).toContainText("left by one-click unsubscribe");
      await expectCleanPage(page, "the subscribers");
    });
  });
}
