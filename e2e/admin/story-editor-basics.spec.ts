/**
 * The story editor's basics, as a writer meets them on the first day: no console warning or error
 * when the editor opens; the rich text shows headings, lists, quotes and links as readers see
 * them; links end where they end (typing after one, the right arrow, Apply); the "/" insert menu;
 * Ctrl/⌘+S saves; the
 * hero image shows as a thumbnail; a word count and reading time; the checks before publishing;
 * the social card (Facebook, X) beside the search preview; "Restore this version" on a published
 * story says it changes the live story; a move back to draft leaves a note the writer sees; and
 * on a phone
 * (390 px) the status, Save, the next move and Preview stay at the bottom of the screen.
 */
import type { ConsoleMessage, Page } from "@playwright/test";

import {
  afterEditorFocus,
  clickIntoText,
  expect,
  expectNoHorizontalPageScroll,
  pngFile,
  seriousViolations,
  test,
  trpcCall,
  trpcQuery,
} from "../fixtures";

type Story = { id: string; version: number; headline: string; status: string };

/** Console warnings and errors from now on. */
function consoleProblems(page: Page): string[] {
  const seen: string[] = [];
  page.on("console", (message: ConsoleMessage) => {
    if (message.type() === "warning" || message.type() === "error") seen.push(`${message.type()}: ${message.text()}`);
  });
  page.on("pageerror", (error) => seen.push(`pageerror: ${error.message}`));
  return seen;
}

/** Whether the next Ctrl/⌘+S keydown on the page has its default (the browser's "save page") prevented. */
async function watchSaveKey(page: Page): Promise<void> {
  await page.evaluate(() => {
    (window as unknown as { saveKeyPrevented?: boolean }).saveKeyPrevented = undefined;
    // Added after the editor's own listener on window, so it sees what that one did.
    window.addEventListener("keydown", (event) => {
      if (event.key.toLowerCase() === "s" && (event.ctrlKey || event.metaKey))
        (window as unknown as { saveKeyPrevented?: boolean }).saveKeyPrevented = event.defaultPrevented;
    });
  });
}

test("the editor opens without console warnings, shows structure, ends links, saves by keyboard, shows the hero image and counts words", async ({
  page,
  signIn,
  users,
}) => {
  test.setTimeout(180_000);
  const run = Date.now().toString(36);
  await signIn(users.owner);
  await page.setViewportSize({ width: 1440, height: 900 });

  // 1. Opening the editor (a new story, then the saved one) writes nothing to the console.
  const problems = consoleProblems(page);
  await page.goto("/admin/content/stories/new");
  const text = page.getByLabel("Text 1.1");
  await expect(text).toBeVisible();
  await page.getByLabel("Headline", { exact: true }).fill(`Basics ${run}`);
  await text.click();
  await page.keyboard.type("Intro words here.");
  await page.getByRole("button", { name: "Create draft" }).click();
  await expect(page).toHaveURL(/\/admin\/content\/stories\/[0-9a-f-]{36}$/, { timeout: 60_000 });
  const story = { id: page.url().split("/").pop()! };
  await expect(page.getByTestId("save-status")).toHaveText("Saved");
  await page.reload();
  await expect(text).toContainText("Intro words here.");
  await expect(page.getByTestId("save-status")).toHaveText("Saved");
  await page.waitForTimeout(1_000);
  expect(problems).toEqual([]);

  // 2. Structure as readers see it.
  await clickIntoText(text);
  await page.keyboard.press("ControlOrMeta+End");
  await page.keyboard.press("Enter");
  await page.getByRole("button", { name: "Heading (Ctrl+Alt+2)" }).click();
  await page.keyboard.type("A heading");
  await page.keyboard.press("Enter");
  await page.getByRole("button", { name: "Bulleted list (Ctrl+Shift+8)" }).click();
  await page.keyboard.type("first item");
  await page.keyboard.press("Enter");
  await page.keyboard.press("Enter");
  await page.getByRole("button", { name: "Quote (Ctrl+Shift+B)" }).click();
  await page.keyboard.type("A quoted line");
  await page.keyboard.press("Enter");
  await page.keyboard.press("Enter");
  const style = (selector: string, property: string) =>
    text
      .locator(selector)
      .first()
      .evaluate((el, p) => getComputedStyle(el).getPropertyValue(p), property);
  const px = (value: string) => Number.parseFloat(value);
  expect(px(await style("h2", "font-size"))).toBeGreaterThan(px(await style("p", "font-size")) * 1.2);
  expect(Number(await style("h2", "font-weight"))).toBeGreaterThanOrEqual(600);
  expect(await style("ul", "list-style-type")).toBe("disc");
  expect(px(await style("ul", "padding-left"))).toBeGreaterThan(10);
  expect(px(await style("blockquote", "border-left-width"))).toBeGreaterThanOrEqual(2);
  expect(px(await style("h2", "margin-top"))).toBeGreaterThan(0);

  // 3. Links end where they end: Apply leaves nothing selected, typing after the link is plain
  // text, and the right arrow at the end of a line writes no space.
  await page.keyboard.type("Read ");
  await page.keyboard.press("ControlOrMeta+k");
  const dialog = page.getByRole("dialog", { name: "Link" });
  await dialog.getByLabel("Address").fill("example.org/one");
  await page.keyboard.press("Enter");
  await expect(dialog).toBeHidden();
  await afterEditorFocus(page);
  expect(await page.evaluate(() => window.getSelection()?.isCollapsed)).toBe(true);
  await page.keyboard.type(" and more");
  const line = text.locator("p").filter({ hasText: "Read " });
  await expect(line).toHaveText("Read example.org/one and more");
  await expect(line.getByRole("link")).toHaveText("example.org/one");
  await page.keyboard.press("Enter");
  await page.keyboard.type("See ");
  await page.keyboard.press("ControlOrMeta+k");
  await dialog.getByLabel("Address").fill("example.com");
  await page.keyboard.press("Enter");
  await expect(dialog).toBeHidden();
  await afterEditorFocus(page);
  // The right arrow moves on (to the empty paragraph the editor keeps at the end) and writes
  // nothing; back at the link's end, what is typed is plain text after it.
  const second = text.locator("p").filter({ hasText: "See " });
  await page.keyboard.press("ArrowRight");
  await expect(second).toHaveText("See example.com");
  await page.keyboard.press("ArrowLeft");
  await page.keyboard.type(".");
  await expect(second).toHaveText("See example.com.");
  await expect(second.getByRole("link")).toHaveText("example.com");
  // Selected words linked by Apply stay linked, and are no longer selected.
  await page.keyboard.press("Enter");
  await page.keyboard.type("pick me");
  await page.keyboard.press("Shift+ArrowLeft");
  await page.keyboard.press("Shift+ArrowLeft");
  await page.getByRole("button", { name: "Link (Ctrl+K)" }).click();
  await dialog.getByLabel("Address").fill("example.net");
  await page.keyboard.press("Enter");
  await expect(dialog).toBeHidden();
  await afterEditorFocus(page);
  expect(await page.evaluate(() => window.getSelection()?.isCollapsed)).toBe(true);
  await expect(text.getByRole("link", { name: "me", exact: true })).toHaveAttribute(
    "href",
    /^https:\/\/example\.net\/?$/,
  );

  // "/" in an empty paragraph opens the insert menu; Escape types the slash after all.
  await page.keyboard.press("End");
  await page.keyboard.press("Enter");
  await page.keyboard.type("/");
  const menu = page.getByRole("menu", { name: "Insert" });
  await expect(menu).toBeVisible();
  await expect(menu.getByRole("menuitem").first()).toBeFocused();
  expect(await seriousViolations(page)).toEqual([]);
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("Enter");
  await expect(menu).toBeHidden();
  await page.keyboard.type("Sub by slash");
  await expect(text.locator("h3")).toHaveText("Sub by slash");
  await page.keyboard.press("Enter");
  await page.keyboard.type("/");
  await expect(menu).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(menu).toBeHidden();
  await page.keyboard.type("either");
  await expect(text.locator("p").filter({ hasText: "/either" })).toHaveText("/either");

  // 4. A word count and reading time under the cards.
  await expect(page.getByTestId("story-length")).toHaveText(/^\d+ words · 1 min read$/);
  const words = Number((await page.getByTestId("story-length").textContent())!.split(" ")[0]);
  expect(words).toBeGreaterThanOrEqual(15);

  // 5. Ctrl/⌘+S saves the story, and the browser does not open its own save dialog.
  // What was typed so far autosaves first (a draft), so the save below is the keyboard's.
  await expect(page.getByTestId("save-status")).toHaveText("Saved", { timeout: 15_000 });
  await page.getByLabel("Summary").fill(`Saved by keyboard ${run}`);
  await expect(page.getByTestId("save-status")).toHaveText("Unsaved changes");
  await watchSaveKey(page);
  await page.keyboard.press("ControlOrMeta+s");
  expect(await page.evaluate(() => (window as unknown as { saveKeyPrevented?: boolean }).saveKeyPrevented)).toBe(true);
  // At once, not by the autosave three seconds after typing stops.
  await expect(page.getByTestId("save-status")).toHaveText("Saved", { timeout: 2_500 });
  const saved = await trpcQuery<{ summary: string | null; version: number }>(page.request, "stories.get", {
    id: story.id,
  });
  expect(saved.summary).toBe(`Saved by keyboard ${run}`);

  // 6. The hero image: a thumbnail, not its storage key.
  await page.getByLabel("Upload hero image").setInputFiles(pngFile(`hero-${run}.png`));
  const thumbnail = page.getByTestId("hero-thumbnail");
  await expect(thumbnail).toBeVisible();
  await expect(thumbnail).toHaveAttribute("src", /^\/images\/.+/);
  await expect(page.getByLabel("Hero image key")).toBeHidden();
  await expect
    .poll(() => thumbnail.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0))
    .toBe(true);
  // The social card beside the search preview shows it, with the headline and the summary.
  const social = page.getByTestId("social-preview");
  await expect(social.getByTestId("social-preview-image")).toHaveAttribute(
    "src",
    (await thumbnail.getAttribute("src"))!,
  );
  await expect(social.getByTestId("social-preview-title")).toHaveText(`Basics ${run}`);
  await expect(social.getByTestId("social-preview-description")).toHaveText(`Saved by keyboard ${run}`);
  await page.keyboard.press("ControlOrMeta+s");
  await expect(page.getByTestId("save-status")).toHaveText("Saved");

  // Ctrl/⌘+S on a new story creates the draft.
  await page.goto("/admin/content/stories/new");
  await page.getByLabel("Headline", { exact: true }).fill(`Keyboard draft ${run}`);
  await page.keyboard.press("ControlOrMeta+s");
  await expect(page).toHaveURL(/\/admin\/content\/stories\/[0-9a-f-]{36}$/, { timeout: 60_000 });
  // The client-side move to the saved story's page drops the old page's <title> before the new
  // one's arrives; the check is of the page once it has come.
  await expect(page).toHaveTitle(/^Story\b/);
  expect(await seriousViolations(page)).toEqual([]);
});

test("the checks before publishing warn without blocking, and restoring a published story says it goes live", async ({
  page,
  signIn,
  users,
}) => {
  test.setTimeout(180_000);
  const run = Date.now().toString(36);
  const headline = `Checklist ${run}`;
  await signIn(users.owner);
  await page.setViewportSize({ width: 1440, height: 900 });
  let { story } = await trpcCall<{ story: Story }>(page.request, "stories.create", { headline });
  for (const action of ["submit", "approve"])
    ({ story } = await trpcCall<{ story: Story }>(page.request, "stories.transition", {
      id: story.id,
      version: story.version,
      action,
    }));
  await page.goto(`/admin/content/stories/${story.id}`);

  // No text, hero image, section or author: each is named, and Publish stays open.
  const checklist = page.getByTestId("publish-checklist");
  await expect(checklist).toBeVisible();
  for (const id of ["text", "hero", "section", "author"])
    await expect(checklist.locator(`[data-check="${id}"]`)).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await page.getByRole("button", { name: "Publish", exact: true }).click();
  const confirm = page.getByRole("dialog").filter({ hasText: `Publish "${headline}" now?` });
  await expect(confirm).toContainText("Before you publish, note:");
  await expect(confirm).toContainText("No section");
  await confirm.getByRole("button", { name: "Publish", exact: true }).click();
  await expect(page.getByTestId("story-status")).toHaveAttribute("data-status", "PUBLISHED");
  await expect(checklist).toHaveCount(0);

  // Edit the live story, then restore its first version: the confirmation says readers get it now.
  await page.getByLabel("Headline", { exact: true }).fill(`${headline} edited`);
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByTestId("save-status")).toHaveText("Saved");
  const history = page.getByTestId("revisions");
  await history.getByRole("button", { name: /Version 1 · Saved/ }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Restore this version" }).click();
  const restore = page.getByRole("dialog").filter({ hasText: "Restore version 1 on the live story?" });
  await expect(restore).toBeVisible();
  await expect(restore).toContainText(
    "readers, the API and the feeds get version 1's headline, text and images at once",
  );
  expect(await seriousViolations(page)).toEqual([]);
  await restore.getByRole("button", { name: "Restore and publish" }).click();
  await expect(page.getByTestId("story-notice")).toContainText("Restored as version");
  await expect(page.getByLabel("Headline", { exact: true })).toHaveValue(headline);
  await expect(page.getByTestId("story-status")).toHaveAttribute("data-status", "PUBLISHED");
  const live = await page.request.get(`/api/v1/stories/${story.id}`);
  expect(live.status()).toBe(200);
  expect(((await live.json()) as { story: { headline: string } }).story.headline).toBe(headline);
});

test("on a phone, the status, Save, the next move and Preview stay at the bottom of the screen", async ({
  page,
  signIn,
  users,
}) => {
  test.setTimeout(120_000);
  const run = Date.now().toString(36);
  await signIn(users.owner);
  const { story } = await trpcCall<{ story: Story }>(page.request, "stories.create", { headline: `Phone ${run}` });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/admin/content/stories/${story.id}`);
  const bar = page.getByRole("region", { name: "Story actions" });
  await expect(bar).toBeVisible();
  await expect(bar).toContainText("Draft");
  await expect(bar.getByRole("button", { name: "Submit" })).toBeVisible();
  await expect(bar.getByRole("button", { name: "Preview" })).toBeVisible();
  // Each button once on screen: the sidebar's Save and Submit are hidden on phones.
  await expect(page.getByRole("button", { name: "Saved", exact: true })).toHaveCount(1);
  await expect(page.getByRole("button", { name: "Submit", exact: true })).toHaveCount(1);
  await expectNoHorizontalPageScroll(page, "the story editor on a phone");
  expect(await seriousViolations(page)).toEqual([]);

  const atBottom = async () => {
    const box = (await bar.boundingBox())!;
    expect(Math.round(box.y + box.height)).toBe(844);
  };
  await atBottom();
  // Tap targets of at least 44 px.
  for (const name of ["Saved", "Submit", "Preview"]) {
    const box = (await bar.getByRole("button", { name, exact: true }).boundingBox())!;
    expect(box.height).toBeGreaterThanOrEqual(44);
  }
  await page.mouse.wheel(0, 5_000);
  await atBottom();
  // Saved from the bar (at once: the draft's autosave would wait three seconds).
  await page.getByLabel("Summary").fill(`Typed on a phone ${run}`);
  await bar.getByRole("button", { name: "Save changes" }).click();
  await expect(bar.getByTestId("action-bar-save-state")).toHaveText("Saved");
  await bar.getByRole("button", { name: "Submit" }).click();
  await expect(bar).toContainText("Submitted");
  const after = await trpcQuery<{ summary: string | null; status: string }>(page.request, "stories.get", {
    id: story.id,
  });
  expect(after).toMatchObject({ summary: `Typed on a phone ${run}`, status: "SUBMITTED" });

  // On a wide screen the bar is gone and the sidebar holds the buttons.
  await page.setViewportSize({ width: 1440, height: 900 });
  await expect(bar).toBeHidden();
  await expect(page.getByRole("button", { name: "Preview", exact: true })).toHaveCount(1);
});

test("sending a story back to draft leaves a note the writer sees at the top of the story", async ({
  page,
  signIn,
  users,
}) => {
  test.setTimeout(120_000);
  const run = Date.now().toString(36);
  const headline = `Sent back ${run}`;
  await signIn(users.owner);
  await page.setViewportSize({ width: 1440, height: 900 });
  let { story } = await trpcCall<{ story: Story }>(page.request, "stories.create", { headline });
  ({ story } = await trpcCall<{ story: Story }>(page.request, "stories.transition", {
    id: story.id,
    version: story.version,
    action: "submit",
  }));
  await page.goto(`/admin/content/stories/${story.id}`);
  await expect(page.getByTestId("return-note")).toHaveCount(0);
  await page.getByRole("button", { name: "Reject", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: `Reject: "${headline}"` });
  await expect(dialog).toBeVisible();
  await dialog.getByLabel("Note to the writer").fill(`Add a second source ${run}.`);
  expect(await seriousViolations(page)).toEqual([]);
  await dialog.getByRole("button", { name: "Reject", exact: true }).click();
  await expect(page.getByTestId("story-status")).toHaveAttribute("data-status", "DRAFT");
  const note = page.getByTestId("return-note");
  await expect(note).toContainText("Rejected by");
  await expect(note).toContainText(`Add a second source ${run}.`);
  // The writer, opening the story later, sees it too; submitting again ends it.
  await page.reload();
  await expect(note).toContainText(`Add a second source ${run}.`);
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(note).toBeVisible();
  await expectNoHorizontalPageScroll(page, "the story editor with a note");
  await page.getByRole("region", { name: "Story actions" }).getByRole("button", { name: "Submit" }).click();
  await expect(page.getByTestId("story-status")).toHaveAttribute("data-status", "SUBMITTED");
  await expect(note).toHaveCount(0);
});
