/**
 * Newsletter stats (docs/newsletters.md "Measuring") at 1440 and 390 px, with axe on each page:
 * the owner creates a newsletter and a reader on it, sends a published story to it (the app's own
 * tRPC calls, as the dashboard makes them); the newsletter's stats page shows the send in its chart
 * (the chart's numbers) and in the sends table, its CSV downloads with the send's row, and the
 * send's page shows how far its mails got and downloads its mails as CSV.
 */
import fs from "node:fs/promises";

import { expect, test, trpcCall } from "../fixtures";
import { createNewsletter, expectCleanPage, setSiteUrl, SIZES } from "./fixtures";

for (const size of SIZES) {
  test.describe(`on a ${size.name} (${size.width} px)`, () => {
    test.use({ viewport: { width: size.width, height: size.height } });

    test("the newsletter's stats show a send in the chart and the table, and download as CSV", async ({
      page,
      signIn,
      users,
    }, testInfo) => {
      const run = `${size.name}-${Date.now().toString(36)}`;
      await signIn(users.owner);

      const stories = (await (await page.request.get("/api/v1/stories?limit=1")).json()) as {
        stories: { id: string }[];
      };
      const storyId = stories.stories[0]!.id;
      const newsletter = await createNewsletter(page.request, {
        name: `Stats ${run}`,
        slug: `stats-${run}`,
        trackOpens: true,
      });
      await trpcCall(page.request, "newsletters.addSubscriber", {
        newsletterId: newsletter.id,
        email: `stats-${run}@example.com`,
        name: "Stats Reader",
      });
      const subject = `Stats check ${run}`;
      // Story mails link to the story on the site: sending needs the site URL set.
      const siteBefore = await setSiteUrl(page.request, "https://www.gazette.example");
      const sent = await trpcCall<{ sends: { id: number }[] }>(page.request, "newsletterSends.send", {
        storyId,
        newsletterIds: [newsletter.id],
        subject,
      }).finally(() => setSiteUrl(page.request, siteBefore));
      const sendId = sent.sends[0]!.id;

      await page.goto(`/admin/newsletters/${newsletter.id}/stats`);
      await expect(page.getByRole("heading", { name: "Stats", exact: true })).toBeVisible();
      const row = page.getByTestId(`send-row-${sendId}`);
      await expect(row).toContainText(subject);
      const chart = page.getByTestId("chart-sends");
      await expect(chart.getByRole("img", { name: /^Delivered, opened and clicked per send/ })).toBeVisible();
      await expect(chart).toContainText("1 send,");
      await chart.getByText("Show the numbers", { exact: true }).click();
      await expect(chart.getByRole("cell", { name: subject, exact: true })).toBeVisible();
      await expect(page.getByTestId("chart-subscribers")).toBeVisible();
      await expect(page.getByTestId("stat-figures")).toContainText("Subscriptions started");
      await expectCleanPage(page, `stats of newsletter ${newsletter.id}`);
      await page.screenshot({ path: testInfo.outputPath(`newsletter-stats-${size.name}.png`), fullPage: true });

      const [download] = await Promise.all([
        page.waitForEvent("download"),
        page.getByRole("link", { name: "Download CSV", exact: true }).click(),
      ]);
      const csv = await fs.readFile(await download.path(), "utf8");
      const lines = csv.replace(/^\uFEFF/, "").split("\r\n");
      expect(lines[0]).toMatch(/^send_id,subject,kind,status,sent_at_utc,recipients,delivered/);
      expect(lines.some((line) => line.startsWith(`${sendId},${subject},story,`))).toBe(true);

      await row.getByRole("link", { name: subject, exact: true }).click();
      await expect(page).toHaveURL(new RegExp(`/admin/newsletters/${newsletter.id}/stats/sends/${sendId}$`));
      await expect(page.getByRole("heading", { name: "Send stats", exact: true })).toBeVisible();
      await expect(page.getByTestId("chart-send-funnel")).toContainText("delivered");
      await expectCleanPage(page, `stats of send ${sendId}`);

      const mails = await page.request.get(`/api/admin/newsletters/${newsletter.id}/sends/${sendId}/deliveries.csv`);
      expect(mails.status()).toBe(200);
      expect(mails.headers()["content-type"]).toBe("text/csv; charset=utf-8");
      expect((await mails.text()).replace(/^\uFEFF/, "")).toMatch(/^email,status,sent_at_utc,opened_at_utc/);
    });
  });
}
