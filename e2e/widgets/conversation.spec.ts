/**
 * Conversation tools in the comment widget (docs/widgets.md "Conversation tools"), on a
 * publisher's page of another origin, at 1440 px and 390 px, with axe-core (no serious or critical
 * violation) and no sideways scrolling in the frame:
 * - a comment a moderator featured (the Feature button in the dashboard's Published view) shows
 *   first, in the "Featured comments" strip, marked, and not again in the list; unfeatured, it is
 *   back in its place;
 * - the reader changes the sort: the list follows, and the choice is still there after a reload;
 * - a Q&A page shows answered questions only, and the asker their own question "Awaiting an answer".
 */
import type { FrameLocator, Page } from "@playwright/test";

import { pageIdOf, postComment } from "../comments";
import { atEachViewport, demoAccount, expect, seriousViolations, test, trpcCall, VIEWPORTS } from "../fixtures";
import { commentsPage, expectNoSidewaysScrollInFrame, publisherSite, readerJwt, signInReader } from "./host-page";

function commentWith(frame: FrameLocator, text: string) {
  return frame.locator(`li.comment:has(> div.body:has-text(${JSON.stringify(text)}))`);
}

/** The texts of the top-level comments of the main list, in order. */
function listTexts(frame: FrameLocator) {
  return frame.locator('ol.thread[aria-labelledby="comments-title"] > li.comment > div.body').allInnerTexts();
}

async function openStory(page: Page, url: string): Promise<FrameLocator> {
  await page.goto(url);
  const frame = page.frameLocator("#comments iframe");
  await expect(frame.locator("#comments-title")).toBeVisible();
  return frame;
}

async function checkPage(page: Page): Promise<void> {
  await expectNoSidewaysScrollInFrame(page);
  expect(await seriousViolations(page)).toEqual([]);
}

test.describe("conversation tools in the comment widget", () => {
  let site: Awaited<ReturnType<typeof publisherSite>>;
  const run = Date.now().toString(36);

  // Each run comments on pages of its own, so the lists hold only what this run wrote.
  test.beforeAll(async () => {
    const { accountId } = demoAccount();
    const pages: Record<string, string> = {};
    for (const v of VIEWPORTS) {
      pages[`/featured-${v.name}-${run}.html`] = commentsPage(accountId, {
        heading: "A story with a featured comment",
      });
      pages[`/qa-${v.name}-${run}.html`] = commentsPage(accountId, { heading: "Ask the reporter" });
    }
    site = await publisherSite(63, pages);
  });

  test.afterAll(async () => {
    await site.close();
  });

  atEachViewport((viewport) => {
    test("a featured comment shows first, marked; the reader's sort is kept", async ({
      page,
      browser,
      request,
      users,
      signIn,
    }) => {
      test.setTimeout(120_000);
      const { accountId, jwtSecret } = demoAccount();
      const story = `${site.origin}/featured-${viewport.name}-${run}.html`;
      const b64 = pageIdOf(story);
      const texts = ["first", "second", "third"].map((word) => `The ${word} word ${viewport.name} ${run}`);
      const ids: number[] = [];
      for (const [i, text] of texts.entries()) {
        const jwt = await readerJwt(jwtSecret, `conv-${viewport.name}-${run}-${i}`, `Reader ${i} ${run}`);
        const res = await postComment(request, accountId, b64, text, jwt);
        expect(res.status(), await res.text()).toBe(201);
        ids.push(((await res.json()) as { comment: { id: number } }).comment.id);
      }

      // A moderator features the oldest comment from the dashboard's Published view.
      await signIn(users.moderator);
      await page.goto(`/admin/engagement/moderation?view=published&q=${encodeURIComponent(texts[0]!)}`);
      const item = page.locator(`[data-testid="queue-item"][data-comment-id="${ids[0]}"]`);
      await item.getByRole("button", { name: "Feature", exact: true }).click();
      await expect(item.getByRole("button", { name: "Unfeature" })).toBeVisible();
      await expect(item.getByText("featured", { exact: true })).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);

      const reader = await browser.newContext({ viewport: { width: viewport.width, height: viewport.height } });
      try {
        const tab = await reader.newPage();
        let frame = await openStory(tab, story);
        const strip = frame.locator("section.featured");
        await expect(frame.getByRole("heading", { name: "Featured comments" })).toBeVisible();
        await expect(commentWith(frame, texts[0]!)).toHaveCount(1);
        await expect(strip.locator("li.comment").first()).toContainText(texts[0]!);
        await expect(strip.locator(".badge", { hasText: "Featured" })).toBeVisible();
        // The strip comes before the list; the list is the rest, newest first.
        expect(await listTexts(frame)).toEqual([texts[2], texts[1]]);
        await checkPage(tab);

        // The reader sorts oldest first; the choice outlives a reload.
        const sort = frame.getByRole("combobox", { name: "Sort comments" });
        await sort.selectOption("oldest");
        await expect(sort).toBeFocused();
        await expect.poll(() => listTexts(frame)).toEqual([texts[1], texts[2]]);
        frame = await openStory(tab, story);
        await expect(frame.getByRole("combobox", { name: "Sort comments" })).toHaveValue("oldest");
        await expect.poll(() => listTexts(frame)).toEqual([texts[1], texts[2]]);
        await checkPage(tab);

        // Unfeatured: no strip, and the comment is back in its place.
        await trpcCall(page.request, "moderation.feature", { commentId: ids[0], featured: false });
        frame = await openStory(tab, story);
        await expect(frame.locator("section.featured")).toHaveCount(0);
        await expect.poll(() => listTexts(frame)).toEqual(texts);
      } finally {
        await reader.close();
      }
    });

    test("a Q&A page shows answered questions; the asker sees theirs awaiting an answer", async ({
      page,
      browser,
      request,
      users,
      signIn,
    }) => {
      test.setTimeout(120_000);
      const { accountId, jwtSecret } = demoAccount();
      const story = `${site.origin}/qa-${viewport.name}-${run}.html`;
      const b64 = pageIdOf(story);
      const asker = { id: `asker-${viewport.name}-${run}`, name: `Asker ${viewport.name} ${run}` };
      const askerJwt = await readerJwt(jwtSecret, asker.id, asker.name);
      const otherJwt = await readerJwt(jwtSecret, `other-${viewport.name}-${run}`, `Other ${run}`);
      const answered = `When does the bridge reopen? ${viewport.name} ${run}`;
      const open = `Who pays for the repairs? ${viewport.name} ${run}`;
      const first = await postComment(request, accountId, b64, answered, otherJwt);
      expect(first.status(), await first.text()).toBe(201);
      const answeredId = ((await first.json()) as { comment: { id: number } }).comment.id;
      expect((await postComment(request, accountId, b64, open, askerJwt)).status()).toBe(201);

      // A moderator makes the page a Q&A page and marks the first question answered.
      await signIn(users.moderator);
      await trpcCall(page.request, "pageRules.set", { url: story, mode: "open", slowModeSeconds: 0, qaMode: true });
      await trpcCall(page.request, "moderation.markAnswered", { commentId: answeredId, answered: true });

      const reader = await browser.newContext({ viewport: { width: viewport.width, height: viewport.height } });
      try {
        const tab = await reader.newPage();
        const frame = await openStory(tab, story);
        await expect(frame.getByRole("heading", { name: "1 answered question" })).toBeVisible();
        await expect(
          frame.getByText(/Questions and answers: your question shows here once it is answered/),
        ).toBeVisible();
        await expect(commentWith(frame, answered)).toBeVisible();
        await expect(commentWith(frame, open)).toHaveCount(0);

        await signInReader(tab, askerJwt, asker.name);
        await expect(frame.getByText(`Signed in as ${asker.name}`)).toBeVisible();
        await expect(frame.getByRole("heading", { name: "Your questions" })).toBeVisible();
        const mine = commentWith(frame, open);
        await expect(mine).toBeVisible();
        await expect(mine.locator(".badge", { hasText: "Awaiting an answer" })).toBeVisible();
        await expect(frame.getByRole("textbox", { name: "Ask a question" })).toBeVisible();
        await checkPage(tab);
      } finally {
        await reader.close();
        await trpcCall(page.request, "pageRules.set", {
          url: story,
          mode: "open",
          slowModeSeconds: 0,
          qaMode: false,
        });
      }
    });
  });
});
