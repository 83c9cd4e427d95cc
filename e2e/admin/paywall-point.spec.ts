/**
 * The paywall point in the story editor: an editor opens a subscription story (four paragraphs),
 * sees the divider at the account's default (first element), moves it below the second paragraph,
 * saves, reloads (the divider is where it was put), then previews both sides: as a reader without
 * access (the first two paragraphs and where the rest is) and as a subscriber (all four, the
 * divider line between the second and third). On a phone (390 px) the keyboard moves the divider.
 * Each page at 1440 and 390 px, with axe.
 */
import { randomUUID } from "node:crypto";

import type { Page } from "@playwright/test";

import { expect, expectNoHorizontalPageScroll, seriousViolations, test, trpcCall } from "../fixtures";

type Story = { id: string; version: number };

const paragraph = (text: string) => ({ id: randomUUID(), type: "text", subtype: null, text: `<p>${text}</p>` });

/** Axe and no sideways scrolling, at both widths; the page ends at 1440 px. */
async function checkBothWidths(page: Page, what: string): Promise<void> {
  for (const width of [390, 1440]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    expect(await seriousViolations(page), `${what} at ${width} px`).toEqual([]);
    await expectNoHorizontalPageScroll(page, `${what} at ${width} px`);
  }
}

test("an editor places the paywall divider after the second element, saves it and previews both sides", async ({
  page,
  signIn,
  users,
}) => {
  test.setTimeout(180_000);
  const run = Date.now().toString(36);
  await signIn(users.editor);
  const texts = ["Free one", "Free two", "Paid three", "Paid four"].map((t) => `${t} ${run}`);
  const { story } = await trpcCall<{ story: Story }>(page.request, "stories.create", {
    headline: `Paywall point ${run}`,
    access: "subscription",
    cards: [
      { id: randomUUID(), "story-elements": texts.slice(0, 3).map(paragraph) },
      { id: randomUUID(), "story-elements": texts.slice(3).map(paragraph) },
    ],
  });

  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`/admin/content/stories/${story.id}`);
  const divider = page.getByTestId("paywall-divider");
  const separator = page.getByRole("separator", { name: "Paywall divider: free above, paid below" });
  // The account's default (one element), under the first paragraph.
  await expect(divider).toHaveAttribute("data-point", "1");
  await expect(divider).toContainText("Account default: first 1 element");
  await expect(separator).toHaveAttribute("aria-valuenow", "1");
  await expect(page.getByRole("button", { name: /Use account default/ })).toHaveCount(0);

  await page.getByRole("button", { name: "Move divider down" }).click();
  await expect(divider).toHaveAttribute("data-point", "2");
  await expect(divider).toContainText("Free above (2 elements) / paid below (2 elements)");
  await expect(divider).toContainText("Set for this story.");
  // Drawn between the second and the third paragraph, inside the first card.
  const cardOne = page.getByTestId("card").first();
  await expect(cardOne.getByTestId("paywall-divider")).toBeVisible();
  await checkBothWidths(page, "the story editor with its paywall divider");

  // A draft saves itself (or Ctrl/⌘+S now): the point goes with the story's save.
  await page.keyboard.press("ControlOrMeta+s");
  await expect(page.getByTestId("save-status")).toHaveText("Saved", { timeout: 15_000 });
  await page.reload();
  await expect(divider).toHaveAttribute("data-point", "2");
  await expect(divider).toHaveAttribute("data-own", "true");

  // The keyboard moves it too (and focus stays on it as it moves); Home: nothing free; back to 2.
  await page.setViewportSize({ width: 390, height: 844 });
  await separator.focus();
  await page.keyboard.press("ArrowDown");
  await expect(divider).toHaveAttribute("data-point", "3");
  await expect(separator).toBeFocused();
  await page.keyboard.press("Home");
  await expect(divider).toHaveAttribute("data-point", "0");
  await expect(separator).toBeFocused();
  for (let i = 0; i < 2; i++) await page.keyboard.press("ArrowDown");
  await expect(divider).toHaveAttribute("data-point", "2");
  await expect(page.getByTestId("save-status")).toHaveText("Saved", { timeout: 15_000 });
  await page.setViewportSize({ width: 1440, height: 900 });

  // Preview: the private link, as a reader without access, then as a subscriber.
  await page.getByRole("button", { name: "Preview", exact: true }).click();
  const article = page.getByTestId("preview-links").getByRole("link", { name: "article", exact: true });
  const url = await article.getAttribute("href");
  expect(url).toBeTruthy();
  await page.goto(`${url!}?as=reader`);
  const body = page.locator("article");
  await expect(body).toContainText(texts[0]!);
  await expect(body).toContainText(texts[1]!);
  await expect(body).not.toContainText(texts[2]!);
  await expect(body).not.toContainText(texts[3]!);
  await expect(page.getByTestId("paywall-continues")).toContainText("The rest of this story is for subscribers");
  await expect(page.getByTestId("preview-paywall-note")).toContainText("2 of 4 elements free (set for this story)");
  await checkBothWidths(page, "the preview as a reader without access");

  await page.getByRole("link", { name: "As a subscriber" }).click();
  await expect(page).toHaveURL(/\?as=subscriber$/);
  for (const text of texts) await expect(body).toContainText(text);
  const line = page.getByRole("separator", { name: /Paywall: free above/ });
  await expect(line).toBeVisible();
  // The line is between the second paragraph and the third.
  const order = await body.evaluate(
    (el, [two, three]) => {
      const html = el.innerHTML;
      return [html.indexOf(two!), html.indexOf('data-testid="paywall-line"'), html.indexOf(three!)];
    },
    texts.slice(1, 3),
  );
  expect(order[0]).toBeLessThan(order[1]!);
  expect(order[1]).toBeLessThan(order[2]!);
  await expect(page.getByTestId("paywall-continues")).toHaveCount(0);
  await checkBothWidths(page, "the preview as a subscriber");
});
