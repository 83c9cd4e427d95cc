/**
 * The registration wall on the demo paywall (docs/subscriptions.md "Registration wall"), at desktop
 * and phone sizes with axe: an anonymous reader reads its free story, meets the registration wall
 * (the newsletter box unticked), signs up with an e-mail, reads on as a registered reader on the
 * paid meter, and later meets the paid wall.
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

async function openStory(page: Page, index: number) {
  await page.goto("/demo/paywall");
  const links = page.getByRole("main").getByRole("listitem").getByRole("link");
  await expect(links).toHaveCount(3);
  await links.nth(index).click();
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
}

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
    try {
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
      await openStory(page, 2);
      await expect(demo).toHaveAttribute("data-access", "denied");
      await expect(page.getByRole("heading", { name: "Subscribe to keep reading" })).toBeVisible();
      await expect(page.getByTestId("registration-wall")).toHaveCount(0);
      expect(await seriousViolations(page)).toEqual([]);
      const { scrollWidth, clientWidth } = await page.evaluate(() => ({
        scrollWidth: document.documentElement.scrollWidth,
        clientWidth: document.documentElement.clientWidth,
      }));
      expect(scrollWidth).toBeLessThanOrEqual(clientWidth);
    } finally {
      await trpcCall(page.request, "paywallMeter.update", { ...before, registrationWall: false });
    }
  });
}
