/**
 * The media library end to end, at desktop and phone sizes: two images uploaded through a story's
 * hero image upload appear in /admin/content/media with thumbnails; alt text set there is offered
 * when the image is chosen from the library (by keyboard) in another story; "Unused" finds the
 * image nothing uses, and it can be deleted (after a confirmation), while the used one cannot.
 */
import { expect, pngFile, seriousViolations, test, trpcQuery, VIEWPORTS } from "../fixtures";

for (const viewport of VIEWPORTS) {
  test(`media library: upload, thumbnails, alt text, reuse, unused, delete (${viewport.name})`, async ({
    page,
    users,
    signIn,
  }) => {
    await page.setViewportSize({ width: viewport.width, height: viewport.height });
    const run = `${viewport.name}${Date.now().toString(36)}`;
    await signIn(users.owner);

    // 1. Two uploads through a story's hero image: the first is replaced by the second before saving.
    await page.goto("/admin/content/stories/new");
    await page.getByLabel("Headline", { exact: true }).fill(`Media story one ${run}`);
    const heroKey = page.getByLabel("Hero image key");
    await page.getByLabel("Upload hero image").setInputFiles(pngFile(`bus-${run}.png`));
    await expect(heroKey).not.toHaveValue("");
    const busKey = await heroKey.inputValue();
    await page.getByLabel("Upload hero image").setInputFiles(pngFile(`tram-${run}.png`));
    await expect(heroKey).not.toHaveValue(busKey);
    const tramKey = await heroKey.inputValue();
    await page.getByRole("button", { name: "Create draft" }).click();
    await expect(page).toHaveURL(/\/admin\/content\/stories\/[0-9a-f-]{36}$/, { timeout: 60_000 });

    // 2. Both are in the library, with thumbnails (WebP made by the server).
    await page.goto("/admin/content/media");
    await page.getByLabel("Search images").fill(run);
    const grid = page.getByTestId("media-grid");
    await expect(grid.getByRole("button")).toHaveCount(2);
    for (const key of [busKey, tramKey]) {
      const thumb = grid.locator(`button[data-key="${key}"] img`);
      await expect(thumb).toHaveAttribute("data-thumbnail", "webp");
      await expect(thumb).toHaveAttribute("src", new RegExp(`/images/${key}\\.thumb\\.webp$`));
      await expect.poll(() => thumb.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
    }
    await expect(grid.locator(`button[data-key="${busKey}"]`)).toContainText("Unused");
    await expect(grid.locator(`button[data-key="${tramKey}"]`)).not.toContainText("Unused");

    // 3. The used one: where it is used, its alt text set; it cannot be deleted.
    await grid.locator(`button[data-key="${tramKey}"]`).click();
    const details = page.getByTestId("media-details");
    await expect(details.getByTestId("media-used-in")).toContainText(`Media story one ${run}`);
    await expect(details.getByTestId("media-key")).toHaveText(tramKey);
    await expect(details.getByRole("button", { name: "Delete image" })).toBeDisabled();
    await details.getByLabel("Alt text").fill(`A red tram at dawn ${run}`);
    await details.getByRole("button", { name: "Save alt text" }).click();
    await expect(details.getByRole("status")).toHaveText("Saved.");
    expect(await seriousViolations(page)).toEqual([]);

    // 4. Another story chooses it from the library by keyboard; its alt text comes with it.
    await page.goto("/admin/content/stories/new");
    await page.getByLabel("Headline", { exact: true }).fill(`Media story two ${run}`);
    const hero = page.getByRole("region", { name: "Hero image" });
    await hero.getByRole("button", { name: "Choose from library" }).click();
    const dialog = page.getByRole("dialog", { name: "Choose from library" });
    await expect(dialog.getByLabel("Search images")).toBeFocused();
    await page.keyboard.type(`tram-${run}`);
    const tiles = dialog.getByTestId("media-grid").getByRole("button");
    await expect(tiles).toHaveCount(1);
    expect(await seriousViolations(page)).toEqual([]);
    await page.keyboard.press("Tab"); // the "Show" filter
    await page.keyboard.press("Tab"); // the grid's one tab stop
    await expect(tiles.first()).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(dialog).toBeHidden();
    await expect(heroKey).toHaveValue(tramKey);
    await expect(hero.getByTestId("chosen-image-alt")).toContainText(`A red tram at dawn ${run}`);
    // …and is saved with the story as the hero image's alt text, which the editor can change.
    await expect(hero.getByLabel("Hero alt text")).toHaveValue(`A red tram at dawn ${run}`);
    await page.getByRole("button", { name: "Create draft" }).click();
    await expect(page).toHaveURL(/\/admin\/content\/stories\/[0-9a-f-]{36}$/, { timeout: 60_000 });
    const saved = await trpcQuery<{ heroImage: { metadata: { alt?: string } } | null }>(page.request, "stories.get", {
      id: page.url().split("/").pop()!,
    });
    expect(saved.heroImage?.metadata.alt).toBe(`A red tram at dawn ${run}`);

    // 5. Unused finds the bus only; deleting it asks first, then it is gone.
    await page.goto("/admin/content/media");
    await page.getByLabel("Search images").fill(run);
    await page.getByLabel("Show").selectOption("unused");
    await expect(grid.getByRole("button")).toHaveCount(1);
    await grid.locator(`button[data-key="${busKey}"]`).click();
    await expect(details.getByTestId("media-unused")).toBeVisible();
    await details.getByRole("button", { name: "Delete image" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Delete image" }).click();
    await expect(page.getByText("Every image is used somewhere.")).toBeVisible();
    expect((await page.request.get(`/images/${busKey}`)).status()).toBe(404);
    expect((await page.request.get(`/images/${busKey}.thumb.webp`)).status()).toBe(404);

    // The used image now lists both stories.
    await page.getByLabel("Show").selectOption("all");
    await grid.locator(`button[data-key="${tramKey}"]`).click();
    await expect(details.getByTestId("media-used-in").getByRole("link")).toHaveCount(2);
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(viewport.width);
  });
}

test("an author's avatar can be chosen from the library, from inside the author dialog", async ({
  page,
  users,
  signIn,
}) => {
  await signIn(users.owner);
  await page.goto("/admin/content/authors");
  await page.getByRole("button", { name: "Add author" }).click();
  const create = page.getByRole("dialog", { name: "New author" });
  await create.getByRole("button", { name: "Choose from library" }).click();
  const picker = page.getByRole("dialog", { name: "Choose from library" });
  const first = picker.getByTestId("media-grid").getByRole("button").first();
  await expect(first).toBeVisible();
  const key = (await first.getAttribute("data-key"))!;
  await first.focus();
  await page.keyboard.press("Enter");
  await expect(picker).toBeHidden();
  await expect(create).toBeVisible();
  await expect(create.locator(`img[src="/images/${key}"]`)).toHaveCount(1);
});
