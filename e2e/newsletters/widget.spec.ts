/**
 * The newsletter sign-up widget on a publisher's page of another origin (docs/widgets.md
 * "Newsletter sign-up"), at 1440 and 390 px with axe: the page names one newsletter; a reader types
 * an address and subscribes; the frame says a confirmation link was sent; the confirmation mail is
 * in the Outbox (double opt-in).
 */
import { demoAccount, expect, expectNoHorizontalPageScroll, seriousViolations, test, trpcQuery } from "../fixtures";
import { LOADER_STUB, MASTHEAD, publisherSite } from "../widgets/host-page";
import { createNewsletter, GAZETTE, SIZES } from "./fixtures";

function newsletterPage(accountId: number, slug: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>A story with a newsletter sign-up</title></head><body style="margin:0;padding:8px;font-family:sans-serif">
<h1>A story</h1>
<div id="newsletter" data-masthead-account-id="${accountId}" data-masthead-host="${MASTHEAD}" data-masthead-newsletter="${slug}"></div>
<script>${LOADER_STUB}
talktype(function () { talktype.newsletterWidgetIframe(document.getElementById("newsletter")); });
</script>
<script src="${MASTHEAD}/widgets/v1/loader.js" async></script>
</body></html>`;
}

test.describe("the newsletter sign-up widget", () => {
  const run = Date.now().toString(36);
  let site: Awaited<ReturnType<typeof publisherSite>>;

  test.beforeAll(async () => {
    site = await publisherSite(71, {
      "/story.html": (url) => newsletterPage(demoAccount().accountId, url.searchParams.get("n") ?? ""),
    });
  });
  test.afterAll(async () => {
    await site.close();
  });

  for (const size of SIZES) {
    test(`a reader subscribes from a publisher's page (${size.name})`, async ({ page, signIn, users }) => {
      const slug = `widget-${size.name}-${run}`;
      const name = `Widget News ${size.name} ${run}`;
      await signIn(users.owner);
      await createNewsletter(page.request, { name, slug, sender: GAZETTE });
      await page.setViewportSize({ width: size.width, height: size.height });
      await page.goto(`${site.origin}/story.html?n=${slug}`);
      const frame = page.frameLocator("#newsletter iframe");
      await expect(frame.getByRole("heading", { name })).toBeVisible();
      const email = `widget.reader.${size.name}.${run}@example.com`;
      await frame.getByRole("textbox", { name: "Your e-mail", exact: true }).fill(email);
      await frame.getByRole("button", { name: "Subscribe", exact: true }).click();
      await expect(frame.getByRole("status")).toContainText("we have sent it a link to confirm");
      await expectNoHorizontalPageScroll(page, "the page with the widget");
      expect(await seriousViolations(page), "the widget").toEqual([]);

      const mails = await trpcQuery<{ items: { to: string; kind: string; subject: string }[] }>(
        page.request,
        "mail.list",
        {
          limit: 50,
        },
      );
      expect(mails.items.find((m) => m.to === email && m.kind === "newsletter.confirm")?.subject).toBe(
        `Confirm your subscription to ${name}`,
      );
    });
  }
});
