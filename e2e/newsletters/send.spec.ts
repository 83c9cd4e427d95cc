/**
 * Sending a story as a newsletter (docs/newsletters.md "Sending") at 1440 and 390 px, with axe:
 * the owner (who passes every editor check, and alone reads the Outbox) makes a newsletter with one
 * subscribed reader (the app's own tRPC calls; the reader confirms from the mail when pending), opens a published story in the editor, sends a test
 * to their own address from the Newsletter panel and finds it in the Outbox, then sends the story to
 * the newsletter after the confirmation that names one reader and shows the mail as readers get it,
 * and sees the send listed as sent in the panel and on the Sends page. While the site URL is unset
 * (the demo's Masthead address) Send is not offered and the panel says where to set it.
 */
import { expect, test, trpcCall, trpcQuery } from "../fixtures";
import { createNewsletter, expectCleanPage, setSiteUrl, SIZES } from "./fixtures";

for (const size of SIZES) {
  test.describe(`on a ${size.name} (${size.width} px)`, () => {
    test.use({ viewport: { width: size.width, height: size.height } });
    // The site URL this test set, put back after it even when it fails or times out (other specs,
    // the widgets' frame-ancestors among them, read the account's hosts).
    let siteUrlBefore: string | null = null;
    test.afterEach(async ({ page }) => {
      if (siteUrlBefore === null) return;
      await setSiteUrl(page.request, siteUrlBefore);
      siteUrlBefore = null;
    });

    test("an editor sends a test, then sends the story to a newsletter", async ({ page, signIn, users }) => {
      const run = `${size.name}-${Date.now().toString(36)}`;
      await signIn(users.owner);

      const newsletterName = `Send check ${run}`;
      const newsletter = await createNewsletter(page.request, {
        name: newsletterName,
        slug: `send-${run}`,
        trackOpens: false,
      });
      const reader = `send-${run}@example.com`;
      const added = await trpcCall<{ status: string }>(page.request, "newsletters.addSubscriber", {
        newsletterId: newsletter.id,
        email: reader,
        name: "Send Reader",
      });
      if (added.status === "PENDING") {
        // A new address waits for its confirmation: the reader follows the mail's link.
        let text = "";
        await expect(async () => {
          const list = await trpcQuery<{ items: { to: string; kind: string; text: string }[] }>(
            page.request,
            "mail.list",
            { limit: 50 },
          );
          text = list.items.find((m) => m.to === reader && m.kind === "newsletter.confirm")?.text ?? "";
          expect(text).not.toBe("");
        }).toPass({ timeout: 15_000 });
        const confirmLink = /(https?:\/\/\S+\/newsletters\/confirm\/\S+)/.exec(text)![1]!;
        await page.goto(new URL(confirmLink).pathname);
        await page.getByRole("button", { name: "Confirm subscription", exact: true }).click();
        await expect(page.getByRole("heading", { name: "You are subscribed" })).toBeVisible();
      }
      // A published story: the newest one the content API lists.
      const stories = (await (await page.request.get("/api/v1/stories?limit=1")).json()) as {
        stories: { id: string; headline: string }[];
      };
      const story = stories.stories[0]!;

      await page.goto(`/admin/content/stories/${story.id}`);
      const panel = page.getByTestId("story-newsletter-panel");
      await expect(panel).toBeVisible();
      await panel.getByLabel(newsletterName, { exact: true }).check();
      const subject = `Newsletter ${run}`;
      await panel.getByLabel("Subject (optional)", { exact: true }).fill(subject);
      // A test goes to the account's staff only: the signed-in owner's own address.
      const staff = users.owner.email;
      await panel.getByLabel("Test addresses", { exact: true }).fill(staff);
      await panel.getByRole("button", { name: "Send test", exact: true }).click();
      await expect(panel.getByTestId("newsletter-send-message")).toHaveText("Test sent to 1 address: see the Outbox.");
      await expectCleanPage(page, "the story editor with the Newsletter panel");

      await page.goto("/admin/mail");
      await expect(page.getByRole("main").getByText(staff).first()).toBeVisible();
      await expect(page.getByText(`[Test] ${subject}`).first()).toBeVisible();

      // No site URL yet: the story's link in the mail would lead nowhere, so Send is not offered.
      await page.goto(`/admin/content/stories/${story.id}`);
      await expect(panel.getByTestId("newsletter-site-url-missing")).toContainText("Settings → Site");
      await expect(panel.getByRole("link", { name: "Settings → Site" })).toHaveAttribute("href", "/admin/settings");
      await expect(panel.getByRole("button", { name: "Send", exact: true })).toHaveCount(0);
      await expectCleanPage(page, "the Newsletter panel without a site URL");
      siteUrlBefore = await setSiteUrl(page.request, "https://www.gazette.example");
      await page.goto(`/admin/content/stories/${story.id}`);
      await panel.getByLabel(newsletterName, { exact: true }).check();
      await panel.getByLabel("Subject (optional)", { exact: true }).fill(subject);
      await panel.getByRole("button", { name: "Send", exact: true }).click();
      const dialog = page.getByRole("dialog");
      await expect(dialog.getByRole("heading", { name: "Send to 1 reader?", exact: true })).toBeVisible();
      // The mail as readers get it, before it goes: the headline and the link to the story on the site.
      const mail = dialog.frameLocator('[data-testid="newsletter-mail-preview"]');
      await expect(mail.getByText(story.headline).first()).toBeVisible();
      await expect(mail.locator('a[href^="https://www.gazette.example/"]').first()).toBeAttached();
      await expectCleanPage(page, "the send confirmation");
      await dialog.getByRole("button", { name: "Send", exact: true }).click();
      await expect(panel.getByTestId("newsletter-send-message")).toHaveText("Sending: the send is listed below.");
      const sends = panel.getByTestId("story-sends");
      await expect(sends).toContainText(newsletterName);

      // The job engine sends it (the log transport in the test app): listed as sent.
      await page.goto("/admin/newsletters/sends");
      await expect(page.getByRole("heading", { name: "Sends", exact: true }).first()).toBeVisible();
      const row = page.getByTestId("send-row").filter({ hasText: subject });
      await expect(row).toHaveAttribute("data-status", "SENT", { timeout: 30_000 });
      await expect(row).toContainText(newsletterName);
      await expectCleanPage(page, "the Sends page");
    });
  });
}
