/**
 * The widgets in each of the eight locales (docs/i18n.md "Choosing the locale", issue 59), at 1440
 * and 390 px: a publisher's page on another origin, in English, embeds the comment, contribution,
 * newsletter and feed widgets with `data-svc-locale` on their containers, and the login frame (the
 * member sign-in, in the browser's language). One load per locale, both widths on it: each frame's
 * `<html lang dir>` and computed direction are the locale's, nothing scrolls sideways or is cut off
 * in the page or any frame, axe finds nothing serious on the page and its frames, and right to left
 * the composer's text starts on the right, its send button sits on the inline end (left), and the
 * headings on the inline start (right).
 */
import type { Browser, Frame, Page } from "@playwright/test";

import { demoAccount, expect, seriousViolations, submitSignIn, test, trpcCall } from "../fixtures";
import { createNewsletter, GAZETTE } from "../newsletters/fixtures";
import { LOADER_STUB, MASTHEAD, publisherSite, readerJwt, signInReader } from "../widgets/host-page";
import {
  dirOf,
  expectLangDir,
  expectNothingCut,
  expectTextStartsAtStart,
  inlineOffsets,
  LOCALES,
  WIDTHS,
  type Locale,
} from "./checks";

const OWNER = { email: "owner@demo.masthead.test", password: "masthead-demo-owner" };

type Setup = { origin: string; newsletter: string; thread: string; authorize: string };

function widgetsPage(accountId: number, locale: string, setup: Omit<Setup, "origin">): string {
  const common = `data-masthead-account-id="${accountId}" data-masthead-host="${MASTHEAD}" data-svc-locale="${locale}"`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>A story in ${locale}</title></head><body style="margin:0;padding:8px;font-family:sans-serif">
<main><h1>A story</h1>
<div id="comments" ${common} data-masthead-page-url="${setup.thread}"></div>
<div id="ugc" ${common} data-masthead-topic-type="tag" data-masthead-topic-value="trains"></div>
<div id="newsletter" ${common} data-masthead-newsletter="${setup.newsletter}"></div>
<div id="login" data-svc-locale="${locale}"></div>
<div id="feed-metype-container" class="feed-iframe-container" ${common}><button type="button" id="metype-clickthru" aria-expanded="false">Activity</button></div>
</main>
<script>${LOADER_STUB}
talktype(function () {
  talktype.commentWidgetIframe(document.getElementById("comments"));
  talktype.contributionWidgetIframe(document.getElementById("ugc"));
  talktype.newsletterWidgetIframe(document.getElementById("newsletter"));
  talktype.feedWidgetIframe(document.getElementById("feed-metype-container"));
  talktype.formLoginIframe(document.getElementById("login"), ${JSON.stringify(setup.authorize)});
});
</script>
<script src="${MASTHEAD}/widgets/v1/loader.js" async></script>
</body></html>`;
}

async function asOwner<T>(browser: Browser, work: (page: Page) => Promise<T>): Promise<T> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.goto("/admin/sign-in");
    await submitSignIn(page, OWNER);
    await expect(page).toHaveURL(/\/admin$/);
    return await work(page);
  } finally {
    await context.close();
  }
}

function frameOf(page: Page, kind: string): Frame {
  const frame = page.frames().find((f) => f.url().includes(kind));
  if (!frame) throw new Error(`no ${kind} frame on ${page.url()}`);
  return frame;
}

/**
 * The frames have taken their new size: the loader sets each frame's height from the frame's
 * report, so wait until no iframe's size changes for 150 ms (at most 3 s). (Not requestAnimationFrame
 * inside the frames: Chromium does not paint cross-origin frames out of view, and it never fires.)
 */
async function settled(page: Page): Promise<void> {
  await page.evaluate(async () => {
    const sizes = () =>
      Array.from(document.querySelectorAll("iframe"))
        .map((f) => `${f.offsetWidth}x${f.offsetHeight}`)
        .join();
    let last = sizes();
    for (let i = 0; i < 20; i++) {
      await new Promise((r) => setTimeout(r, 150));
      const now = sizes();
      if (now === last) return;
      last = now;
    }
  });
}

/** The checks of one width on the loaded page: the page, then each frame. */
async function checkWidth(page: Page, locale: Locale, width: string): Promise<void> {
  const at = `${locale} at ${width} px`;
  await expectNothingCut(page, `the publisher's page (${at})`);
  for (const kind of ["/comments", "/ugc", "/newsletter", "/feed", "/member/login"]) {
    await test.step(`${kind} (${at})`, async () => {
      const frame = frameOf(page, kind);
      await expectLangDir(frame, "html", locale, `${kind} (${at})`);
      await expectNothingCut(frame, `${kind} (${at})`);
    });
  }
  for (const kind of ["/comments", "/ugc", "/newsletter"]) {
    const frame = frameOf(page, kind);
    // The composer: the text starts on the locale's start side; its send button on the row's inline end.
    await expectTextStartsAtStart(frame, "form.composer textarea, form.composer input[type=email]", locale, kind);
    const send = await inlineOffsets(frame, "form.composer .row button[type=submit]", ".row");
    expect.soft(send.direction, `${kind}: the row's direction (${at})`).toBe(dirOf(locale));
    expect
      .soft(Math.abs(send.end), `${kind}: the send button at the inline end (${at}) ${JSON.stringify(send)}`)
      .toBeLessThanOrEqual(2);
    const field = await inlineOffsets(
      frame,
      "form.composer textarea, form.composer input[type=email]",
      "form.composer",
    );
    expect.soft(Math.abs(field.start), `${kind}: the field from the inline start (${at})`).toBeLessThanOrEqual(2);
  }
  // Headings sit on the inline start: the comments' bar and the feed's title.
  const bar = await inlineOffsets(frameOf(page, "/comments"), ".bar h2, .bar h1", ".bar");
  expect.soft(Math.abs(bar.start), `the comments' heading at the inline start (${at})`).toBeLessThanOrEqual(2);
  const feed = await inlineOffsets(frameOf(page, "/feed"), ".bar h1", ".bar");
  expect.soft(Math.abs(feed.start), `the feed's heading at the inline start (${at})`).toBeLessThanOrEqual(2);
  expect.soft(await seriousViolations(page), `axe (${at})`).toEqual([]);
}

test.describe("the widgets in every locale", () => {
  const run = Date.now().toString(36);
  const setup: Setup = { origin: "", newsletter: `i18n-${run}`, thread: "", authorize: "" };
  let close: () => Promise<void> = () => Promise.resolve();

  test.beforeAll(async ({ browser }) => {
    test.setTimeout(60_000);
    const { accountId, jwtSecret } = demoAccount();
    const site = await publisherSite(81, {
      "/widgets.html": (url) => widgetsPage(accountId, url.searchParams.get("locale") ?? "en", setup),
    });
    close = site.close;
    setup.origin = site.origin;
    setup.thread = `${site.origin}/thread-${run}`;
    await asOwner(browser, async (page) => {
      await createNewsletter(page.request, {
        name: `Evening Post ${run}`,
        slug: setup.newsletter,
        description: "The day's stories at six.",
        sender: GAZETTE,
      });
      const created = await trpcCall<{ client: { clientId: string } }>(page.request, "oauthClients.create", {
        name: `Locale login ${run}`,
        redirectUris: [`${site.origin}/cb`],
      });
      const authorize = new URL(`${MASTHEAD}/oauth/authorize`);
      authorize.searchParams.set("client_id", created.client.clientId);
      authorize.searchParams.set("redirect_uri", `${site.origin}/cb`);
      authorize.searchParams.set("response_type", "code");
      authorize.searchParams.set("state", run);
      setup.authorize = authorize.href;
    });
    // One comment with a reply on the thread every locale's page shows: its actions, names and times.
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${site.origin}/widgets.html?locale=en`);
    const name = `Noor ${run}`;
    await signInReader(page, await readerJwt(jwtSecret, `noor-${run}`, name), name);
    const frame = page.frameLocator("#comments iframe");
    await frame.getByRole("textbox", { name: "Write a comment" }).fill(`الحافلة الليلية مهمة للعمال ${run}`);
    await frame.locator("form.composer").first().getByRole("button", { name: "Post" }).click();
    await expect(frame.locator("li.comment")).toHaveCount(1);
    await context.close();
  });

  test.afterAll(async () => {
    await close();
  });

  for (const locale of LOCALES) {
    // The login frame is a member page: its language is the browser's (Accept-Language).
    test.describe(locale, () => {
      test.use({ locale });
      test(`${locale}: comments, contributions, newsletter, feed and login at 1440 and 390 px`, async ({ page }) => {
        const { jwtSecret } = demoAccount();
        await page.setViewportSize(WIDTHS[0]);
        await page.goto(`${setup.origin}/widgets.html?locale=${locale}`);
        const name = `Reader ${locale} ${run}`;
        await signInReader(page, await readerJwt(jwtSecret, `reader-${locale}-${run}`, name), name);
        await page.evaluate(() =>
          (window as unknown as { talktype: { toggleButton: () => void } }).talktype.toggleButton(),
        );
        await expect(page.frameLocator("#comments iframe").locator("li.comment")).toHaveCount(1);
        await expect(page.frameLocator("#comments iframe").locator("form.composer textarea").first()).toBeVisible();
        await expect(page.frameLocator("#ugc iframe").locator("form.composer textarea").first()).toBeVisible();
        await expect(
          page.frameLocator("#newsletter iframe").locator("form.composer input[type=email]").first(),
        ).toBeVisible();
        await expect(page.frameLocator("#feed-metype-container iframe").locator(".bar h1").first()).toBeVisible();
        await expect(page.frameLocator("#login iframe").locator("form").first()).toBeVisible();
        for (const width of WIDTHS) {
          await page.setViewportSize(width);
          await settled(page);
          await checkWidth(page, locale, width.name);
        }
      });
    });
  }
});
