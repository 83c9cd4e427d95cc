/**
 * Paywall offers and their A/B test (docs/subscriptions.md "Offers and experiments"): an owner
 * creates two offers and starts a test of them for registered readers; a registered reader in arm
 * B sees B's copy, plan, coupon price and trial on the demo paywall and subscribes with it (the
 * checkout carries the offer and the exposure); the owner reads the result with its interval and
 * stops the test. Desktop (1440) and phone (390) sizes, axe on every page.
 */
import type { Page } from "@playwright/test";

import { assignArm } from "@/server/subscriptions/offers/assignment";

import { expect, expectNoHorizontalPageScroll, seriousViolations, test, trpcCall, trpcQuery } from "../fixtures";

const OWNER = { email: "owner@demo.masthead.test", password: "masthead-demo-owner" };
const DESKTOP = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };
const run = Date.now().toString(36);
const NAME_A = `Plain ${run}`;
const NAME_B = `Half price ${run}`;
const TEST_NAME = `Plain or coupon ${run}`;

type Offer = { id: number; name: string };
type Experiment = { id: string; name: string; status: string };

async function axeClean(page: Page) {
  expect(await seriousViolations(page)).toEqual([]);
}

async function createOffer(page: Page, name: string, plans: string[], fill: (page: Page) => Promise<void>) {
  await page.getByRole("button", { name: "New offer" }).click();
  const form = page.getByTestId("offer-form");
  await form.getByLabel("Name", { exact: true }).fill(name);
  for (const plan of plans) await form.getByLabel(`${plan} (Digital access)`).check();
  await form.getByLabel("Registered, never subscribed").check();
  await fill(page);
  await axeClean(page);
  await form.getByRole("button", { name: "Save offer" }).click();
  await expect(page.getByText(`Saved: ${name}.`)).toBeVisible();
}

test.afterAll(async ({ browser }) => {
  // Leave the demo paywall as the other specs expect it: no running test, no offer of this run.
  const page = await browser.newPage();
  await page.goto("/admin/sign-in");
  await page.getByLabel("E-mail").fill(OWNER.email);
  await page.getByLabel("Password").fill(OWNER.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/admin$/);
  for (const t of await trpcQuery<Experiment[]>(page.request, "offers.experiments", undefined))
    if (t.status === "running" && t.name === TEST_NAME) await trpcCall(page.request, "offers.stop", { id: t.id });
  for (const o of await trpcQuery<Offer[]>(page.request, "offers.list", undefined))
    if (o.name.endsWith(run)) await trpcCall(page.request, "offers.archive", { id: o.id });
  await trpcCall(page.request, "paywallMeter.update", {
    enabled: true,
    freeStories: 2,
    periodLength: 1,
    periodUnit: "months",
    meterAnonymous: true,
  });
  await page.close();
});

test("an owner tests two offers; a registered reader subscribes with theirs; the owner reads the result", async ({
  page,
  signIn,
}) => {
  await page.setViewportSize(DESKTOP);
  await signIn(OWNER);
  // The paywall at once, so the reader meets it on the first story.
  await trpcCall(page.request, "paywallMeter.update", {
    enabled: true,
    freeStories: 0,
    periodLength: 1,
    periodUnit: "months",
    meterAnonymous: true,
  });

  // Two offers for registered readers.
  await page.goto("/admin/subscriptions/offers");
  await expect(page.getByRole("heading", { name: "Paywall offers", level: 1 })).toBeVisible();
  await createOffer(page, NAME_A, ["Monthly", "Yearly"], async (p) => {
    await p.getByLabel("Headline (en)").fill("Every story, every device");
    await p.getByLabel("Body (en)").fill("Monthly or yearly.");
  });
  await createOffer(page, NAME_B, ["Monthly"], async (p) => {
    await p.getByLabel("Coupon code").fill("welcome20");
    await p.getByLabel("Trial days").fill("7");
    await p.getByLabel("Headline (en)").fill("<b>20 % off</b> your first month");
    await p.getByLabel("Body (en)").fill("A week free, then 20 % off.");
  });
  await expect(page.getByRole("row").filter({ hasText: NAME_B })).toContainText("WELCOME20, 7-day trial");
  // Bad input: nothing saved, the field named.
  await page.getByRole("button", { name: "New offer" }).click();
  await page.getByTestId("offer-form").getByRole("button", { name: "Save offer" }).click();
  await expect(page.getByTestId("offer-form-error")).toContainText("name");
  await page.getByRole("button", { name: "Cancel" }).click();

  // The test: A against B, 50/50, subscriptions started, registered readers.
  await page.goto("/admin/subscriptions/offer-tests");
  await page.getByRole("button", { name: "New test" }).click();
  await page.getByLabel("Test name").fill(TEST_NAME);
  await page.getByLabel("Offer A").selectOption({ label: NAME_A });
  await page.getByLabel("Offer B").selectOption({ label: NAME_B });
  await page.getByLabel("Readers in the test").selectOption("registered");
  await axeClean(page);
  await page.getByRole("button", { name: "Start test" }).click();
  await expect(page.getByRole("row").filter({ hasText: TEST_NAME })).toContainText("running");
  const experiment = (await trpcQuery<Experiment[]>(page.request, "offers.experiments", undefined)).find(
    (t) => t.name === TEST_NAME,
  )!;

  // A demo reader whose JWT id the hash puts in arm B.
  let email = "";
  for (let i = 0; !email; i++) {
    const candidate = `offer-${run}-${i}@example.com`;
    const minted = await page.request.post("/api/demo/reader-jwt?key=mh_pk_demo_public_client_key_local_only", {
      data: { email: candidate },
    });
    const { reader_id } = (await minted.json()) as { reader_id: string };
    if (assignArm(experiment.id, `u:${reader_id}`, 50) === "b") email = candidate;
  }
  await page.goto("/demo/paywall");
  await page.getByRole("main").getByRole("listitem").getByRole("link").first().click();
  await page.getByLabel("Demo reader e-mail").fill(email);
  await page.getByRole("button", { name: "Sign in" }).click();
  const demo = page.getByTestId("paywall-demo");
  await expect(demo).toHaveAttribute("data-access", "denied");
  const offer = page.getByTestId("paywall-offer");
  await expect(offer).toContainText("20 % off your first month");
  await expect(page.getByRole("button", { name: "Subscribe: Yearly" })).toHaveCount(0);
  await expect(page.locator("[data-testid^=plan-price-]")).toContainText(
    "7 days free, then $9.00 $7.20 per month with WELCOME20",
  );
  await axeClean(page);
  const preview = page.waitForRequest((r) => r.url().includes("/subscriptions/preview") && r.method() === "POST");
  const created = page.waitForResponse(
    (r) => r.url().includes("/api/access/v1/members/me/subscriptions?") && r.request().method() === "POST",
  );
  await page.getByRole("button", { name: "Subscribe: Monthly" }).click();
  const sent = JSON.stringify((await preview).postDataJSON());
  expect(sent).toContain('"exposure_id"');
  expect(sent).toContain('"coupon_code":"WELCOME20"');
  expect(sent).toContain('"trial_period_length":7');
  await page.getByRole("dialog", { name: "Test payment" }).getByRole("button", { name: "Pay (test)" }).click();
  expect((await created).status()).toBe(201);
  await expect(demo).toHaveAttribute("data-grant-reason", "SUBSCRIBER");

  // The owner's result: B has the subscription; the difference with its 95 % interval; stop.
  for (const viewport of [DESKTOP, PHONE]) {
    await page.setViewportSize(viewport);
    await page.goto("/admin/subscriptions/offer-tests");
    await page.getByRole("button", { name: `Result of ${TEST_NAME}` }).click();
    const result = page.getByTestId("test-result");
    await expect(result.getByRole("row").filter({ hasText: `B: ${NAME_B}` })).toContainText("1");
    await expect(page.getByTestId("test-difference")).toContainText("95 % interval");
    await axeClean(page);
    await expectNoHorizontalPageScroll(page);
  }
  await page.getByRole("button", { name: "Stop test" }).click();
  await expect(page.getByTestId("test-result")).toContainText("stopped by an owner");
  await page.goto("/admin/subscriptions/offers");
  await expect(page.getByRole("row").filter({ hasText: NAME_B })).toBeVisible();
  await axeClean(page);
  await expectNoHorizontalPageScroll(page);
});
