/**
 * The readers' self-service page (/member/subscriptions, docs/subscriptions.md "Self-service
 * page") at 1440 and 390 px, with axe on each step: a subscriber signs in on the hosted login
 * page and lands on it, changes plan after reading the preview in words, cancels with a reason,
 * and takes the cancel back; the server API agrees at the end. A subscriber paying through the
 * demo's test gateway (a stored card) reads the prorated preview of a switch to Yearly and
 * confirms it: charged now, Yearly from today.
 */
import type { APIRequestContext } from "@playwright/test";

import { expect, expectCleanPage, seriousViolations, submitSignIn, test, trpcCall, VIEWPORTS } from "../fixtures";
import { SERVER_KEY, subscribeMonthly } from "../subscriptions";

const REVENUE = { email: "revenue@demo.masthead.test", password: "masthead-demo-revenue" };
const CLIENT_KEY = "mh_pk_demo_public_client_key_local_only";
for (const size of VIEWPORTS) {
  test.describe(`the self-service page on a ${size.name}`, () => {
    test.use({ viewport: { width: size.width, height: size.height } });

    test("a subscriber changes plan after the preview, cancels with a reason, and undoes it", async ({
      page,
      request,
    }) => {
      const email = `subscriber.${size.name}.${Date.now()}@example.com`;
      const password = "a long enough password";
      const signup = await request.post("/api/auth/v1/signup", {
        data: { name: "Sam Subscriber", email, password, "dont-login": true },
      });
      expect(signup.status()).toBe(201);
      await subscribeMonthly(request, email);

      // Signed out: the page asks to sign in, and the hosted login brings the reader back.
      await page.goto("/member/subscriptions");
      await expect(page.getByRole("heading", { name: "Your subscriptions", level: 1 })).toBeVisible();
      await page.getByRole("link", { name: "Sign in" }).click();
      await expect(page).toHaveURL(/\/member\/login\?return_to=%2Fmember%2Fsubscriptions/);
      await page.getByLabel("E-mail").fill(email);
      await page.getByLabel("Password").fill(password);
      await page.getByRole("button", { name: "Sign in" }).click();
      await expect(page).toHaveURL(/\/member\/subscriptions$/);

      const card = page.getByTestId("subscription-card").filter({ hasText: "Monthly" });
      await expect(card.getByRole("heading", { name: "Monthly" })).toBeVisible();
      await expect(card.getByText("Active", { exact: true })).toBeVisible();
      await expect(card.getByTestId("subscription-summary")).toContainText("Next payment: $9.00 on");
      await expectCleanPage(page, "the subscriptions");

      // Change plan: the preview says what happens, in words, before the confirm.
      await card.getByRole("button", { name: "Change plan" }).click();
      await card.getByLabel("New plan").selectOption({ label: "Yearly: $90.00 per year" });
      await card.getByRole("button", { name: "Preview change" }).click();
      const preview = card.getByTestId("switch-preview");
      // Paid by hand (manual): nobody charges a stored card, so the switch waits for the period end.
      await expect(preview).toContainText("Nothing to pay now. You keep your current plan until");
      await expect(preview).toContainText("from then you pay $90.00 per year for Yearly.");
      await expectCleanPage(page, "the switch preview");
      await card.getByRole("button", { name: "Confirm change" }).click();
      await expect(card.getByRole("status")).toContainText("Done: your plan changes to Yearly on");
      await expect(card).toContainText("Changing to Yearly on");

      // Cancel with a reason.
      await card.getByRole("button", { name: "Cancel subscription" }).click();
      const form = card.getByTestId("cancel-form");
      await form.getByRole("button", { name: "Confirm cancellation" }).click();
      await expect(form).toContainText("Choose a reason.");
      await form.getByLabel("It costs too much").check();
      await form.getByLabel("Anything else you want to tell us?").fill("Too many subscriptions this year.");
      await expectCleanPage(page, "the cancel form");
      await form.getByRole("button", { name: "Confirm cancellation" }).click();
      await expect(card.getByRole("status")).toContainText("Cancelled: you keep access until the end of the period");
      await expect(card.getByText("Cancelling", { exact: true })).toBeVisible();
      await expect(card.getByTestId("subscription-summary")).toContainText("Cancelled: you keep access until");
      await expectCleanPage(page, "cancelled");

      // Undo before the period ends.
      await card.getByRole("button", { name: "Keep my subscription" }).click();
      await expect(card.getByRole("status")).toContainText("Your subscription continues");
      await expect(card.getByText("Active", { exact: true })).toBeVisible();
      await expect(card.getByRole("button", { name: "Keep my subscription" })).toHaveCount(0);
      await expectCleanPage(page, "undone");

      // The server API sees the same subscription: active, not cancelled, Yearly scheduled.
      const list = await request.get(`/api/v1/subscribers/email/${encodeURIComponent(email)}/subscriptions.json`, {
        headers: { "X-SUBAUTH": SERVER_KEY },
      });
      const body = (await list.json()) as {
        subscriptions: { status: string; cancelled: boolean; plan_name: string }[];
      };
      expect(body.subscriptions).toEqual([
        expect.objectContaining({ status: "active", cancelled: false, plan_name: "Monthly" }),
      ]);
    });
  });
}

/**
 * A demo reader (its JWT) with a Monthly subscription paid through demo_test, whose renewals the
 * lifecycle charges to the stored card; returns the reader's JWT.
 */
async function cardSubscriber(request: APIRequestContext, email: string): Promise<string> {
  const minted = await request.post(`/api/demo/reader-jwt?key=${CLIENT_KEY}`, { data: { email } });
  expect(minted.status(), await minted.text()).toBe(200);
  const { accesstype_jwt: jwt } = (await minted.json()) as { accesstype_jwt: string };
  const groups = (await (await request.get(`/api/v1/subscription_groups.json?key=${CLIENT_KEY}`)).json()) as {
    subscription_groups: { name: string; subscription_plans: { id: number; title: string }[] }[];
  };
  const monthly = groups.subscription_groups
    .find((g) => g.name === "Digital access")!
    .subscription_plans.find((p) => p.title === "Monthly")!;
  const q = `key=${CLIENT_KEY}&accesstype_jwt=${jwt}`;
  const subscription = {
    subscription_plan_id: monthly.id,
    payment: { payment_type: "demo_test", amount_currency: "USD" },
    trial_period: false,
  };
  const preview = await request.post(`/api/access/v1/members/me/subscriptions/preview?${q}`, {
    data: { subscription },
  });
  expect(preview.status(), await preview.text()).toBe(200);
  const previewed = (await preview.json()) as {
    attempt_token: string;
    external_reference_id: string;
    subscription: { payment_amount_cents: number };
  };
  const created = await request.post(`/api/access/v1/members/me/subscriptions?${q}`, {
    data: {
      subscription: {
        ...subscription,
        payment: {
          ...subscription.payment,
          amount_cents: previewed.subscription.payment_amount_cents,
          payment_token: previewed.external_reference_id.replace(/^demo_order_/, "demo_pay_"),
        },
      },
      attempt_token: previewed.attempt_token,
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  return jwt;
}

for (const size of VIEWPORTS) {
  test(`a card subscriber reads the prorated preview of a switch, then switches now (${size.name})`, async ({
    page,
  }) => {
    await page.setViewportSize({ width: size.width, height: size.height });
    const jwt = await cardSubscriber(page.request, `prorated.${size.name}.${Date.now()}@example.com`);
    // The publisher's reader opens the page with its JWT (the fragment is exchanged for a session).
    await page.goto(`/member/subscriptions#key=${CLIENT_KEY}&jwt=${jwt}`);
    // This reader's one subscription (the card keeps its place when the plan changes).
    const card = page.getByTestId("subscription-card");
    await expect(card.getByRole("heading", { name: "Monthly" })).toBeVisible();
    await expect(card).toHaveCount(1);
    await expect(card.getByTestId("subscription-summary")).toContainText("Next payment: $9.00 on");

    await card.getByRole("button", { name: "Change plan" }).click();
    await card.getByLabel("New plan").selectOption({ label: "Yearly: $90.00 per year" });
    await card.getByRole("button", { name: "Preview change" }).click();
    const preview = card.getByTestId("switch-preview");
    // Another billing interval: a year of Yearly from today, less the unused part of this month, charged now.
    await expect(preview).toHaveText(
      /You pay \$8\d\.\d\d now \(\$90\.00 for 1 year of Yearly, less \$\d\.\d\d for the unused part of your plan\), and Yearly starts today; your next charge of \$90\.00 is on \d{1,2} \w{3} \d{4}, \d{2}:\d{2} \S+\./,
    );
    await expectCleanPage(page, "the prorated switch preview");
    await card.getByRole("button", { name: "Confirm change" }).click();
    await expect(card.getByRole("status")).toContainText("Done: you are now on Yearly.");
    await expect(card.getByRole("heading", { name: "Yearly" })).toBeVisible();
    await expect(card.getByTestId("subscription-summary")).toContainText("Next payment: $90.00 on");
    await expectCleanPage(page, "switched now");
  });
}

test("revenue staff set a retention offer; a subscriber takes it instead of cancelling", async ({
  browser,
  page,
  request,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  // Revenue staff, in their own browser context: the demo's WELCOME20 coupon off the next 2 payments.
  const staff = await browser.newContext();
  const staffPage = await staff.newPage();
  try {
    await staffPage.goto("/admin/sign-in");
    await submitSignIn(staffPage, REVENUE);
    await expect(staffPage).toHaveURL(/\/admin$/);
    await staffPage.goto("/admin/subscriptions/retention");
    const form = staffPage.getByTestId("retention-offer-form");
    await form.getByLabel("Make an offer on the cancel form of the self-service page").check();
    await form.getByLabel("Offer", { exact: true }).selectOption({ label: "A coupon off the next payments" });
    await form.getByLabel("Coupon", { exact: true }).selectOption({ label: "WELCOME20 – 20 % off your first month" });
    await form.getByLabel("Discounted payments").fill("2");
    await form.getByRole("button", { name: "Save offer" }).click();
    await expect(staffPage.getByText("Saved: the next cancel form shows this offer.")).toBeVisible();
    expect(await seriousViolations(staffPage)).toEqual([]);

    const email = `keeper.${Date.now()}@example.com`;
    const password = "a long enough password";
    expect(
      (await request.post("/api/auth/v1/signup", { data: { email, password, "dont-login": true } })).status(),
    ).toBe(201);
    await subscribeMonthly(request, email);
    await page.goto("/member/login?return_to=%2Fmember%2Fsubscriptions");
    await page.getByLabel("E-mail").fill(email);
    await page.getByLabel("Password").fill(password);
    await page.getByRole("button", { name: "Sign in" }).click();
    const card = page.getByTestId("subscription-card").filter({ hasText: "Monthly" });
    await card.getByRole("button", { name: "Cancel subscription" }).click();
    const offer = card.getByTestId("retention-offer");
    await expect(offer).toHaveText(/Stay and get 20% off your next 2 payments\./);
    await card.getByLabel("It costs too much").check();
    await offer.getByRole("button", { name: "Accept the offer" }).click();
    await expect(card.getByRole("status")).toContainText("Thank you for staying");
    await expect(card.getByText("Active", { exact: true })).toBeVisible();
    await expect(card).toContainText("$7.20 per month");

    // Staff see why the reader meant to leave, and what came of it.
    await staffPage.reload();
    const reasons = staffPage.getByRole("region", { name: "Cancellations table" });
    await expect(reasons).toContainText("It costs too much");
    await expect(reasons).toContainText("Took the offer");
  } finally {
    // Leave the demo account without an offer for the other specs.
    await trpcCall(staffPage.request, "retentionOffer.update", { kind: "pause", periods: 1, enabled: false });
    await staff.close();
  }
});

test("a new reader who signs up lands on their account page", async ({ page }) => {
  await page.goto("/member/signup");
  await page.getByLabel("Name").fill("New Reader");
  await page.getByLabel("E-mail").fill(`new.reader.${Date.now()}@example.com`);
  await page.getByLabel("Password").fill("a long enough password");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page).toHaveURL(/\/member\/subscriptions$/);
  await expect(page.getByRole("heading", { name: "Your subscriptions", level: 1 })).toBeVisible();
});
