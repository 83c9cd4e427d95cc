/**
 * E-mail notifications in the comment widget (docs/engagement.md "Notifications to readers"): on a
 * publisher's page of another origin, a signed-in reader opens "E-mail notifications", turns
 * replies to the daily digest (the browser's time zone sent and kept with it, for the digest's
 * hour), sees it saved, and finds it kept after a reload. At 1440 px and
 * 390 px, with axe-core in the frame (no serious or critical violation) and no sideways scrolling.
 */
import type { FrameLocator, Page } from "@playwright/test";

import { demoAccount, expect, expectNoHorizontalPageScroll, seriousViolations, test } from "../fixtures";
import { commentsPage, expectNoSidewaysScrollInFrame, publisherSite, readerJwt, signInReader } from "./host-page";

const VIEWPORTS = [
  { name: "desktop", width: 1440, height: 900 },
  { name: "phone", width: 390, height: 844 },
] as const;

async function openSettings(page: Page, jwt: string, name: string): Promise<FrameLocator> {
  const frame = page.frameLocator("#comments iframe");
  await expect(frame.getByRole("heading", { name: /comments?$/ })).toBeVisible();
  await signInReader(page, jwt, name);
  await expect(frame.getByText(`Signed in as ${name}`)).toBeVisible();
  await frame.getByText("E-mail notifications").click();
  await expect(frame.getByLabel("Replies to my comments")).toBeVisible();
  return frame;
}

test.describe("e-mail notifications in the comment widget", () => {
  let site: Awaited<ReturnType<typeof publisherSite>>;
  const run = Date.now().toString(36);
  const storyPath = `/notify-story-${run}.html`;

  test.beforeAll(async () => {
    site = await publisherSite(41, { [storyPath]: commentsPage(demoAccount().accountId) });
  });

  test.afterAll(async () => {
    await site.close();
  });

  for (const viewport of VIEWPORTS) {
    test.describe(`on a ${viewport.name} (${viewport.width} px)`, () => {
      test.use({ viewport: { width: viewport.width, height: viewport.height }, timezoneId: "Asia/Tokyo" });

      test("a reader turns replies to the daily digest and finds it kept after a reload", async ({ page }) => {
        const { jwtSecret } = demoAccount();
        const name = `Nia ${viewport.name} ${run}`;
        const jwt = await readerJwt(jwtSecret, `nia-${viewport.name}-${run}`, name, `nia-${run}@example.com`);

        await page.goto(site.origin + storyPath);
        let frame = await openSettings(page, jwt, name);
        // A reader who never chose gets everything at once.
        await expect(frame.getByLabel("Replies to my comments")).toHaveValue("immediate");
        await expect(frame.getByLabel("Mentions of me")).toHaveValue("immediate");
        await expect(frame.getByLabel("Moderators' decisions on my comments")).toHaveValue("immediate");
        await expectNoHorizontalPageScroll(page, "the host page");
        expect(await seriousViolations(page)).toEqual([]);

        const saved = page.waitForResponse(
          (res) => res.request().method() === "PUT" && res.url().includes("/notifications/preferences"),
        );
        await frame.getByLabel("Replies to my comments").selectOption({ label: "Daily digest" });
        const response = await saved;
        expect((response.request().postDataJSON() as { time_zone?: string }).time_zone).toBe("Asia/Tokyo");
        expect(((await response.json()) as { time_zone: string | null }).time_zone).toBe("Asia/Tokyo");
        await expect(frame.getByRole("status").filter({ hasText: "Saved." })).toBeVisible();

        await page.reload();
        frame = await openSettings(page, jwt, name);
        await expect(frame.getByLabel("Replies to my comments")).toHaveValue("digest");
        await expect(frame.getByLabel("Mentions of me")).toHaveValue("immediate");
        await expectNoSidewaysScrollInFrame(page);
        expect(await seriousViolations(page)).toEqual([]);
      });
    });
  }
});
