/**
 * Settings → Images and logo → External image hosts: an owner lists the hosts that stories,
 * collections and content imports may use images from; the page keeps them and passes axe at
 * desktop and phone widths.
 */
import { expect, seriousViolations, test } from "../fixtures";

const DESKTOP = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };

test("an owner lists the external image hosts in Settings", async ({ page, users, signIn }) => {
  await page.setViewportSize(DESKTOP);
  await signIn(users.owner);
  await page.goto("/admin/settings");
  const field = page.getByLabel(/External image hosts/);
  await expect(field).toBeVisible();
  const before = await field.inputValue();

  await field.fill("https://Images.Old-Site.example/wp-content/\n*.cdn.old-site.example");
  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(page.getByTestId("settings-saved")).toContainText("Settings saved");
  await page.reload();
  await expect(page.getByLabel(/External image hosts/)).toHaveValue("images.old-site.example\n*.cdn.old-site.example");
  expect(await seriousViolations(page)).toEqual([]);

  // A bad host is refused, named, and nothing changes.
  await page.getByLabel(/External image hosts/).fill("not a host");
  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(page.getByText(/is not a host name/).first()).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);

  await page.setViewportSize(PHONE);
  await page.reload();
  await expect(page.getByLabel(/External image hosts/)).toHaveValue("images.old-site.example\n*.cdn.old-site.example");
  expect(await seriousViolations(page)).toEqual([]);

  await page.getByLabel(/External image hosts/).fill(before);
  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(page.getByTestId("settings-saved")).toBeVisible();
});
