/**
 * The story editor as a writing tool: a draft saves itself a few seconds after typing stops and
 * says so; reloading shows what was saved; leaving with unsaved changes asks first (links, Back and
 * Forward); the history
 * lists the saves, shows a diff and restores; entities and the SEO preview; a private preview link
 * opens the draft; Publish asks first, naming the story. And two editors on one story: the second
 * sees both texts side by side and keeps theirs without losing the first's.
 */
import {
  expect,
  expectNoHorizontalPageScroll,
  seriousViolations,
  submitSignIn,
  test,
  trpcCall,
  trpcQuery,
} from "../fixtures";

type Story = { id: string; version: number; entities: { id: number; name: string }[] };

test("a draft autosaves, survives a reload, keeps a history with diff and restore, and previews privately", async ({
  page,
  context,
  signIn,
  users,
}) => {
  const run = Date.now().toString(36);
  await signIn(users.editor);
  const headline = `Autosave ${run}`;
  const { story } = await trpcCall<{ story: Story }>(page.request, "stories.create", { headline });
  const entity = await trpcCall<{ id: number; name: string }>(page.request, "organise.entities.create", {
    name: `Ada Lovelace ${run}`,
    type: "person",
  });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/admin/content/stories/${story.id}`);
  const status = page.getByTestId("save-status");
  await expect(status).toHaveText("Saved");
  await expectNoHorizontalPageScroll(page, "the story editor");
  await page.setViewportSize({ width: 1440, height: 900 });

  // Type, stop: "Unsaved changes", then it saves itself.
  await page.getByLabel("Summary").fill(`First summary ${run}`);
  await expect(status).toHaveText("Unsaved changes");
  await expect(status).toHaveText("Saved", { timeout: 15_000 });
  await expect(page.getByTestId("story-version")).toHaveText("Version 2");
  await page.reload();
  await expect(page.getByLabel("Summary")).toHaveValue(`First summary ${run}`);

  // Leaving through a dashboard link with unsaved changes asks first.
  await page.getByLabel("Summary").fill(`Second summary ${run}`);
  await page.getByRole("navigation").getByRole("link", { name: "Content", exact: true }).click();
  const leave = page.getByRole("dialog");
  await expect(leave).toContainText("Leave without saving?");
  await leave.getByRole("button", { name: "Cancel" }).click();
  await expect(page).toHaveURL(new RegExp(`/stories/${story.id}$`));
  await expect(status).toHaveText("Saved", { timeout: 15_000 });

  // An entity from the search-as-you-type picker, saved with the story.
  await page.getByLabel("Find an entity").fill(`lovelace ${run}`);
  await page.getByRole("button", { name: `Add ${entity.name}` }).click();
  await expect(page.getByTestId("entities")).toContainText(entity.name);
  await expect(status).toHaveText("Saved", { timeout: 15_000 });
  const saved = await trpcQuery<Story>(page.request, "stories.get", { id: story.id });
  expect(saved.entities.map((e) => e.id)).toEqual([entity.id]);

  // The SEO preview follows the fields as they are typed.
  const longTitle = `A very long search title that goes on and on well past sixty characters ${run}`;
  await page.getByLabel("Meta title").fill(longTitle);
  await expect(page.getByTestId("seo-preview-title")).toHaveText(/…$/);
  expect((await page.getByTestId("seo-preview-title").textContent())!.length).toBeLessThanOrEqual(60);
  await expect(page.getByText(`${longTitle.length}/60 characters`)).toBeVisible();
  await expect(page.getByTestId("seo-preview-description")).toContainText(`Second summary ${run}`);
  await expect(status).toHaveText("Saved", { timeout: 15_000 });

  // The history: an autosave shows what it changed from the save before it.
  const history = page.getByTestId("revision-list");
  await expect(history.getByRole("button", { name: /Version 1 · Saved/ })).toBeVisible();
  await history
    .getByRole("button", { name: /Autosaved/ })
    .first()
    .click();
  const dialog = page.getByRole("dialog");
  await expect(dialog.getByRole("radio", { name: /What this save changed \(from version 1\)/ })).toBeChecked();
  await expect(dialog.getByTestId("diff-summary").locator("ins")).toContainText(`Second summary ${run}`);
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();

  // The first save: nothing before it; against the current version, everything since; restored on top.
  await history.getByRole("button", { name: /Version 1 · Saved/ }).click();
  await expect(dialog.getByTestId("revision-diff")).toContainText("first recorded save");
  await dialog.getByRole("radio", { name: /From this version to the current one/ }).check();
  await expect(dialog.getByTestId("diff-summary").locator("ins")).toContainText(`Second summary ${run}`);
  await expect(dialog.getByTestId("diff-entities")).toContainText(entity.name);
  expect(await seriousViolations(page)).toEqual([]);
  await dialog.getByRole("button", { name: "Restore this version" }).click();
  await expect(page.getByRole("dialog").filter({ hasText: "Restore version 1?" })).toBeVisible();
  await page
    .getByRole("dialog")
    .filter({ hasText: "Restore version 1?" })
    .getByRole("button", { name: "Restore" })
    .click();
  await expect(page.getByTestId("story-notice")).toContainText("Restored as version");
  await expect(page.getByLabel("Summary")).toHaveValue("");
  await expect(history.getByRole("button", { name: /Restored/ })).toBeVisible();

  // A private preview link opens the saved draft in a new tab.
  await page.getByLabel("Summary").fill(`Preview summary ${run}`);
  await expect(status).toHaveText("Saved", { timeout: 15_000 });
  const [tab] = await Promise.all([
    context.waitForEvent("page"),
    page.getByRole("button", { name: "Preview" }).click(),
  ]);
  await tab.waitForLoadState();
  await expect(tab).toHaveURL(/\/preview\/[0-9a-f-]{36}\.\d+\.[\w-]{43}$/);
  await expect(tab.getByRole("heading", { level: 1 })).toHaveText(headline);
  await expect(tab.getByTestId("preview-banner")).toContainText("draft");
  const ampUrl = await page.getByTestId("preview-links").getByRole("link", { name: "AMP" }).getAttribute("href");
  const amp = await page.request.get(ampUrl!);
  expect(amp.status()).toBe(200);
  expect(await amp.text()).toContain(headline);
  const forged = await page.request.get(`${new URL(tab.url()).pathname.slice(0, -3)}abc`);
  expect(forged.status()).toBe(404);
  await tab.close();

  // Offline: the change waits, and saves itself once the browser is back online.
  await context.setOffline(true);
  await page.getByLabel("Summary").fill(`Offline summary ${run}`);
  await expect(status).toHaveText("Offline — will save when back online");
  await page.waitForTimeout(4_000);
  await expect(status).toHaveText("Offline — will save when back online");
  await context.setOffline(false);
  await expect(status).toHaveText("Saved", { timeout: 15_000 });
  const afterOffline = await trpcQuery<{ summary: string | null }>(page.request, "stories.get", { id: story.id });
  expect(afterOffline.summary).toBe(`Offline summary ${run}`);

  // Publish asks first, naming the story; saying no changes nothing.
  for (const move of ["Submit", "Approve"]) {
    await page.getByRole("button", { name: move, exact: true }).click();
    await expect(page.getByTestId("story-status")).not.toHaveAttribute("data-status", "DRAFT");
  }
  await expect(page.getByTestId("story-status")).toHaveAttribute("data-status", "APPROVED");
  await page.getByRole("button", { name: "Publish", exact: true }).click();
  await expect(page.getByRole("dialog")).toContainText(`Publish "${headline}" now?`);
  await page.getByRole("dialog").getByRole("button", { name: "Cancel", exact: true }).click();
  await expect(page.getByTestId("story-status")).toHaveAttribute("data-status", "APPROVED");
});

test("Back and Forward with unsaved changes ask first; Cancel stays with the text, Leave goes", async ({
  page,
  signIn,
  users,
}) => {
  const run = Date.now().toString(36);
  await signIn(users.editor);
  // A published story: it saves only when asked, so its changes stay unsaved as long as the test needs.
  const headline = `Guarded ${run}`;
  let { story } = await trpcCall<{ story: Story }>(page.request, "stories.create", { headline });
  for (const action of ["submit", "approve", "publish"])
    ({ story } = await trpcCall<{ story: Story }>(page.request, "stories.transition", {
      id: story.id,
      version: story.version,
      action,
    }));
  const list = `/admin/content/stories?q=${encodeURIComponent(headline)}`;
  await page.goto(list);
  await page.getByTestId("story-row").getByRole("link", { name: headline }).click();
  await expect(page).toHaveURL(new RegExp(`/stories/${story.id}$`));

  const summary = page.getByLabel("Summary");
  await summary.fill(`Not saved yet ${run}`);
  await expect(page.getByTestId("save-status")).toHaveText(/^Unsaved changes/);
  const leave = page.getByRole("dialog").filter({ hasText: "Leave without saving?" });

  // Back: asked; Cancel keeps the page and the text.
  await page.goBack({ timeout: 3_000 }).catch(() => null);
  await expect(leave).toBeVisible();
  await leave.getByRole("button", { name: "Cancel" }).click();
  await expect(page).toHaveURL(new RegExp(`/stories/${story.id}$`));
  await expect(summary).toHaveValue(`Not saved yet ${run}`);

  // Back again: Leave goes back to the list.
  await page.goBack({ timeout: 3_000 }).catch(() => null);
  await leave.getByRole("button", { name: "Leave" }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/content/stories\\?q=`));
  await expect(page.getByTestId("story-row")).toContainText(headline);

  // Forward into the editor, change, Forward/Back out of it: asked again.
  await page.goForward();
  await expect(page).toHaveURL(new RegExp(`/stories/${story.id}$`));
  await summary.fill(`Changed again ${run}`);
  await page.goBack({ timeout: 3_000 }).catch(() => null);
  await expect(leave).toBeVisible();
  await leave.getByRole("button", { name: "Cancel" }).click();
  await expect(summary).toHaveValue(`Changed again ${run}`);
  // Saved: Back goes without a question.
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByTestId("save-status")).toHaveText("Saved");
  await page.goBack();
  await expect(page).toHaveURL(new RegExp(`/admin/content/stories\\?q=`));
  await expect(leave).toBeHidden();
});

test("two editors on one story: the second sees both texts side by side and keeps theirs; nothing is lost", async ({
  page,
  browser,
  signIn,
  users,
}) => {
  const run = Date.now().toString(36);
  await signIn(users.editor);
  const { story } = await trpcCall<{ story: Story }>(page.request, "stories.create", { headline: `Shared ${run}` });

  const other = await browser.newContext();
  const bob = await other.newPage();
  await bob.goto("/admin/sign-in");
  await submitSignIn(bob, users.owner);
  await expect(bob).toHaveURL(/\/admin$/);

  await page.goto(`/admin/content/stories/${story.id}`);
  await bob.goto(`/admin/content/stories/${story.id}`);
  await expect(bob.getByTestId("save-status")).toHaveText("Saved");

  // Ada's text saves first.
  await page.getByLabel("Summary").fill(`Ada wrote this ${run}`);
  await expect(page.getByTestId("save-status")).toHaveText("Saved", { timeout: 15_000 });
  await expect(page.getByTestId("story-version")).toHaveText("Version 2");

  // Bob, still on version 1, types; his autosave meets Ada's version.
  await bob.getByLabel("Summary").fill(`Bob wrote that ${run}`);
  const conflict = bob.getByTestId("story-conflict");
  await expect(conflict).toBeVisible({ timeout: 15_000 });
  await expect(bob.getByTestId("save-status")).toContainText("someone else saved");
  const field = conflict.getByTestId("conflict-summary");
  await expect(field.getByTestId("conflict-theirs")).toHaveText(`Ada wrote this ${run}`);
  await expect(field.getByTestId("conflict-mine").locator("ins").first()).toHaveText("Bob");
  await expect(field.getByTestId("conflict-mine").locator("del").first()).toHaveText("Ada");
  // His text is still in the form, and autosave waits.
  await expect(bob.getByLabel("Summary")).toHaveValue(`Bob wrote that ${run}`);
  await bob.waitForTimeout(4_000);
  await expect(conflict).toBeVisible();
  expect(await seriousViolations(bob)).toEqual([]);
  await bob.setViewportSize({ width: 390, height: 844 });
  await expectNoHorizontalPageScroll(bob, "the editor showing a conflict");
  await bob.setViewportSize({ width: 1440, height: 900 });

  await conflict.getByRole("button", { name: "Keep mine" }).click();
  await expect(conflict).toHaveCount(0);
  await expect(bob.getByTestId("save-status")).toHaveText("Saved", { timeout: 15_000 });
  await expect(bob.getByTestId("story-version")).toHaveText("Version 3");

  // Both texts are in the history.
  const revisions = await trpcQuery<{ items: { id: number; version: number }[] }>(page.request, "stories.revisions", {
    storyId: story.id,
  });
  const summaries = await Promise.all(
    revisions.items.map(
      async (r) =>
        (
          await trpcQuery<{ snapshot: { summary: string | null } }>(page.request, "stories.revision", {
            storyId: story.id,
            revisionId: r.id,
          })
        ).snapshot.summary,
    ),
  );
  expect(summaries).toEqual([`Bob wrote that ${run}`, `Ada wrote this ${run}`, null]);
  await other.close();
});
