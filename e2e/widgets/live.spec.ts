/**
 * Live threads (docs/widgets.md "Live threads"): two readers have the same story open on a
 * publisher's page of another origin; one replies, and the other's open widget shows the reply and
 * the new count without a reload; the reply hidden by its author leaves the other's widget too.
 * While the second reader is typing, the live change waits and their words stay. At 1440 px and
 * 390 px, with axe-core (no serious or critical violation) and no sideways scrolling in the frame.
 */
import type { Browser, FrameLocator, Page } from "@playwright/test";

import { pageIdOf, postComment } from "../comments";
import { demoAccount, expect, seriousViolations, test } from "../fixtures";
import { commentsPage, expectNoSidewaysScrollInFrame, publisherSite, readerJwt, signInReader } from "./host-page";

const VIEWPORTS = [
  { name: "desktop", width: 1440, height: 900 },
  { name: "phone", width: 390, height: 844 },
] as const;

/** Live changes come within seconds (the stream); polling would take longer. */
const LIVE = { timeout: 10_000 };

function commentWith(frame: FrameLocator, text: string) {
  return frame.locator(`li.comment:has(> div.body:has-text(${JSON.stringify(text)}))`);
}

async function openAs(browser: Browser, viewport: { width: number; height: number }, url: string) {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  await page.goto(url);
  const frame = page.frameLocator("#comments iframe");
  await expect(frame.getByRole("heading", { name: /comments?$/ })).toBeVisible();
  return { page, frame, close: () => context.close() };
}

async function signedIn(page: Page, frame: FrameLocator, jwt: string, name: string) {
  await signInReader(page, jwt, name);
  await expect(frame.getByText(`Signed in as ${name}`)).toBeVisible();
}

test.describe("live threads in the comment widget", () => {
  let site: Awaited<ReturnType<typeof publisherSite>>;
  const run = Date.now().toString(36);

  test.beforeAll(async () => {
    const { accountId } = demoAccount();
    site = await publisherSite(57, {
      "/live-desktop.html": commentsPage(accountId, { heading: "A live story" }),
      "/live-phone.html": commentsPage(accountId, { heading: "A live story" }),
    });
  });

  test.afterAll(async () => {
    await site.close();
  });

  for (const viewport of VIEWPORTS) {
    test.describe(`on a ${viewport.name} (${viewport.width} px)`, () => {
      test("a reader replies and the other reader's open widget shows it live", async ({ browser, request }) => {
        test.setTimeout(120_000);
        const { accountId, jwtSecret } = demoAccount();
        const story = `${site.origin}/live-${viewport.name}.html`;
        const ada = { name: `Ada ${viewport.name} ${run}`, id: `ada-live-${viewport.name}-${run}` };
        const ben = { name: `Ben ${viewport.name} ${run}`, id: `ben-live-${viewport.name}-${run}` };
        const adaJwt = await readerJwt(jwtSecret, ada.id, ada.name);
        const benJwt = await readerJwt(jwtSecret, ben.id, ben.name);

        // The story has a comment of today (an active page: the widgets open a stream).
        const first = `Ben opens the thread ${run}`;
        const created = await postComment(request, accountId, pageIdOf(story), first, benJwt);
        expect(created.status()).toBe(201);

        const a = await openAs(browser, viewport, story);
        const b = await openAs(browser, viewport, story);
        try {
          await signedIn(a.page, a.frame, adaJwt, ada.name);
          await signedIn(b.page, b.frame, benJwt, ben.name);
          await expect(b.frame.getByRole("heading", { name: "1 comment" })).toBeVisible();

          // Ada replies to Ben in her widget.
          const reply = `Ada answers live ${run}`;
          const benComment = commentWith(a.frame, first);
          await benComment.getByRole("button", { name: "Reply", exact: true }).first().click();
          const replyBox = a.frame.getByRole("textbox", { name: `Write a reply to ${ben.name}` });
          await replyBox.pressSequentially(reply);
          await benComment.locator("form.composer").getByRole("button", { name: "Reply" }).click();
          await expect(commentWith(a.frame, reply)).toBeVisible();

          // Ben's open widget shows it, and the count, without a reload.
          await expect(commentWith(b.frame, reply)).toBeVisible(LIVE);
          await expect(b.frame.getByRole("heading", { name: "2 comments" })).toBeVisible(LIVE);
          await expectNoSidewaysScrollInFrame(b.page);
          expect(await seriousViolations(b.page)).toEqual([]);

          // Ben is typing when Ada writes again: his words and his place stay; the change comes
          // once he leaves the box.
          const benBox = b.frame.getByRole("textbox", { name: "Write a comment" });
          await benBox.click();
          await benBox.pressSequentially(`Ben is still typing ${run}`);
          const second = `Ada's second thought ${run}`;
          await a.frame.getByRole("textbox", { name: "Write a comment" }).fill(second);
          await a.frame.locator("form.composer").first().getByRole("button", { name: "Post" }).click();
          await expect(commentWith(a.frame, second)).toBeVisible();
          await b.page.waitForTimeout(2_000);
          await expect(benBox).toBeFocused();
          await expect(benBox).toHaveValue(`Ben is still typing ${run}`);
          await b.frame.getByRole("heading", { name: /comments?$/ }).click();
          await expect(commentWith(b.frame, second)).toBeVisible(LIVE);
          await expect(b.frame.getByRole("textbox", { name: "Write a comment" })).toHaveValue(
            `Ben is still typing ${run}`,
          );

          // Ada hides her reply: it leaves Ben's widget too.
          await commentWith(a.frame, reply).getByRole("button", { name: "Hide" }).click();
          await expect(commentWith(a.frame, reply)).toHaveCount(0);
          await expect(commentWith(b.frame, reply)).toHaveCount(0, LIVE);
          await expect(b.frame.getByRole("heading", { name: "2 comments" })).toBeVisible(LIVE);
        } finally {
          await a.close();
          await b.close();
        }
      });
    });
  }
});
