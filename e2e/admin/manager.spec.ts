/**
 * The generic ResourceManager (components/manager) on two kinds, tags and authors, on a desktop
 * and on a phone: add (in a dialog, checked against the schema before sending), search, edit
 * (Escape closes the dialog and gives the focus back), delete after the confirm dialog (Cancel
 * first keeps the row). On the phone the page never scrolls sideways: tables scroll inside their
 * own region. (Every dashboard page at 390 px: every-page.spec.ts.)
 */
import type { Page, TestInfo } from "@playwright/test";

import { expect, expectNoHorizontalPageScroll, openFilters, pngFile, test } from "../fixtures";

const VIEWPORTS = [
  { name: "desktop", width: 1440, height: 900 },
  { name: "phone", width: 390, height: 844 },
] as const;

async function screenshot(page: Page, testInfo: TestInfo, name: string) {
  await page.screenshot({ path: testInfo.outputPath(`${name}.png`), fullPage: true });
}

for (const viewport of VIEWPORTS) {
  test.describe(`on a ${viewport.name} (${viewport.width} px)`, () => {
    test.use({ viewport: { width: viewport.width, height: viewport.height } });

    test("tags: add, search, rename and delete through the generic manager", async ({
      page,
      signIn,
      users,
    }, testInfo) => {
      const run = `${viewport.name}${Date.now().toString(36)}`;
      await signIn(users.editor);
      await page.goto("/admin/content/tags");
      await expect(page.getByRole("heading", { name: "Tags", level: 1 })).toBeVisible();
      await expectNoHorizontalPageScroll(page);

      // Add: the slug the server will make is previewed; a bad slug is refused before sending.
      await page.getByRole("button", { name: "Add tag" }).click();
      const create = page.getByRole("dialog", { name: "New tag" });
      await expect(create).toBeVisible();
      await create.getByLabel("Tag name").fill(`Harbour ${run}`);
      await expect(create.getByText(`Empty: harbour-${run}.`)).toBeVisible();
      await create.getByLabel("Slug").fill("Not a slug");
      await create.getByRole("button", { name: "Create tag" }).click();
      await expect(create.getByTestId("field-error")).toHaveText(
        "use letters, digits and single hyphens, without accents on Latin letters (e.g. world-news, भारत-समाचार)",
      );
      await expect(create.getByLabel("Slug")).toHaveAttribute("aria-invalid", "true");
      if (viewport.name === "phone") await expectNoHorizontalPageScroll(page);
      await screenshot(page, testInfo, "tags-new-dialog");
      await create.getByLabel("Slug").fill("");
      await create.getByRole("button", { name: "Create tag" }).click();
      await expect(create).toBeHidden();
      const harbour = page.getByTestId("tag-row").filter({ hasText: `Harbour ${run}` });
      await expect(harbour).toContainText(`harbour-${run}`);

      // Search.
      await openFilters(page);
      await page.getByLabel("Search tags").fill(run);
      await expect(page.getByTestId("tag-row")).toHaveCount(1);
      await page.getByLabel("Search tags").fill(`nothing-like-${run}`);
      await expect(page.getByText("No tags match.")).toBeVisible();
      await page.getByLabel("Search tags").fill(run);
      await expect(harbour).toHaveCount(1);
      await expectNoHorizontalPageScroll(page);
      await screenshot(page, testInfo, "tags-list");

      // Rename: Escape closes the dialog unsaved and gives the focus back to the button.
      const rename = harbour.getByRole("button", { name: `Rename Harbour ${run}` });
      await rename.click();
      const edit = page.getByRole("dialog", { name: `Edit tag "Harbour ${run}"` });
      await expect(edit.getByLabel("Tag name")).toHaveValue(`Harbour ${run}`);
      await edit.getByLabel("Tag name").fill("Not saved");
      await page.keyboard.press("Escape");
      await expect(edit).toBeHidden();
      await expect(rename).toBeFocused();
      await expect(harbour).toHaveCount(1);
      await rename.click();
      await expect(edit.getByLabel("Tag name")).toHaveValue(`Harbour ${run}`);
      await edit.getByLabel("Tag name").fill(`Quayside ${run}`);
      await edit.getByLabel("Meta description").fill("Ships and shipping.");
      await edit.getByRole("button", { name: "Save tag" }).click();
      await expect(edit).toBeHidden();
      const quayside = page.getByTestId("tag-row").filter({ hasText: `Quayside ${run}` });
      await expect(quayside).toContainText("Ships and shipping.");
      await expect(quayside).toContainText(`harbour-${run}`);

      // Delete: the confirm dialog has the focus on Cancel, which keeps the tag.
      await quayside.getByRole("button", { name: `Delete Quayside ${run}` }).click();
      const confirm = page.getByRole("dialog", { name: `Delete the tag "Quayside ${run}"?` });
      await expect(confirm).toContainText("No story has it.");
      await expect(confirm.getByRole("button", { name: "Cancel" })).toBeFocused();
      await screenshot(page, testInfo, "tags-confirm-delete");
      await confirm.getByRole("button", { name: "Cancel" }).click();
      await expect(confirm).toBeHidden();
      await expect(quayside).toHaveCount(1);
      await quayside.getByRole("button", { name: `Delete Quayside ${run}` }).click();
      await confirm.getByRole("button", { name: "Delete", exact: true }).click();
      await expect(quayside).toHaveCount(0);
      await expect(page.getByText("No tags match.")).toBeVisible();

      if (viewport.name === "phone") {
        // The table is wider than the phone: it scrolls inside its region, the page does not.
        await page.getByLabel("Search tags").fill("");
        await page.getByRole("button", { name: "Add tag" }).click();
        await create.getByLabel("Tag name").fill(`A rather long tag name for a narrow screen ${run}`);
        await create.getByRole("button", { name: "Create tag" }).click();
        const region = page.getByRole("region", { name: "Tags table" });
        await expect(region).toBeVisible();
        const widths = await region.evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
        expect(widths.scroll).toBeGreaterThan(widths.client);
        await region.evaluate((el) => el.scrollBy({ left: 200 }));
        expect(await region.evaluate((el) => el.scrollLeft)).toBeGreaterThan(0);
        await expectNoHorizontalPageScroll(page);
      }
    });

    test("authors: add with an uploaded avatar, search, edit and delete through the generic manager", async ({
      page,
      signIn,
      users,
    }, testInfo) => {
      const run = `${viewport.name}${Date.now().toString(36)}`;
      const name = `Marina Quay ${run}`;
      await signIn(users.editor);
      await page.goto("/admin/content/authors");
      await expect(page.getByRole("heading", { name: "Authors", level: 1 })).toBeVisible();

      await page.getByRole("button", { name: "Add author" }).click();
      const create = page.getByRole("dialog", { name: "New author" });
      await create.getByLabel("Name", { exact: true }).fill(name);
      await create.getByLabel("E-mail").fill(`marina-${run}@example.com`);
      // The schema's own message, next to its field, before anything is sent.
      await create.getByLabel("Twitter handle").fill("@not a handle");
      await create.getByRole("button", { name: "Create author" }).click();
      await expect(create.getByTestId("field-error")).toHaveText(
        "must be a Twitter/X handle (letters, digits, _; at most 15)",
      );
      await create.getByLabel("Twitter handle").fill("@marinaquay");
      await create.getByLabel("Avatar image").setInputFiles(pngFile("avatar.png"));
      const preview = create.locator('img[src^="/images/"]');
      await expect(preview).toHaveCount(1);
      const src = (await preview.getAttribute("src"))!;
      await create.getByLabel("Bio").fill("Covers the docks.");
      if (viewport.name === "phone") await expectNoHorizontalPageScroll(page);
      await screenshot(page, testInfo, "authors-new-dialog");
      await create.getByRole("button", { name: "Create author" }).click();
      await expect(create).toBeHidden();

      const row = page.getByTestId("author-row").filter({ hasText: name });
      await expect(row).toContainText("@marinaquay");
      await expect(row).toContainText("Covers the docks.");
      await expect(row.locator(`img[src="${src}"]`)).toHaveCount(1);

      await openFilters(page);
      await page.getByLabel("Search authors").fill(run);
      await expect(page.getByTestId("author-row")).toHaveCount(1);
      await expectNoHorizontalPageScroll(page);
      await screenshot(page, testInfo, "authors-list");

      await row.getByRole("button", { name: `Edit ${name}` }).click();
      const edit = page.getByRole("dialog", { name: `Edit author "${name}"` });
      await expect(edit.getByLabel("E-mail")).toHaveValue(`marina-${run}@example.com`);
      await edit.getByLabel("Bio").fill("Covers the docks and the ferries.");
      await edit.getByRole("button", { name: "Remove" }).click();
      await expect(edit.locator('img[src^="/images/"]')).toHaveCount(0);
      await edit.getByRole("button", { name: "Save author" }).click();
      await expect(edit).toBeHidden();
      await expect(row).toContainText("Covers the docks and the ferries.");
      await expect(row.locator("img")).toHaveCount(0);

      await row.getByRole("button", { name: `Delete ${name}` }).click();
      const confirm = page.getByRole("dialog", { name: `Delete the author "${name}"?` });
      await confirm.getByRole("button", { name: "Delete", exact: true }).click();
      await expect(row).toHaveCount(0);
      await expect(page.getByText("No authors match.")).toBeVisible();
    });
  });
}
