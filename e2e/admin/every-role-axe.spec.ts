/**
 * Each demo role's dashboard, at desktop and phone sizes: signed in as the editor, moderator and
 * revenue user (the owner's is every-page.spec.ts), every page their navigation links to (and
 * the Overview) has no serious or critical axe violation, label-content-name-mismatch included
 * (seriousViolations), with the pages' main dialogs open too. On a phone a list's filters wait behind a "Filters"
 * button, so the list starts within the first screen.
 */
import type { Page } from "@playwright/test";

import { expect, test, type DemoUser } from "../fixtures";
import { navPaths, pageAndDialogViolations, settle } from "./axe-walk";

const VIEWPORTS = [
  { name: "desktop", width: 1440, height: 900 },
  { name: "phone", width: 390, height: 844 },
] as const;

// The owner's walk is every-page.spec.ts (every page, at both sizes, with the same dialogs).
const ROLES = ["editor", "moderator", "revenue"] as const;

async function signInAs(page: Page, user: DemoUser) {
  await page.goto("/admin/sign-in");
  await page.getByLabel("E-mail").fill(user.email);
  await page.getByLabel("Password").fill(user.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/admin$/);
}

test.describe.configure({ mode: "parallel" });

for (const viewport of VIEWPORTS) {
  for (const role of ROLES) {
    test(`${role}: every page in the navigation passes axe on a ${viewport.name} (${viewport.width} px)`, async ({
      browser,
      users,
    }) => {
      test.setTimeout(480_000);
      const context = await browser.newContext({ viewport: { width: viewport.width, height: viewport.height } });
      const page = await context.newPage();
      await signInAs(page, users[role]);
      const problems: string[] = [];
      for (const path of await navPaths(page)) {
        // A page's first visit on a dev server (npm run dev) compiles it: more than the default 30 s on 2 cores.
        await page.goto(path, { timeout: 120_000 });
        await settle(page);
        problems.push(...(await pageAndDialogViolations(page, path)));
      }
      await context.close();
      expect(problems, problems.join("\n")).toEqual([]);
    });
  }
}

test("on a phone the filters wait behind a disclosure and the list starts within the first screen", async ({
  browser,
  users,
}) => {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  await signInAs(page, users.owner);
  for (const [path, list] of [
    ["/admin/engagement/moderation", /comments$/],
    ["/admin/content/stories", /^Stories/],
    ["/admin/audit-log", /^Entries$/],
  ] as const) {
    await page.goto(path);
    await settle(page);
    const disclosure = page.getByTestId("filter-disclosure");
    const button = disclosure.getByRole("button", { name: /^Filters/ });
    await expect(button).toHaveAttribute("aria-expanded", "false");
    const heading = page.getByRole("heading", { name: list }).first();
    const box = (await heading.boundingBox())!;
    expect(box.y, `${path}: the list's heading is ${box.y} px down`).toBeLessThan(844);
    await button.click();
    await expect(button).toHaveAttribute("aria-expanded", "true");
    await expect(disclosure.locator("input, select").first()).toBeVisible();
  }
  await context.close();
});
