/**
 * Which stories convert (docs/subscriptions.md "Which stories convert"): a reader hits a demo
 * story's wall, signs in and subscribes with the demo's test payment; the owner then sees that
 * story's paid subscription on the Conversions page (chart, table, CSV) and in the story editor's
 * Conversions panel, at 1440 and 390 px, with no serious axe finding.
 */
import { readFile } from "node:fs/promises";

import type { Page } from "@playwright/test";

import { expect, expectNoHorizontalPageScroll, seriousViolations, test, trpcCall, trpcQuery } from "../fixtures";

type StoryFigures = { readers: number; paid: number; revenue: { currency: string; cents: number }[] };

const METER = { freeStories: 2, periodLength: 1, periodUnit: "months", meterAnonymous: true };

async function storyFigures(page: Page, storyId: string) {
  return trpcQuery<StoryFigures>(page.request, "storyConversions.story", { storyId });
}

test("a story's wall, a subscription, and the story's figures on the Conversions page and in the editor", async ({
  page,
  browser,
  signIn,
  users,
}) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(users.owner);
  // The meter off: a subscription story is walled at once (restored to the seeded meter after).
  await trpcCall(page.request, "paywallMeter.update", { ...METER, enabled: false });
  try {
    const reader = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const readerPage = await reader.newPage();
    await readerPage.goto("/demo/paywall");
    await readerPage.getByRole("main").getByRole("listitem").getByRole("link").nth(2).click();
    await readerPage.waitForURL(/\/demo\/paywall\/[0-9a-f-]{36}/);
    const storyId = /\/demo\/paywall\/([0-9a-f-]{36})/.exec(readerPage.url())![1]!;
    const before = await storyFigures(page, storyId);

    // Anonymous: the wall (a wall hit of the SDK's reader id).
    const demo = readerPage.getByTestId("paywall-demo");
    await expect(demo).toHaveAttribute("data-access", "denied");
    // Signed in (a demo JWT) and subscribed with the test payment; the checkout names the reader id.
    await readerPage.getByLabel("Demo reader e-mail").fill(`convert-${Date.now()}@example.com`);
    await readerPage.getByRole("button", { name: "Sign in" }).click();
    await expect(demo).toHaveAttribute("data-access", "denied");
    const checkout = readerPage.waitForRequest(
      (r) => r.url().includes("/api/access/v1/members/me/subscriptions?") && r.method() === "POST",
    );
    await readerPage.getByRole("button", { name: "Subscribe: Yearly" }).click();
    await readerPage.getByRole("dialog", { name: "Test payment" }).getByRole("button", { name: "Pay (test)" }).click();
    expect(new URL((await checkout).url()).searchParams.get("readerId")).toBeTruthy();
    await expect(demo).toHaveAttribute("data-grant-reason", "SUBSCRIBER");
    await reader.close();

    const after = await storyFigures(page, storyId);
    expect(after.readers).toBeGreaterThanOrEqual(Math.max(1, before.readers));
    expect(after.paid).toBe(before.paid + 1);
    expect(after.revenue.reduce((sum, m) => sum + m.cents, 0)).toBeGreaterThan(
      before.revenue.reduce((sum, m) => sum + m.cents, 0),
    );

    for (const width of [1440, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto("/admin/subscriptions/conversions");
      await expect(page.getByRole("heading", { name: "Conversions", level: 1 })).toBeVisible();
      await expect(page.getByTestId("chart-story-conversions")).toBeVisible();
      const row = page.getByTestId(`conversion-row-${storyId}`);
      await expect(row).toContainText(String(after.paid));
      // Sorting by a column puts the story with the most paid first when asked so.
      await page.getByRole("button", { name: /^Paid/ }).click();
      await page.getByRole("button", { name: /^Paid/ }).click();
      await expect(page.getByRole("button", { name: /^Paid\b.*sorted descending/ })).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
      await expectNoHorizontalPageScroll(page);
    }

    // By section: the grouping changes the table's first column.
    await page.getByLabel("Group by").selectOption("section");
    await expect(page.getByRole("button", { name: /^Section/ })).toBeVisible();
    await page.getByLabel("Group by").selectOption("story");

    // The CSV: the story's line with its paid subscriptions.
    const download = page.waitForEvent("download");
    await page.getByRole("link", { name: "Download conversions (CSV)" }).click();
    const csv = await readFile(await (await download).path(), "utf8");
    expect(csv).toContain("story_id,headline,readers_hit_wall,registered,trials_started,paid_started");
    const [head, ...lines] = csv.replace(/^\uFEFF/, "").split("\r\n");
    const fields = lines.find((l) => l.startsWith(storyId))!.split(",");
    // Counted from the end: a headline may hold commas; after "paid" come same_visit and one column per currency.
    expect(fields[fields.length - (head!.split(",").length - 5)]).toBe(String(after.paid));

    // The story editor's panel.
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(`/admin/content/stories/${storyId}`);
    await expect(page.getByTestId("story-conversions-paid")).toContainText(String(after.paid));
    expect(await seriousViolations(page)).toEqual([]);
  } finally {
    await trpcCall(page.request, "paywallMeter.update", { ...METER, enabled: true });
  }
});
