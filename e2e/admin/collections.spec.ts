/**
 * An editor organises content: creates a section, an author, a tag and a manual collection, adds
 * two published stories to it with the story picker, reorders them by drag and drop, saves, and
 * finds the order kept after a reload. The two stories are written and published through the
 * dashboard's own tRPC API first, so the spec does not depend on what the demo seed contains.
 */
import type { APIRequestContext } from "@playwright/test";

import { expect, pngFile, test, trpcCall } from "../fixtures";

type Written = { story: { id: string; version: number; status: string } };

async function publishedStory(request: APIRequestContext, headline: string): Promise<string> {
  let { story } = await trpcCall<Written>(request, "stories.create", { headline });
  for (const action of ["submit", "approve", "publish"]) {
    ({ story } = await trpcCall<Written>(request, "stories.transition", {
      id: story.id,
      version: story.version,
      action,
    }));
  }
  expect(story.status.toLowerCase()).toBe("published");
  return story.id;
}

test("an editor creates a section, an author, a tag and a manual collection, and orders its stories", async ({
  page,
  signIn,
  users,
}) => {
  const run = Date.now().toString(36);
  await signIn(users.editor);
  const alpha = `Harbour reopens ${run}`;
  const beta = `Ferry timetable ${run}`;
  await publishedStory(page.request, alpha);
  await publishedStory(page.request, beta);

  // A section: it gets its own automated collection.
  await page.goto("/admin/content/sections");
  await expect(page.getByRole("heading", { name: "Sections", level: 1 })).toBeVisible();
  await page.getByRole("button", { name: "Add section" }).click();
  await page.getByLabel("Name", { exact: true }).fill(`Waterfront ${run}`);
  await page.getByRole("button", { name: "Create section" }).click();
  const section = page.getByTestId("section-row").filter({ hasText: `Waterfront ${run}` });
  await expect(section).toContainText(`section-waterfront-${run}`);

  // A duplicate slug is refused inline, next to the field.
  await page.getByRole("button", { name: "Add section" }).click();
  await page.getByLabel("Name", { exact: true }).fill("Another");
  await page.getByLabel("Slug").fill(`waterfront-${run}`);
  await page.getByRole("button", { name: "Create section" }).click();
  await expect(page.getByTestId("field-error")).toHaveText("is already in use");
  await page.getByRole("button", { name: "Cancel" }).click();

  // An author.
  await page.getByRole("navigation", { name: "Content" }).getByRole("link", { name: "Authors" }).click();
  await page.getByRole("button", { name: "Add author" }).click();
  await page.getByLabel("Name", { exact: true }).fill(`Marina Quay ${run}`);
  await page.getByLabel("Twitter handle").fill("@marinaquay");
  await page.getByLabel("Bio").fill("Covers the docks.");
  // The avatar is uploaded (POST /api/admin/images with the session cookie) and served from /images/<key>.
  await page.getByLabel("Avatar image").setInputFiles(pngFile("avatar.png"));
  // The dialog's own preview (authors in the list behind it may have avatars too).
  const preview = page.getByRole("dialog").locator('img[src^="/images/"]');
  await expect(preview).toHaveCount(1);
  const src = (await preview.getAttribute("src"))!;
  const served = await page.request.get(src);
  expect(served.status()).toBe(200);
  expect(served.headers()["content-type"]).toBe("image/png");
  await page.getByRole("button", { name: "Create author" }).click();
  const author = page.getByTestId("author-row").filter({ hasText: `Marina Quay ${run}` });
  await expect(author).toContainText("@marinaquay");
  await expect(author.locator(`img[src="${src}"]`)).toHaveCount(1);

  // A tag.
  await page.getByRole("navigation", { name: "Content" }).getByRole("link", { name: "Tags" }).click();
  await page.getByRole("button", { name: "Add tag" }).click();
  await page.getByLabel("Tag name").fill(`Shipping ${run}`);
  await page.getByRole("button", { name: "Create tag" }).click();
  await expect(page.getByTestId("tag-row").filter({ hasText: `Shipping ${run}` })).toContainText(`shipping-${run}`);

  // A manual collection with the two stories.
  await page.getByRole("navigation", { name: "Content" }).getByRole("link", { name: "Collections" }).click();
  await page.getByRole("button", { name: "Add collection" }).click();
  await page.getByLabel("Collection name").fill(`Harbour front ${run}`);
  await page.getByRole("button", { name: "Create collection" }).click();
  await expect(page).toHaveURL(/\/admin\/content\/collections\/\d+$/);
  await expect(page.getByRole("heading", { name: "Edit collection" })).toBeVisible();

  await page.getByLabel("Add stories").fill(run);
  await page.getByRole("button", { name: `Add ${alpha}` }).click();
  await page.getByRole("button", { name: `Add ${beta}` }).click();
  const labels = page.getByTestId("collection-item-label");
  await expect(labels).toHaveText([alpha, beta]);

  // Drag the second story above the first.
  const items = page.getByTestId("collection-item");
  await items.nth(1).dragTo(items.nth(0));
  await expect(labels).toHaveText([beta, alpha]);
  await page.getByRole("button", { name: "Save order" }).click();
  await expect(page.getByText("Unsaved changes")).toHaveCount(0);

  await page.reload();
  await expect(page.getByTestId("collection-item-label")).toHaveText([beta, alpha]);

  // The keyboard way: move the first story down, save, and it stays.
  await page.getByRole("button", { name: `Move ${beta} down` }).click();
  await expect(labels).toHaveText([alpha, beta]);
  await page.getByRole("button", { name: "Save order" }).click();
  await expect(page.getByText("Unsaved changes")).toHaveCount(0);
  await page.reload();
  await expect(page.getByTestId("collection-item-label")).toHaveText([alpha, beta]);
});
