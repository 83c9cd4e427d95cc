/**
 * An editor's story from first word to schedule, in one go: formatting, a
 * quote and a gallery written in the editor; the draft saves itself, survives leaving and coming
 * back; a second editor's change meanwhile is kept next to the first editor's text, neither lost;
 * the private preview shows the draft; an earlier revision is restored; the story is scheduled and
 * found again with the list's filters.
 */
import { clickIntoText, expect, pngFile, submitSignIn, test, trpcQuery } from "../fixtures";

type Story = {
  version: number;
  summary: string | null;
  publishAt: string | null;
  cards: { "story-elements": { type: string; text?: string }[] }[];
};

/** A Date as the "Publish at" field takes it: the account's clocks (UTC for the e2e accounts), minutes. */
function localInput(date: Date): string {
  return date.toISOString().slice(0, 16);
}

test("write, autosave, leave and return, keep a colleague's change, preview, restore, schedule, find", async ({
  page,
  browser,
  context,
  signIn,
  users,
}) => {
  test.setTimeout(300_000);
  const run = Date.now().toString(36);
  const word = `kestrel${run}`;
  const headline = `Harbour wall ${run}`;
  await signIn(users.editor);

  // 1. Write: formatting in the rich-text editor, a quote, a gallery of two images.
  await page.goto("/admin/content/stories/new");
  await page.getByLabel("Headline", { exact: true }).fill(headline);
  const text = page.getByLabel("Text 1.1");
  await text.click();
  await page.keyboard.type(`The ${word} nests on the `);
  await page.keyboard.press("ControlOrMeta+b");
  await page.keyboard.type("harbour wall");
  await page.keyboard.press("ControlOrMeta+b");
  await page.keyboard.type(".");
  await page.getByTestId("card").first().getByRole("button", { name: "+ Quote" }).click();
  await page.getByLabel("Quote 1.2", { exact: true }).fill("We were ready for it.");
  await page.getByLabel("Attribution 1.2").fill("The harbour master");
  await page.getByTestId("add-card").getByRole("button", { name: "+ Gallery" }).click();
  const gallery = page.getByTestId("gallery");
  await page.getByLabel("Add image to gallery 2.1").setInputFiles(pngFile("wall.png"));
  await expect(gallery.getByTestId("gallery-image")).toHaveCount(1);
  await page.getByLabel("Add image to gallery 2.1").setInputFiles(pngFile("nest.png"));
  await expect(gallery.getByTestId("gallery-image")).toHaveCount(2);
  await page.getByLabel("Alt text 2.1.1").fill("The harbour wall at dawn");
  await page.getByRole("button", { name: "Create draft" }).click();
  await expect(page).toHaveURL(/\/admin\/content\/stories\/[0-9a-f-]{36}$/, { timeout: 60_000 });
  const id = page.url().split("/").pop()!;
  const status = page.getByTestId("save-status");
  const version = page.getByTestId("story-version");
  await expect(status).toHaveText("Saved");
  await expect(version).toHaveText("Version 1");

  // 2. Autosave: more text, and it saves itself a few seconds after typing stops.
  await clickIntoText(page.getByLabel("Text 1.1"));
  await page.keyboard.press("ControlOrMeta+End");
  await page.keyboard.type(" Chicks are expected in June.");
  await expect(status).toHaveText("Unsaved changes");
  await expect(status).toHaveText("Saved", { timeout: 20_000 });
  await expect(version).toHaveText("Version 2");

  // 3. Leave (nothing unsaved: no question) and come back: the autosaved draft, formatting kept,
  // and opening it changes nothing.
  await page.getByRole("navigation").getByRole("link", { name: "Content", exact: true }).click();
  await expect(page).not.toHaveURL(new RegExp(id));
  await page.goto(`/admin/content/stories/${id}`);
  await expect(page.getByLabel("Text 1.1")).toContainText("Chicks are expected in June.");
  await expect(page.getByLabel("Text 1.1").locator("strong")).toHaveText("harbour wall");
  await expect(page.getByLabel("Quote 1.2", { exact: true })).toHaveValue("We were ready for it.");
  await expect(gallery.getByTestId("gallery-image")).toHaveCount(2);
  await expect(status).toHaveText("Saved");
  await page.waitForTimeout(4_000);
  await expect(version).toHaveText("Version 2");

  // 4. A second editor changes the summary meanwhile; the first editor's next words meet a newer
  // version. Keep mine keeps both: her text and his summary.
  const other = await browser.newContext();
  const colleague = await other.newPage();
  await colleague.goto("/admin/sign-in");
  await submitSignIn(colleague, users.owner);
  await expect(colleague).toHaveURL(/\/admin$/);
  await colleague.goto(`/admin/content/stories/${id}`);
  await expect(colleague.getByTestId("save-status")).toHaveText("Saved");
  await colleague.getByLabel("Summary").fill(`A colleague's summary ${run}`);
  await expect(colleague.getByTestId("save-status")).toHaveText("Saved", { timeout: 20_000 });
  await expect(colleague.getByTestId("story-version")).toHaveText("Version 3");

  await clickIntoText(page.getByLabel("Text 1.1"));
  await page.keyboard.press("ControlOrMeta+End");
  await page.keyboard.type(" The council will protect the site.");
  const conflict = page.getByTestId("story-conflict");
  await expect(conflict).toBeVisible({ timeout: 20_000 });
  await expect(conflict.getByTestId("conflict-cards").getByTestId("conflict-mine")).toContainText(
    "The council will protect the site.",
  );
  await expect(conflict.getByTestId("conflict-summary")).toContainText("changed only by them");
  await expect(page.getByLabel("Text 1.1")).toContainText("The council will protect the site.");
  await conflict.getByRole("button", { name: "Keep mine" }).click();
  await expect(conflict).toHaveCount(0);
  await expect(status).toHaveText("Saved", { timeout: 20_000 });
  await expect(version).toHaveText("Version 4");
  await expect(page.getByLabel("Summary")).toHaveValue(`A colleague's summary ${run}`);
  const merged = await trpcQuery<Story>(page.request, "stories.get", { id });
  expect(merged.summary).toBe(`A colleague's summary ${run}`);
  expect(merged.cards[0]!["story-elements"][0]!.text).toContain("The council will protect the site.");
  await other.close();

  // 5. Preview: the draft as readers will see it, through a private link.
  const [tab] = await Promise.all([
    context.waitForEvent("page"),
    page.getByRole("button", { name: "Preview" }).click(),
  ]);
  await tab.waitForLoadState();
  await expect(tab.getByRole("heading", { level: 1 })).toHaveText(headline);
  await expect(tab.locator("strong", { hasText: "harbour wall" })).toBeVisible();
  await expect(tab.getByText("We were ready for it.")).toBeVisible();
  await expect(tab.getByText("The council will protect the site.", { exact: false })).toBeVisible();
  await expect(tab.getByRole("img", { name: "The harbour wall at dawn" })).toBeVisible();
  await tab.close();

  // 6. Restore version 1: the text as first written, without the later lines.
  const history = page.getByTestId("revision-list");
  await history.getByRole("button", { name: /Version 1 · Saved/ }).click();
  const revision = page.getByRole("dialog");
  await revision.getByRole("button", { name: "Restore this version" }).click();
  await page
    .getByRole("dialog")
    .filter({ hasText: "Restore version 1?" })
    .getByRole("button", { name: "Restore" })
    .click();
  await expect(page.getByTestId("story-notice")).toContainText("Restored as version");
  await expect(page.getByLabel("Text 1.1")).not.toContainText("Chicks are expected");
  await expect(page.getByLabel("Text 1.1").locator("strong")).toHaveText("harbour wall");
  await expect(page.getByLabel("Summary")).toHaveValue("");

  // 7. Schedule it for tomorrow.
  for (const move of ["Submit", "Approve"]) {
    await page.getByRole("button", { name: move, exact: true }).click();
    await expect(page.getByRole("button", { name: move, exact: true })).toHaveCount(0);
  }
  await expect(page.getByTestId("story-status")).toHaveAttribute("data-status", "APPROVED");
  await page.getByLabel("Publish at").fill(localInput(new Date(Date.now() + 24 * 3_600_000)));
  await page.getByRole("button", { name: "Schedule", exact: true }).click();
  await expect(page.getByTestId("story-schedule")).toContainText("Scheduled to publish");
  const scheduled = await trpcQuery<Story>(page.request, "stories.get", { id });
  expect(scheduled.publishAt).not.toBeNull();

  // 8. Find it again: scheduled only, a word of its text.
  await page.goto("/admin/content/stories");
  await page.getByRole("checkbox", { name: "Scheduled only" }).check();
  await page.getByRole("searchbox", { name: "Search headlines and text" }).fill(word);
  const rows = page.getByTestId("story-row");
  await expect(rows).toHaveCount(1);
  await expect(rows).toContainText(headline);
  await page.getByRole("combobox", { name: "Status", exact: true }).selectOption({ label: "Approved" });
  await expect(rows).toHaveCount(1);
  await page.getByRole("combobox", { name: "Status", exact: true }).selectOption({ label: "Draft" });
  await expect(rows).toHaveCount(0);
});
