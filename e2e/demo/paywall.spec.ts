/**
 * The demo paywalled story (docs/subscriptions.md "Demo paywalled story"), as a reader meets it,
 * at desktop and phone sizes: the meter's free stories are counted (2 a month on the demo
 * publisher), the third story shows the paywall, the reader checks out through the SDK's preview
 * and create (the demo's test gateway), and then reads the whole story as a subscriber.
 */
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";

import { expect, test, trpcCall } from "../fixtures";

const REVENUE = { email: "revenue@demo.masthead.test", password: "masthead-demo-revenue" };

const VIEWPORTS = [
  { name: "desktop", width: 1280, height: 900 },
  { name: "phone", width: 390, height: 844 },
] as const;

/** axe-core's serious and critical findings (WCAG 2.1 A and AA), one line each. */
async function seriousViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  return results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .flatMap((v) => v.nodes.map((n) => `${v.id} (${v.impact}): ${n.target.join(" ")} – ${v.help}`));
}

async function openStory(page: Page, index: number) {
  await page.goto("/demo/paywall");
  const links = page.getByRole("main").getByRole("listitem").getByRole("link");
  await expect(links).toHaveCount(3);
  await links.nth(index).click();
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
}

test("the SDK script is served with its types", async ({ request }) => {
  const script = await request.get("/frontend/v2/accesstype.js?key=mh_pk_demo_public_client_key_local_only");
  expect(script.status()).toBe(200);
  expect(script.headers()["content-type"]).toContain("javascript");
  expect(await script.text()).toContain("accesstypeq");
  const stable = await request.get("/sdk/masthead-access.js");
  expect(await stable.text()).toBe(await script.text());
  const again = await request.get("/sdk/masthead-access.js", {
    headers: { "If-None-Match": stable.headers()["etag"]! },
  });
  expect(again.status()).toBe(304);
  expect(await (await request.get("/frontend/v2/accesstype.d.ts")).text()).toContain("interface AccessTypeApi");
});

for (const viewport of VIEWPORTS) {
  test(`a reader hits the meter, subscribes through preview and create, and reads (${viewport.name})`, async ({
    page,
    signIn,
  }) => {
    await page.setViewportSize(viewport);
    // The seeded meter (2 free stories a month), whatever another spec saved in the dashboard.
    await signIn(REVENUE);
    await trpcCall(page.request, "paywallMeter.update", {
      enabled: true,
      freeStories: 2,
      periodLength: 1,
      periodUnit: "months",
      meterAnonymous: true,
    });
    const email = `reader-${viewport.name}-${Date.now()}@example.com`;

    // Sign in as a demo reader (a JWT minted for the e-mail), then read two free stories.
    await openStory(page, 0);
    await page.getByLabel("Demo reader e-mail").fill(email);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByText(`Signed in as ${email}`)).toBeVisible();
    const demo = page.getByTestId("paywall-demo");
    await expect(demo).toHaveAttribute("data-access", "granted");
    await expect(demo).toHaveAttribute("data-grant-reason", "METERING");
    await expect(page.getByText("Free story. 1 free story left this month.")).toBeVisible();
    await expect(page.getByTestId("story-rest").getByRole("paragraph")).toHaveCount(3);

    await openStory(page, 1);
    await expect(demo).toHaveAttribute("data-grant-reason", "METERING");
    await expect(page.getByText("This is your last free story this month.")).toBeVisible();

    // A free story read again is not counted twice: still granted.
    await openStory(page, 0);
    await expect(demo).toHaveAttribute("data-access", "granted");

    // The third story: the meter is spent, the paywall shows the Digital access plans and no story.
    await openStory(page, 2);
    await expect(demo).toHaveAttribute("data-access", "denied");
    await expect(page.getByRole("heading", { name: "Subscribe to keep reading" })).toBeVisible();
    await expect(page.getByTestId("story-rest")).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Subscribe: Yearly" })).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);

    // Check out: the SDK previews, the test gateway "pays", the SDK creates.
    const checkout = page.waitForResponse(
      (r) => r.url().includes("/api/access/v1/members/me/subscriptions?") && r.request().method() === "POST",
    );
    await page.getByRole("button", { name: "Subscribe: Yearly" }).click();
    const dialog = page.getByRole("dialog", { name: "Test payment" });
    await expect(dialog).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    await dialog.getByRole("button", { name: "Pay (test)" }).click();
    const created = await checkout;
    expect(created.status()).toBeLessThan(300);
    // Paid through the test gateway and captured: active at once.
    expect(((await created.json()) as { subscription: unknown }).subscription).toMatchObject({
      status: "active",
      payment_type: "demo_test",
    });

    await expect(demo).toHaveAttribute("data-grant-reason", "SUBSCRIBER");
    await expect(page.getByText("Thanks for subscribing: you have full access.")).toBeVisible();
    await expect(page.getByTestId("story-rest").getByRole("paragraph")).toHaveCount(3);

    const { scrollWidth, clientWidth } = await page.evaluate(() => ({
      scrollWidth: document.documentElement.scrollWidth,
      clientWidth: document.documentElement.clientWidth,
    }));
    expect(scrollWidth).toBeLessThanOrEqual(clientWidth);
  });
}
