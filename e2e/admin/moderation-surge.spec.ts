/**
 * A surge end to end: readers' comments pile up on one page (toxic ones, held, posted through the
 * REST API with JWTs signed with the demo account's shared key); a moderator turns surges on in
 * the moderation settings (pre-moderation, from 3 pending comments), which has the surge watch
 * look at the account at once (the job runner, woken by the commit); the page switches itself to
 * pre-moderation: comment_rules.json and the comment widget say so before anyone writes, a new
 * comment is held, and the moderation page lists the page in surge. Turning surges off ends it
 * (and leaves the demo account as it was). At desktop and phone sizes, with axe-core.
 */
import type { APIRequestContext } from "@playwright/test";

import { pageIdOf, postComment, readerJwt } from "../comments";
import { atEachViewport, demoAccount, expect, expectCleanPage, test, trpcCall } from "../fixtures";

// Few posts: the comment create is limited to 30 a minute per IP, and other specs post from the same one.
const PENDING_MIN = 3;
const SURGE_LINE = "Comments on this page are being reviewed before they appear while moderators catch up.";

type Rules = { comment_mode: string; slow_mode_seconds: number; surge: { reason: string; action: string } | null };

async function rulesOf(request: APIRequestContext, accountId: number, b64: string): Promise<Rules> {
  const res = await request.get(`/api/v1/accounts/${accountId}/pages/${b64}/comment_rules.json`);
  expect(res.status()).toBe(200);
  return (await res.json()) as Rules;
}

atEachViewport((viewport) => {
  test("a page whose comments outrun the moderators switches itself to pre-moderation, and the widget says so", async ({
    page,
    request,
    users,
    signIn,
  }) => {
    const { accountId, jwtSecret } = demoAccount();
    const stamp = `${viewport.name}${Date.now().toString(36)}`;
    const url = `https://localhost/news/surge-${stamp}`;
    const b64 = pageIdOf(url);

    // Three held comments on the page within a minute, none decided.
    for (let i = 0; i < PENDING_MIN; i++) {
      const jwt = await readerJwt({ id: `crowd-${stamp}-${i}`, name: `Crowd ${i}` }, jwtSecret);
      const res = await postComment(request, accountId, b64, `you idiot, the budget ${stamp} is wrong (${i})`, jwt);
      expect(res.status(), await res.text()).toBe(201);
    }
    expect((await rulesOf(request, accountId, b64)).surge).toBeNull();

    await signIn(users.moderator);
    try {
      // Surges on, in the moderation settings.
      await page.goto("/admin/engagement/settings");
      const form = page.getByRole("form", { name: "Shifts and surges" });
      await expect(form.getByRole("heading", { name: "Surges" })).toBeVisible();
      await form.getByLabel("Hold every new comment for a moderator").check();
      await form.getByLabel("Pending comments on a page").fill(String(PENDING_MIN));
      await form.getByRole("button", { name: "Save shifts and surges" }).click();
      await expect(form.getByText(/^Saved: /)).toBeVisible();
      await expectCleanPage(page, page.url());

      // The watch ran on the commit: the page is in surge, the page's own rules untouched.
      await expect
        .poll(async () => (await rulesOf(request, accountId, b64)).surge, { timeout: 20_000 })
        .toMatchObject({ reason: "queue", action: "pre_moderation" });
      expect((await rulesOf(request, accountId, b64)).comment_mode).toBe("pre_moderation");

      // The widget says so before anyone writes, where the comment box is.
      await page.goto(`/embed/${accountId}/comments?page_url=${encodeURIComponent(url)}`);
      const line = page.getByText(SURGE_LINE);
      await expect(line).toBeVisible();
      await expect(page.locator("#page-rules")).toHaveText(SURGE_LINE);
      await expectCleanPage(page, page.url());

      // A new comment from a reader in good standing is held.
      const jwt = await readerJwt({ id: `calm-${stamp}`, name: `Calm ${stamp}` }, jwtSecret);
      const held = await postComment(request, accountId, b64, `A measured view of the budget ${stamp}.`, jwt);
      expect(held.status()).toBe(201);
      expect(((await held.json()) as { comment: { is_published: boolean } }).comment.is_published).toBe(false);

      // The moderation page lists the page in surge.
      await page.goto("/admin/engagement/moderation");
      await expect(page.getByRole("heading", { name: "Pages in surge" })).toBeVisible();
      const row = page.getByTestId("surge").filter({ hasText: `surge-${stamp}` });
      await expect(row).toHaveCount(1);
      await expect(row).toContainText("Comments arrive faster than they are cleared");
      await expect(row).toContainText("Every new comment held");
      await expect(page.getByRole("heading", { name: "Moderation figures" })).toBeVisible();
      await expect(page.getByRole("region", { name: "Queue age and time to decision" })).toBeVisible();
      await expectCleanPage(page, page.url());
    } finally {
      // Surges off again: the open surges end at once, and the demo account is as it was.
      await trpcCall(page.request, "moderationSurges.updateSettings", { surgeAction: "off", surgePendingMin: 20 });
    }
    await expect.poll(async () => (await rulesOf(request, accountId, b64)).surge, { timeout: 20_000 }).toBeNull();
    await page.goto(`/embed/${accountId}/comments?page_url=${encodeURIComponent(url)}`);
    await expect(page.getByRole("heading", { name: /comments?$/ })).toBeVisible();
    await expect(page.locator("#page-rules")).toHaveCount(0);
  });
});
