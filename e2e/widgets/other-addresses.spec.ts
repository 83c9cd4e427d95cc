/**
 * The widgets at the address a page was opened at: the demo article read by IP (127.0.0.1, not
 * APP_URL's localhost) shows its frames and signs a reader in; a publisher's page on an origin
 * that is not one of the publication's sites gets, on screen, why its frame is not shown.
 */
import { demoAccount, expect, seriousViolations, test } from "../fixtures";
import { commentsPage, MASTHEAD, publisherSite } from "./host-page";

const BY_IP = MASTHEAD.replace("localhost", "127.0.0.1");

test.describe("widgets at other addresses", () => {
  test("the demo article works when opened by IP", async ({ page }) => {
    await page.goto(`${BY_IP}/demo/article`);
    const comments = page.frameLocator("#comments iframe");
    await expect(comments.getByRole("heading", { name: /comments?$/ })).toBeVisible();
    await page.getByRole("button", { name: "Sign in as Ada" }).click();
    await expect(comments.getByText("Signed in as Ada Reader")).toBeVisible();
    await expect(page.locator("[data-masthead-refused]")).toHaveCount(0);
  });

  test("a page whose origin is not one of the publication's sites says why the comments are missing", async ({
    page,
  }) => {
    // The publisher's page is served on 127.0.0.1; its loader and frames come from localhost.
    const site = await publisherSite(5, { "/refused.html": commentsPage(demoAccount().accountId) }, "127.0.0.1");
    try {
      await page.goto(site.origin + "/refused.html");
      const notice = page.locator('[data-masthead-refused="comments"]');
      await expect(notice).toBeVisible({ timeout: 15_000 });
      await expect(notice).toContainText("Comments could not be shown here");
      await expect(notice).toContainText("http://127.0.0.1:");
      expect(await seriousViolations(page)).toEqual([]);
    } finally {
      await site.close();
    }
  });
});
