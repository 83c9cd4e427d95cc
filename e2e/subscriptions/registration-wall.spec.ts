/**
 * The registration wall on the demo paywall (docs/subscriptions.md "Registration wall"), at desktop
 * and phone sizes with axe: an anonymous reader reads its free story, meets the registration wall
 * (the newsletter box unticked), signs up with an e-mail, reads on as a registered reader on the
 * paid meter, and later meets the paid wall. At desktop size the journey goes on as issue 61 tells
 * it: the paid wall shows the offer of the reader's segment (registered), the reader subscribes
 * with it, and the story's conversion figures show the subscription (docs/subscriptions.md
 * "Offers and experiments", "Which stories convert").
 */
import type { Page } from "@playwright/test";

import { expect, seriousViolations, test, trpcCall, trpcQuery } from "../fixtures";
import { createNewsletter } from "../newsletters/fixtures";

const VIEWPORTS = [
  { name: "desktop", width: 1440, height: 900 },
  { name: "phone", width: 390, height: 844 },
] as const;

type MeterView = {
  enabled: boolean;
  freeStories: number;
  periodLength: number;
  periodUnit: string;
  meterAnonymous: boolean;
  registrationWall: boolean;
  registrationFreeStories: number;
};

async function openStory(page: Page, index: number): Promise<string> {
  await page.goto("/demo/paywall");
  const links = page.getByRole("main").getByRole("listitem").getByRole("link");
  await expect(links).toHaveCount(3);
  await links.nth(index).click();
  await page.waitForURL(/\/demo\/paywall\/[0-9a-f-]{36}/);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  return /\/demo\/paywall\/([0-9a-f-]{36})/.exec(page.url())![1]!;
}

const OFFER = `Registered readers ${Date.now().toString(36)}`;

/** An offer for registered readers who never subscribed: the Monthly plan only, in its own words. */
async function createRegisteredOffer(page: Page) {
  await page.goto("/admin/subscriptions/offers");
  await page.getByRole("button", { name: "New offer" }).click();
  const form = page.getByTestId("offer-form");
  await form.getByLabel("Name", { exact: true }).fill(OFFER);
  await form.getByLabel("Monthly (Digital access)").check();
  await form.getByLabel("Registered, never subscribed").check();
  await form.getByLabel("Headline (en)").fill("Welcome aboard: go monthly");
  await form.getByLabel("Body (en)").fill("Every story, cancel any time.");
  await form.getByRole("button", { name: "Save offer" }).click();
  await expect(page.getByText(`Saved: ${OFFER}.`)).toBeVisible();
}

type Figures = { readers: number; registered: number; trials: number; paid: number };

for (const viewport of VIEWPORTS) {
  test(`an anonymous reader meets the registration wall, signs up, reads on, then meets the paid wall (${viewport.name})`, async ({
    page,
    signIn,
    users,
  }) => {
    await page.setViewportSize(viewport);
    await signIn(users.owner);
    const before = await trpcQuery<MeterView>(page.request, "paywallMeter.get", undefined);
    await createNewsletter(page.request, { name: `Wall Brief ${viewport.name}`, slug: `wall-brief-${Date.now()}` });
    // One free story before the registration wall, then one on the paid meter once registered.
    await trpcCall(page.request, "paywallMeter.update", {
      enabled: true,
      freeStories: 1,
      periodLength: 1,
      periodUnit: "months",
      meterAnonymous: true,
      registrationWall: true,
      registrationFreeStories: 1,
    });
    const journey = viewport.name === "desktop";
    try {
      if (journey) await createRegisteredOffer(page);
      if (viewport.name === "desktop") {
        // The owner's page shows the wall's settings beside the meter's.
        await page.goto("/admin/subscriptions/meter");
        const form = page.getByTestId("paywall-meter-form");
        await expect(
          form.getByLabel("Ask readers who are not logged in to sign up, free, before the paid wall"),
        ).toBeChecked();
        await expect(form.getByLabel("Free stories before signing up, per period")).toHaveValue("1");
        expect(await seriousViolations(page)).toEqual([]);
      }
      const demo = page.getByTestId("paywall-demo");
      await openStory(page, 0);
      await expect(demo).toHaveAttribute("data-access", "granted");
      await expect(demo).toHaveAttribute("data-grant-reason", "METERING");
      await expect(page.getByTestId("story-rest").getByRole("paragraph")).toHaveCount(3);

      // The second story: the registration wall, not the plans.
      await openStory(page, 1);
      await expect(demo).toHaveAttribute("data-access", "denied");
      const wall = page.getByTestId("registration-wall");
      await expect(wall.getByRole("heading", { name: "Keep reading for free" })).toBeVisible();
      await expect(page.getByRole("heading", { name: "Subscribe to keep reading" })).toHaveCount(0);
      await expect(page.getByTestId("story-rest")).toHaveCount(0);
      const box = wall.getByRole("checkbox", { name: /^Also send me the newsletter/ });
      await expect(box).not.toBeChecked();
      expect(await seriousViolations(page)).toEqual([]);

      const email = `wall-${viewport.name}-${Date.now()}@example.com`;
      await wall.getByLabel("E-mail", { exact: true }).fill(email);
      await wall.getByLabel("Password", { exact: true }).fill("correct horse battery");
      await wall.getByRole("button", { name: "Sign up free" }).click();

      // Registered: signed in, and the story reads on (the paid meter's free story).
      await expect(page.getByText(`Signed in as ${email}`)).toBeVisible();
      await expect(demo).toHaveAttribute("data-access", "granted");
      await expect(demo).toHaveAttribute("data-grant-reason", "METERING");
      await expect(page.getByText("Thanks for signing up: read on.")).toBeVisible();
      await expect(page.getByTestId("story-rest").getByRole("paragraph")).toHaveCount(3);
      expect(await seriousViolations(page)).toEqual([]);

      // The third story: the paid meter is spent, the paid wall with the plans.
      const paidStory = await openStory(page, 2);
      await expect(demo).toHaveAttribute("data-access", "denied");
      await expect(page.getByRole("heading", { name: "Subscribe to keep reading" })).toBeVisible();
      await expect(page.getByTestId("registration-wall")).toHaveCount(0);
      expect(await seriousViolations(page)).toEqual([]);
      if (journey) {
        // The offer of the reader's segment: its words and its one plan; subscribed with it.
        await expect(page.getByTestId("paywall-offer")).toContainText("Welcome aboard: go monthly");
        await expect(page.getByRole("button", { name: "Subscribe: Yearly" })).toHaveCount(0);
        await page.getByRole("button", { name: "Subscribe: Monthly" }).click();
        await page.getByRole("dialog", { name: "Test payment" }).getByRole("button", { name: "Pay (test)" }).click();
        await expect(demo).toHaveAttribute("data-grant-reason", "SUBSCRIBER");
        // The story whose wall the reader met last before subscribing has the subscription.
        const figures = await trpcQuery<Figures>(page.request, "storyConversions.story", { storyId: paidStory });
        expect(figures.paid + figures.trials, JSON.stringify(figures)).toBeGreaterThanOrEqual(1);
        await page.goto("/admin/subscriptions/conversions");
        await expect(page.getByTestId(`conversion-row-${paidStory}`)).toBeVisible();
        expect(await seriousViolations(page)).toEqual([]);
        return;
      }
      const { scrollWidth, clientWidth } = await page.evaluate(() => ({
        scrollWidth: document.documentElement.scrollWidth,
        clientWidth: document.documentElement.clientWidth,
      }));
      expect(scrollWidth).toBeLessThanOrEqual(clientWidth);
    } finally {
      await trpcCall(page.request, "paywallMeter.update", { ...before, registrationWall: false });
      for (const offer of await trpcQuery<{ id: number; name: string }[]>(page.request, "offers.list", undefined))
        if (offer.name === OFFER) await trpcCall(page.request, "offers.archive", { id: offer.id });
    }
  });
}
