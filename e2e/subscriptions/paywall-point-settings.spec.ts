/**
 * Subscriptions → Paywall meter → Paywall point: an owner sets the default free elements (a bad
 * value refused before sending), the content API cuts a subscription story there for a caller
 * without the server key and serves it whole with it; the page passes axe at desktop and phone
 * widths. The setting is put back at the end (other specs read the demo stories).
 */
import { expect, expectNoHorizontalPageScroll, seriousViolations, test } from "../fixtures";

const DESKTOP = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };
const DEMO_SERVER_KEY = "mh_sk_demo_server_key_local_only_0000";

type Story = { id: string; access: string | null; "paywall-at": number | null; paywall?: { "free-elements": number } };

test("an owner sets the paywall point, and the content API cuts there", async ({ page, users, signIn }) => {
  await page.setViewportSize(DESKTOP);
  await signIn(users.owner);
  await page.goto("/admin/subscriptions/meter");
  const form = page.getByTestId("paywall-point-form");
  const field = form.getByLabel("Free elements of a story that sets no paywall point");
  await expect(field).toBeVisible();
  const before = await field.inputValue();
  await expect(form.getByLabel(/Its free part/)).toBeChecked();

  await field.fill("-1");
  await form.getByRole("button", { name: "Save paywall point" }).click();
  await expect(form.getByTestId("field-error")).toBeVisible();
  await field.fill("2");
  await form.getByRole("button", { name: "Save paywall point" }).click();
  await expect(page.getByText("Saved: every kept answer is built again with these settings.")).toBeVisible();
  await page.reload();
  await expect(page.getByTestId("paywall-point-form").getByLabel(/Free elements/)).toHaveValue("2");
  expect(await seriousViolations(page)).toEqual([]);
  await page.setViewportSize(PHONE);
  await expectNoHorizontalPageScroll(page);
  expect(await seriousViolations(page)).toEqual([]);

  const list = (await (await page.request.get("/api/v1/stories?limit=100")).json()) as { stories: Story[] };
  const closed = list.stories.find((s) => s.access === "subscription" && s["paywall-at"] === null);
  // The demo's subscriber-only stories set no point of their own.
  expect(closed).toBeDefined();
  expect(closed!.paywall?.["free-elements"]).toBe(2);
  const whole = (await (
    await page.request.get(`/api/v1/stories/${closed!.id}`, { headers: { "X-SUBAUTH": DEMO_SERVER_KEY } })
  ).json()) as { story: Story };
  expect(whole.story.paywall).toBeUndefined();

  await page.setViewportSize(DESKTOP);
  await page
    .getByTestId("paywall-point-form")
    .getByLabel(/Free elements/)
    .fill(before);
  await page.getByTestId("paywall-point-form").getByRole("button", { name: "Save paywall point" }).click();
  await expect(page.getByText("Saved: every kept answer is built again with these settings.")).toBeVisible();
});
