/**
 * The dashboard's frame at 1440 and 390 px: a skip link first in the tab order that lands on the
 * page's content, and a progress bar while a slow page change is on its way.
 */
import { expect, test, VIEWPORTS } from "../fixtures";

for (const viewport of VIEWPORTS) {
  test.describe(`the dashboard's frame on a ${viewport.name}`, () => {
    test.use({ viewport: { width: viewport.width, height: viewport.height } });

    test("a skip link leads to the content, and a slow page change shows its progress", async ({
      page,
      users,
      signIn,
    }) => {
      await signIn(users.owner);
      await page.goto("/admin");
      await page.keyboard.press("Tab");
      const skip = page.getByRole("link", { name: "Skip to content" });
      await expect(skip).toBeFocused();
      await expect(skip).toBeVisible();
      await page.keyboard.press("Enter");
      await expect(page).toHaveURL(/#main$/);

      // The audit log's page takes 1.5 s to come: the bar shows meanwhile, and goes with the page.
      await page.route(/\/admin\/audit-log\?_rsc=/, async (route) => {
        await new Promise((resolve) => setTimeout(resolve, 1_500));
        await route.continue();
      });
      if (viewport.name === "phone") await page.getByRole("button", { name: "Menu" }).click();
      await page
        .getByRole("navigation", { name: "Dashboard" })
        .getByRole("link", { name: "Audit log", exact: true })
        .click();
      await expect(page.getByTestId("page-change-progress")).toBeVisible();
      await expect(page.getByRole("heading", { name: "Audit log", level: 1 })).toBeVisible();
      await expect(page.getByTestId("page-change-progress")).toHaveCount(0);
    });
  });
}
