/**
 * What the dashboard's accessibility walks share (every-page.spec.ts as the owner, every page;
 * every-role-axe.spec.ts as each other role, the pages their navigation links to): a page is
 * ready when its heading shows and nothing is loading; its main dialogs are scanned open too.
 */
import type { Page } from "@playwright/test";

import { expect, seriousViolations } from "../fixtures";

/** Buttons that open a page's main dialog, by page: opened, scanned, closed with Escape. */
const DIALOGS = new Map<string, RegExp[]>([
  ["/admin/users", [/^Add user$/]],
  ["/admin/webhooks", [/^Add webhook$/]],
  ["/admin/subscriptions/subscriptions", [/^Give a subscription$/]],
]);

/** The page has its heading and has finished loading its lists. */
export async function settle(page: Page): Promise<void> {
  await expect(page.getByRole("heading", { level: 1 }).first()).toBeVisible();
  await expect(page.getByRole("status").filter({ hasText: /^Loading/ })).toHaveCount(0);
}

/** axe's serious findings on the settled page at `path`, then on each of its main dialogs opened, a line each. */
export async function pageAndDialogViolations(page: Page, path: string): Promise<string[]> {
  const problems = (await seriousViolations(page)).map((line) => `${path}: ${line}`);
  for (const name of DIALOGS.get(path) ?? []) {
    const opener = page.getByRole("button", { name });
    if (!(await opener.isVisible())) continue;
    await opener.click();
    problems.push(...(await seriousViolations(page)).map((line) => `${path} (${name.source}): ${line}`));
    await page.keyboard.press("Escape");
  }
  return problems;
}

/** The dashboard pages the signed-in user's navigation links to (whatever the width shows of it). */
export async function navPaths(page: Page): Promise<string[]> {
  const hrefs = await page
    .getByRole("navigation", { name: "Dashboard", includeHidden: true })
    .locator("a[href^='/admin']")
    .evaluateAll((links) => links.map((a) => a.getAttribute("href") ?? ""));
  return [...new Set(["/admin", ...hrefs.map((href) => href.split("#")[0]!)])];
}
