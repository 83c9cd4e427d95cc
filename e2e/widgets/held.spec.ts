/**
 * A held comment in the comment widget, at 1440 and 390 px: on a pre-moderated page a reader's
 * comment and reply stay visible to them, marked as awaiting moderation, after a reload too; another
 * reader sees neither. With axe-core in the frame and no sideways scrolling.
 */
import { pageIdOf, postComment } from "../comments";
import { demoAccount, expect, seriousViolations, test, trpcCall } from "../fixtures";
import {
  commentPagesPerViewport,
  expectNoSidewaysScrollInFrame,
  readerJwt,
  signInReader,
  VIEWPORTS,
} from "./host-page";

test.describe("a held comment in the comment widget", () => {
  const run = Date.now().toString(36);
  const site = commentPagesPerViewport(67, "held", run);

  for (const viewport of VIEWPORTS) {
    test(`stays with its author after a reload, never with another reader (${viewport.name})`, async ({
      page,
      browser,
      request,
      signIn,
      users,
    }) => {
      const { accountId, jwtSecret } = demoAccount();
      const story = `${site.origin}/held-${viewport.name}-${run}.html`;
      const published = `The council met at six ${viewport.name} ${run}`;
      const other = await readerJwt(jwtSecret, `held-other-${viewport.name}-${run}`, `Other ${run}`);
      const first = await postComment(request, accountId, pageIdOf(story), published, other);
      expect(first.status(), await first.text()).toBe(201);
      await signIn(users.moderator);
      await trpcCall(page.request, "pageRules.set", { url: story, mode: "pre_moderation", slowModeSeconds: 0 });

      const author = { id: `held-author-${viewport.name}-${run}`, name: `Hana ${viewport.name} ${run}` };
      const jwt = await readerJwt(jwtSecret, author.id, author.name);
      const reader = await browser.newContext({ viewport: { width: viewport.width, height: viewport.height } });
      try {
        const tab = await reader.newPage();
        await tab.goto(story);
        const frame = tab.frameLocator("#comments iframe");
        await expect(frame.locator("#comments-title")).toBeVisible();
        await signInReader(tab, jwt, author.name);
        await expect(frame.getByText(`Signed in as ${author.name}`)).toBeVisible();
        const text = `Held for review ${viewport.name} ${run}`;
        await frame.getByRole("textbox", { name: "Write a comment" }).fill(text);
        await frame.locator("form.composer").first().getByRole("button", { name: "Post" }).click();
        const held = frame.locator(`li.comment:has(> div.body:has-text(${JSON.stringify(text)}))`);
        await expect(held.locator(".badge", { hasText: "Awaiting moderation" })).toBeVisible();

        await tab.reload();
        await signInReader(tab, jwt, author.name);
        await expect(frame.getByText(`Signed in as ${author.name}`)).toBeVisible();
        await expect(held.locator(".badge", { hasText: "Awaiting moderation" })).toBeVisible();
        await expect(frame.locator(`li.comment:has(> div.body:has-text(${JSON.stringify(published)}))`)).toBeVisible();
        await expectNoSidewaysScrollInFrame(tab);
        expect(await seriousViolations(tab)).toEqual([]);

        const strangers = await browser.newContext({ viewport: { width: viewport.width, height: viewport.height } });
        const stranger = await strangers.newPage();
        await stranger.goto(story);
        const theirs = stranger.frameLocator("#comments iframe");
        await expect(theirs.locator(`li.comment:has(> div.body:has-text(${JSON.stringify(published)}))`)).toBeVisible();
        await expect(theirs.getByText(text)).toHaveCount(0);
        await strangers.close();
      } finally {
        await reader.close();
        await trpcCall(page.request, "pageRules.set", { url: story, mode: "open", slowModeSeconds: 0 });
      }
    });
  }
});
