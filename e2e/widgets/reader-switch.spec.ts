/**
 * Another reader on the same page (issue 56): the page signs one reader in, then another, then
 * out, without a reload. The first reader's held comment, their moderator's notice and their
 * "held" line go with them; the notice is shown once. In the default colours, a link in a comment
 * and the reply form's Cancel read at 4.5:1 on white (#2c77a6). At 1440 and 390 px, with axe.
 */
import type { Locator } from "@playwright/test";

import { pageIdOf } from "../comments";
import { demoAccount, expect, seriousViolations, test, trpcCall, trpcQuery } from "../fixtures";
import { commentPagesPerViewport, readerJwt, signInReader, VIEWPORTS } from "./host-page";

/** The WCAG contrast of an element's text colour (its alpha laid over white) against white. */
async function contrastOnWhite(locator: Locator): Promise<number> {
  const css = await locator.evaluate((el) => getComputedStyle(el).color);
  const rgb = /^rgba?\(([\d.]+),\s*([\d.]+),\s*([\d.]+)(?:,\s*([\d.]+))?\)$/.exec(css);
  const srgb = /^color\(srgb ([\d.]+) ([\d.]+) ([\d.]+)(?: \/ ([\d.]+))?\)$/.exec(css);
  const parts = rgb ? [1, 2, 3].map((i) => Number(rgb[i]) / 255) : srgb ? [1, 2, 3].map((i) => Number(srgb[i])) : null;
  if (!parts) throw new Error(`a colour this test cannot read: ${css}`);
  const alpha = Number((rgb ?? srgb)![4] ?? 1);
  const linear = parts
    .map((c) => c * alpha + (1 - alpha))
    .map((c) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
  const luminance = 0.2126 * linear[0]! + 0.7152 * linear[1]! + 0.0722 * linear[2]!;
  return 1.05 / (luminance + 0.05);
}

test.describe("the comment widget when the page switches the reader", () => {
  const run = Date.now().toString(36);
  const site = commentPagesPerViewport(71, "switch", run);

  for (const viewport of VIEWPORTS) {
    test(`drops the first reader's held comment and notice for the second (${viewport.name})`, async ({
      page,
      browser,
      request,
      signIn,
      users,
    }) => {
      const { accountId, jwtSecret } = demoAccount();
      const story = `${site.origin}/switch-${viewport.name}-${run}.html`;
      const published = `A published one with https://example.com/read ${viewport.name} ${run}`;
      const first = { id: `switch-a-${viewport.name}-${run}`, name: `Ann ${viewport.name} ${run}` };
      const second = { id: `switch-b-${viewport.name}-${run}`, name: `Bo ${viewport.name} ${run}` };
      const jwtA = await readerJwt(jwtSecret, first.id, first.name);
      const jwtB = await readerJwt(jwtSecret, second.id, second.name);
      // A link op, as the composer writes one for a URL in the text (a plain insert is not a link).
      const posted = await request.post(`/api/v1/accounts/${accountId}/pages/${pageIdOf(story)}/comments.json`, {
        data: {
          comment: {
            body: {
              ops: [
                { insert: `A published one with ` },
                { insert: "https://example.com/read", attributes: { link: "https://example.com/read" } },
                { insert: ` ${viewport.name} ${run}` },
              ],
            },
          },
          jwt: jwtB,
        },
      });
      expect(posted.status(), await posted.text()).toBe(201);
      const { comment } = (await posted.json()) as { comment: { id: number; is_published: boolean } };

      await signIn(users.moderator);
      // A first comment with a link may wait for a moderator (the account's rules): approved here.
      if (!comment.is_published)
        await trpcCall(page.request, "moderation.act", { commentId: comment.id, action: "approve" });
      await trpcCall(page.request, "pageRules.set", { url: story, mode: "pre_moderation", slowModeSeconds: 0 });
      const reader = await browser.newContext({ viewport: { width: viewport.width, height: viewport.height } });
      try {
        const tab = await reader.newPage();
        await tab.goto(story);
        const frame = tab.frameLocator("#comments iframe");
        await expect(frame.locator("#comments-title")).toBeVisible();

        // Ann writes a comment that is held for a moderator, and is warned.
        await signInReader(tab, jwtA, first.name);
        await expect(frame.getByText(`Signed in as ${first.name}`)).toBeVisible();
        const held = `Held for Ann alone ${viewport.name} ${run}`;
        await frame.getByRole("textbox", { name: "Write a comment" }).fill(held);
        await frame.locator("form.composer").first().getByRole("button", { name: "Post" }).click();
        await expect(frame.getByText(held)).toBeVisible();
        // "Held" is said once: shown, and announced through the live region only until it is read.
        const heldLine = frame.getByText("Your comment is waiting for a moderator", { exact: false });
        await expect(heldLine).toHaveCount(1);
        const { items } = await trpcQuery<{ items: { memberId: number }[] }>(page.request, "community.readers", {
          q: first.name,
        });
        const warning = `Keep to the subject ${viewport.name} ${run}`;
        await trpcCall(page.request, "community.warn", { memberId: items[0]!.memberId, message: warning });

        // Ann again (the page signs her out and in): her notice, once.
        await tab.evaluate(() =>
          (window as unknown as { talktype: Record<string, () => void> }).talktype.accountUserLogout!(),
        );
        await expect(frame.getByText("Signed in as")).toHaveCount(0);
        await signInReader(tab, jwtA, first.name);
        await expect(frame.getByText(warning)).toHaveCount(1);
        // The notice's title once in the frame's text (its announcement leaves the live region).
        await expect(frame.getByText("A message from the moderators", { exact: true })).toHaveCount(1);
        await expect(frame.locator("section.notice")).toHaveCount(1);
        await expect(frame.getByText(held)).toBeVisible();

        // Default colours: a link in a comment is #2c77a6, and it and the reply form's Cancel read at
        // 4.5:1 or more on white.
        const link = frame.locator("div.body a", { hasText: "https://example.com/read" }).first();
        await expect(link).toHaveCSS("color", "rgb(44, 119, 166)");
        expect(await contrastOnWhite(link)).toBeGreaterThanOrEqual(4.5);
        await frame
          .locator(`li.comment:has(> div.body:has-text(${JSON.stringify(published)}))`)
          .getByRole("button", { name: "Reply" })
          .first()
          .click();
        const cancel = frame.locator("form.composer").getByRole("button", { name: "Cancel" }).first();
        await expect(cancel).toBeVisible();
        expect(await contrastOnWhite(cancel)).toBeGreaterThanOrEqual(4.5);
        expect(await seriousViolations(tab)).toEqual([]);
        await cancel.click();

        // Bo, on the same page without a reload: nothing of Ann's.
        await signInReader(tab, jwtB, second.name);
        await expect(frame.getByText(`Signed in as ${second.name}`)).toBeVisible();
        await expect(frame.locator(`li.comment:has(> div.body:has-text(${JSON.stringify(published)}))`)).toBeVisible();
        await expect(frame.getByText(held)).toHaveCount(0);
        await expect(frame.getByText(warning)).toHaveCount(0);
        await expect(frame.locator("section.notice")).toHaveCount(0);
        await expect(frame.getByText("Awaiting moderation")).toHaveCount(0);
        expect(await seriousViolations(tab)).toEqual([]);

        // Signed out: still nothing of Ann's.
        await tab.evaluate(() =>
          (window as unknown as { talktype: Record<string, () => void> }).talktype.accountUserLogout!(),
        );
        await expect(frame.getByText("Signed in as")).toHaveCount(0);
        await expect(frame.getByText(held)).toHaveCount(0);
      } finally {
        await reader.close();
        await trpcCall(page.request, "pageRules.set", { url: story, mode: "open", slowModeSeconds: 0 });
      }
    });
  }
});
