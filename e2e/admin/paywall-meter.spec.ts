/**
 * The paywall meter in the dashboard: a revenue user saves the meter (a bad value is refused
 * before sending), it is kept after a reload, and AMP's authorization endpoint answers the access
 * grant object with AMP's CORS headers for the demo publication when the site's first-party
 * endpoint forwards it with the server key (X-SUBAUTH), and 401 without it.
 */
import { expect, test } from "../fixtures";

const REVENUE = { email: "revenue@demo.masthead.test", password: "masthead-demo-revenue" };
const DEMO_CLIENT_KEY = "mh_pk_demo_public_client_key_local_only";
const DEMO_SERVER_KEY = "mh_sk_demo_server_key_local_only_0000";

test("a revenue user sets the paywall meter, and amp-access answers", async ({ page, signIn }, testInfo) => {
  await signIn(REVENUE);
  await page.goto("/admin/subscriptions/meter");
  await expect(page.getByRole("heading", { name: "Paywall meter", level: 1 })).toBeVisible();
  const form = page.getByTestId("paywall-meter-form");
  await form.getByLabel("Free stories per period").fill("-2");
  await form.getByRole("button", { name: "Save meter" }).click();
  await expect(form.getByTestId("field-error")).toBeVisible();
  await form.getByLabel("Free stories per period").fill("4");
  await form.getByLabel("Unit").selectOption("weeks");
  await form.getByRole("button", { name: "Save meter" }).click();
  await expect(page.getByText("Saved: the next page view uses these settings.")).toBeVisible();
  await page.reload();
  await expect(page.getByTestId("paywall-meter-form").getByLabel("Free stories per period")).toHaveValue("4");
  await expect(page.getByTestId("paywall-meter-form").getByLabel("Unit")).toHaveValue("weeks");
  await page.screenshot({ path: testInfo.outputPath("paywall-meter.png"), fullPage: true });

  const stories = (await (await page.request.get("/api/v1/stories?limit=1")).json()) as {
    stories: { id: string; access: string | null }[];
  };
  const story = stories.stories[0]!;
  const origin = new URL(page.url()).origin;
  const ampAccess = `/api/access/v1/stories/${story.id}/amp-access?key=${DEMO_CLIENT_KEY}&readerId=e2e-reader&accesstype_integration_id=1&__amp_source_origin=${encodeURIComponent(origin)}`;
  const direct = await page.request.get(ampAccess, { headers: { "AMP-Same-Origin": "true" } });
  expect(direct.status()).toBe(401);
  const response = await page.request.get(ampAccess, {
    headers: { "AMP-Same-Origin": "true", "X-SUBAUTH": DEMO_SERVER_KEY },
  });
  expect(response.status()).toBe(200);
  expect(response.headers()["amp-access-control-allow-source-origin"]).toBe(origin);
  const grant = (await response.json()) as { granted: boolean; grantReason: string | null; data: object };
  expect(grant).toMatchObject({ granted: true, data: { isLoggedIn: false, isLast: false } });
});
