/**
 * Revenue staff find a subscriber the publisher's back end registered through the server API
 * (X-SUBAUTH, the demo server key) among all members (not among paying subscribers: they never
 * paid), and see its identities, at desktop and phone sizes.
 */
import fs from "node:fs";

import {
  atEachViewport,
  expect,
  expectNoHorizontalPageScroll,
  openFilters,
  seriousViolations,
  test,
} from "../fixtures";

const SERVER_KEY = "mh_sk_demo_server_key_local_only_0000";

atEachViewport((viewport) => {
  test("a subscriber added by the server API is found by e-mail and by identity", async ({
    page,
    request,
    signIn,
    users,
  }) => {
    const tag = `${viewport.name}-${Date.now()}`;
    const email = `e2e-${tag}@example.com`;
    const res = await request.post(
      `/api/v1/subscribers/email/${encodeURIComponent(email)}/subscriber_identities.json`,
      {
        headers: { "X-SUBAUTH": SERVER_KEY },
        data: { subscriber_identity: { provider: "platform", value: `plat-${tag}` } },
      },
    );
    expect(res.status(), await res.text()).toBe(200);

    await signIn(users.owner);
    await page.goto("/admin/subscriptions/subscribers");
    await expect(page.getByRole("heading", { name: "Subscribers", level: 1 })).toBeVisible();
    // On a phone the search and "who" sit behind the Filters button, so the list starts on the first screen.
    const filters = page.getByTestId("filter-disclosure").getByRole("button", { name: /^Filters/ });
    if (viewport.name === "phone") {
      await expect(page.getByLabel("Search subscribers")).toBeHidden();
      await expect(filters).toHaveAttribute("aria-expanded", "false");
    } else {
      await expect(filters).toBeHidden();
    }
    await openFilters(page);
    await page.getByLabel("Search subscribers").fill(`plat-${tag}`);
    const results = page.getByTestId("subscriber-results");
    // Registered, never subscribed: not among paying subscribers (the default), listed among all members.
    await expect(page.getByText(`No subscriber matches`)).toBeVisible();
    await page.getByLabel("All members").check();
    if (viewport.name === "phone") await expect(filters).toHaveText("Filters (2 on)");
    await expect(results.getByRole("button")).toHaveCount(1);
    await expect(results).toContainText(email);
    await expect(results).toContainText("Never subscribed");
    expect(await seriousViolations(page)).toEqual([]);
    // The list as a spreadsheet: every member, this one among them.
    const downloading = page.waitForEvent("download");
    await page.getByRole("link", { name: "Download all members (CSV)" }).click();
    const csv = await downloading;
    expect(csv.suggestedFilename()).toMatch(/^subscribers-\d{4}-\d\d-\d\d\.csv$/);
    const text = fs.readFileSync(await csv.path(), "utf8");
    expect(text.split("\r\n")[0]).toBe("\uFEFFsubscriber_id,name,email,standing,identities,created_at");
    expect(text).toContain(`${email},none,email:${email} platform:plat-${tag}`);
    await results.getByRole("button").click();
    const detail = page.getByTestId("subscriber-identities");
    await expect(detail).toContainText(email);
    await expect(detail).toContainText(`plat-${tag}`);
    await expect(page.getByTestId("subscriber-detail")).toContainText("No metadata set.");
    await expectNoHorizontalPageScroll(page);

    await page.getByLabel("Search subscribers").fill(`nobody-${tag}`);
    await expect(page.getByText(`No member matches`)).toBeVisible();
  });
});
