/**
 * The paywall in each of the eight locales (docs/i18n.md, issue 59), at 1440 and 390 px: the demo
 * paywalled story with `?locale=` (Stripe on, a hard paywall: e2e/stripe.ts) and the browser SDK's
 * card form open in its dialog, one load per locale and both widths on it: the story's `lang` and
 * `dir` and the card form's are the locale's, nothing scrolls sideways or is cut off, axe finds
 * nothing serious, and right to left the plans' prices start on the right, the card form's Pay
 * button comes first on the right and the dialog's words start on the right. Then AMP: amp-access
 * asked with `locale=` answers each locale with its direction and words (the AMP story page, in
 * the account's default locale, is checked in ./mail.spec.ts, which sets that locale in turn).
 */
import type { Page } from "@playwright/test";

import { expect, seriousViolations, test } from "../fixtures";
import { disableStripe, enableStripe } from "../stripe";
import { CLIENT_KEY as KEY, SERVER_KEY } from "../subscriptions";
import {
  dirOf,
  expectLangDir,
  expectNothingCut,
  expectTextStartsAtStart,
  inlineOffsets,
  LOCALES,
  WIDTHS,
  type Locale,
} from "./checks";

test.beforeAll(async ({ browser }) => enableStripe(browser));
test.afterAll(async ({ browser }) => disableStripe(browser));

/** The demo's premium stories, as the index lists them. */
async function premiumStoryIds(page: Page): Promise<string[]> {
  await page.goto("/demo/paywall?locale=en");
  const hrefs = await page
    .getByRole("main")
    .getByRole("listitem")
    .getByRole("link")
    .evaluateAll((links) => links.map((a) => (a as HTMLAnchorElement).pathname));
  return hrefs.map((h) => h.split("/").pop()!);
}

async function checkWidth(page: Page, locale: Locale, width: string): Promise<void> {
  const at = `${locale} at ${width} px`;
  await expectLangDir(page, "div[lang]", locale, `the story (${at})`);
  await expectLangDir(page, "form.masthead-stripe-form", locale, `the card form (${at})`);
  await expectNothingCut(page, `the paywall with the card form (${at})`);
  // The plans: each price on the inline start of its row.
  const price = await inlineOffsets(page, "[data-testid^=plan-price-]", "li");
  expect.soft(price.direction, `the plans' direction (${at})`).toBe(dirOf(locale));
  expect.soft(Math.abs(price.start), `a plan's price at the inline start (${at})`).toBeLessThanOrEqual(2);
  // The card form: Pay first, on the inline start; the dialog's words from the start side.
  const pay = await inlineOffsets(page, ".masthead-stripe-pay", ".masthead-stripe-actions");
  expect.soft(Math.abs(pay.start), `Pay at the inline start (${at}) ${JSON.stringify(pay)}`).toBeLessThanOrEqual(2);
  await expectTextStartsAtStart(page, "#card-payment-title", locale, `the dialog's title (${at})`);
  await expectTextStartsAtStart(page, "#card-payment-text", locale, `the dialog's text (${at})`);
  expect.soft(await seriousViolations(page), `axe (${at})`).toEqual([]);
}

test.describe("the paywall and the card form in every locale", () => {
  let storyId = "";

  for (const locale of LOCALES) {
    test(`${locale}: the paywall and the SDK's card form at 1440 and 390 px`, async ({ page }) => {
      if (!storyId) storyId = (await premiumStoryIds(page))[2]!;
      await page.setViewportSize(WIDTHS[0]);
      await page.goto(`/demo/paywall/${storyId}?locale=${encodeURIComponent(locale)}`);
      const signIn = page.locator("form:has(input[type=email])");
      await signIn.locator("input[type=email]").fill(`i18n-${locale}-${Date.now()}@example.com`);
      await signIn.locator("button[type=submit]").click();
      const demo = page.getByTestId("paywall-demo");
      await expect(demo).toHaveAttribute("data-access", "denied");
      // The first plan that takes a card: its second button, "Pay by card".
      await demo.locator("li:has(> button + button)").first().locator("button").nth(1).click();
      await expect(page.locator("form.masthead-stripe-form .masthead-stripe-pay")).toBeVisible();
      await expect(page.getByRole("dialog")).toBeVisible();
      for (const width of WIDTHS) {
        await page.setViewportSize(width);
        await checkWidth(page, locale, width.name);
      }
    });
  }
});

test("AMP: amp-access answers each locale with its direction and words", async ({ page, request }) => {
  const storyId = (await premiumStoryIds(page))[0]!;
  const english = new Map<string, string>();
  for (const locale of LOCALES) {
    // As the publisher's first-party endpoint forwards AMP's call: with the server key.
    const res = await request.get(
      `/api/access/v1/stories/${storyId}/amp-access?key=${KEY}&readerId=amp-i18n-${locale}&locale=${encodeURIComponent(locale)}`,
      { headers: { "X-SUBAUTH": SERVER_KEY } },
    );
    expect(res.status(), await res.text()).toBe(200);
    const grant = (await res.json()) as { data: { locale?: string; dir?: string; messages?: Record<string, string> } };
    expect(grant.data.locale, locale).toBe(locale);
    expect(grant.data.dir, locale).toBe(dirOf(locale));
    const messages = grant.data.messages ?? {};
    expect(Object.keys(messages).sort(), locale).toEqual(["notice", "signIn", "subscribe"]);
    for (const [key, text] of Object.entries(messages)) {
      expect(text.trim(), `${locale} ${key}`).not.toBe("");
      if (locale === "en") english.set(key, text);
      // Each locale's own words (the catalogue test checks them; here: they are the locale's, not English).
      else expect(text, `${locale} ${key}`).not.toBe(english.get(key));
    }
  }
});
