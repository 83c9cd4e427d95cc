/**
 * Reader mail in each of the eight locales (docs/i18n.md "Mail", issue 59), at 1440 and 390 px:
 * with the account's default locale set to each in turn (mail to a reader who never chose follows
 * it), a reply notification (reader A comments through the widgets' API, reader B replies) and a
 * dunning mail (a demo reader's renewal fails through the demo's test tool) are caused, read from
 * the outbox (`mail.html`), with a newsletter's confirmation and an issue as readers get it (its
 * preview), and their HTML parts are opened in the browser: `<html lang dir>` and
 * the outer table's are the locale's and the body lays out so, nothing scrolls sideways or is cut
 * off, axe finds nothing serious, and the text starts on the locale's side. The AMP story page,
 * which is in the account's default locale, is checked in each locale the same way. The account's
 * languages are put back afterwards.
 */
import type { APIRequestContext, Browser, Page } from "@playwright/test";

import { demoAccount, expect, seriousViolations, submitSignIn, test, trpcCall, trpcQuery } from "../fixtures";
import { createNewsletter, GAZETTE } from "../newsletters/fixtures";
import { subscribedReader } from "../subscriptions";
import { readerJwt } from "../widgets/host-page";
import {
  dirOf,
  expectLangDir,
  expectNothingCut,
  expectTextStartsAtStart,
  LOCALES,
  WIDTHS,
  type Locale,
} from "./checks";

const OWNER = { email: "owner@demo.masthead.test", password: "masthead-demo-owner" };

type Languages = { defaultLocale: Locale; offered: Locale[] };

let owner: { page: Page; close: () => Promise<void> } | null = null;
let before: Languages | null = null;

async function ownerPage(browser: Browser): Promise<Page> {
  if (owner) return owner.page;
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto("/admin/sign-in");
  await submitSignIn(page, OWNER);
  await expect(page).toHaveURL(/\/admin$/);
  owner = { page, close: () => context.close() };
  return page;
}

test.afterAll(async () => {
  if (owner && before) await trpcCall(owner.page.request, "languages.update", before);
  await owner?.close();
  owner = null;
});

/** A page id as the widgets' API reads it: URL-safe base64 of encodeURIComponent(url). */
function pageId(url: string): string {
  return Buffer.from(encodeURIComponent(url)).toString("base64url");
}

let newsletter: { id: number; slug: string } | null = null;

/** One opt-in newsletter of this run (made once). */
async function newsletterOf(ownerRequest: APIRequestContext, run: string): Promise<{ id: number; slug: string }> {
  if (newsletter) return newsletter;
  const slug = `i18n-mail-${run}`;
  const created = await createNewsletter(ownerRequest, {
    name: `Morning Note ${run}`,
    slug,
    description: "The morning's stories.",
    trackClicks: false,
    sender: GAZETTE,
  });
  newsletter = { id: created.id, slug };
  return newsletter;
}

/** Reader A (with an e-mail) comments on a fresh page, reader B replies: A is told at once. */
async function causeReply(request: APIRequestContext, locale: Locale, run: string): Promise<string> {
  const { accountId, jwtSecret } = demoAccount();
  const email = `reply-${locale.toLowerCase()}-${run}@example.com`;
  const a = await readerJwt(jwtSecret, `mail-a-${locale}-${run}`, `Amal ${locale}`, email);
  const b = await readerJwt(jwtSecret, `mail-b-${locale}-${run}`, `Bruno ${locale}`);
  const comments = `/api/v1/accounts/${accountId}/pages/${pageId(`http://localhost/mail-${locale}-${run}`)}/comments.json`;
  const first = await request.post(comments, {
    data: { jwt: a, comment: { body: { ops: [{ insert: `The night buses matter ${locale} ${run}\n` }] } } },
  });
  expect(first.status(), await first.text()).toBe(201);
  const parent = ((await first.json()) as { comment: { id: number | string } }).comment.id;
  const reply = await request.post(comments, {
    data: {
      jwt: b,
      comment: { body: { ops: [{ insert: `They do, every night ${locale} ${run}\n` }] }, parent_comment_id: parent },
    },
  });
  expect(reply.status(), await reply.text()).toBe(201);
  return email;
}

/** A demo reader with a Yearly subscription (the demo's test gateway) whose renewal then fails: the dunning mail. */
async function causeDunning(request: APIRequestContext, locale: Locale, run: string): Promise<string> {
  const email = `dunning-${locale.toLowerCase()}-${run}@example.com`;
  const { q } = await subscribedReader(request, email);
  let failed = await request.post(`/api/demo/failed-renewal?${q}`);
  if (failed.status() === 429) {
    // The test tool allows 10 a minute from one address: wait as asked, once.
    await new Promise((r) => setTimeout(r, 1000 * Math.min(60, Number(failed.headers()["retry-after"] ?? 30))));
    failed = await request.post(`/api/demo/failed-renewal?${q}`);
  }
  expect(failed.status(), await failed.text()).toBe(200);
  return email;
}

/** The HTML part of the newest mail to `to` (waiting for it to be queued). */
async function htmlTo(ownerRequest: APIRequestContext, to: string): Promise<{ kind: string; html: string }> {
  let found: { id: string; kind: string } | undefined;
  await expect
    .poll(
      async () => {
        const page = await trpcQuery<{ items: { id: string; to: string; kind: string }[] }>(ownerRequest, "mail.list", {
          limit: 50,
        });
        found = page.items.find((m) => m.to === to);
        return found?.kind ?? null;
      },
      { message: `a mail to ${to}` },
    )
    .not.toBeNull();
  const { html } = await trpcQuery<{ html: string | null }>(ownerRequest, "mail.html", { id: found!.id });
  expect(html, `${found!.kind}: an HTML part`).toBeTruthy();
  return { kind: found!.kind, html: html! };
}

async function checkMail(page: Page, locale: Locale, mail: { kind: string; html: string }): Promise<void> {
  await page.setContent(mail.html);
  for (const width of WIDTHS) {
    const at = `${mail.kind} in ${locale} at ${width.name} px`;
    await page.setViewportSize(width);
    await expectLangDir(page, "html", locale, at);
    await expectLangDir(page, "body > table, body > div > table, table", locale, `${at}, the outer table`);
    await expectNothingCut(page, at);
    await expectTextStartsAtStart(page, "p", locale, `${at}, its first paragraph`);
    expect.soft(await seriousViolations(page), `axe: ${at}`).toEqual([]);
  }
}

test.describe("reader mail and the AMP page in every locale", () => {
  const run = Date.now().toString(36);

  for (const locale of LOCALES) {
    test(`${locale}: a reply notification, a dunning mail, a newsletter's confirmation and issue, and the AMP page at 1440 and 390 px`, async ({
      page,
      browser,
      request,
    }) => {
      const staff = await ownerPage(browser);
      if (!before) {
        const view = await trpcQuery<Languages>(staff.request, "languages.get", undefined);
        before = { defaultLocale: view.defaultLocale, offered: view.offered };
      }
      await trpcCall(staff.request, "languages.update", { defaultLocale: locale, offered: [] });

      const replyTo = await causeReply(request, locale, run);
      const dunningTo = await causeDunning(request, locale, run);
      await checkMail(page, locale, await htmlTo(staff.request, replyTo));
      await checkMail(page, locale, await htmlTo(staff.request, dunningTo));

      // A newsletter: the confirmation a new reader is sent (in the widget's locale, which is the
      // default here) and an issue as readers get it (the preview: the newsroom's story in the
      // frame Masthead adds, its words in the account's default).
      const { id: newsletterId, slug: newsletterSlug } = await newsletterOf(staff.request, run);
      const confirmTo = `confirm-${locale.toLowerCase()}-${run}@example.com`;
      const subscribed = await request.post("/api/newsletters/subscribe", {
        data: { account_id: demoAccount().accountId, email: confirmTo, newsletters: [newsletterSlug], locale },
      });
      expect(subscribed.status(), await subscribed.text()).toBe(202);
      await checkMail(page, locale, await htmlTo(staff.request, confirmTo));
      const storyId = ((await (await request.get("/api/v1/stories?limit=1")).json()) as { stories: { id: string }[] })
        .stories[0]!.id;
      const issue = await trpcQuery<{ html: string }>(staff.request, "newsletterSends.preview", {
        storyId,
        newsletterId,
      });
      await checkMail(page, locale, { kind: "newsletter issue", html: issue.html });

      // The AMP page of a published story, in the account's default locale.
      const stories = await request.get(`/api/v1/stories?limit=1`);
      expect(stories.status(), await stories.text()).toBe(200);
      const slug = ((await stories.json()) as { stories: { slug: string }[] }).stories[0]!.slug;
      const amp = await request.get(`/api/v1/amp/story?slug=${encodeURIComponent(slug)}`);
      expect(amp.status(), await amp.text()).toBe(200);
      // The AMP runtime is not reachable here: its 8 s boilerplate fade is cut short.
      await page.route("https://cdn.ampproject.org/**", (route) => route.abort());
      await page.setContent(
        (await amp.text()).replace("<style amp-custom>", "<style>body{animation:none}</style><style amp-custom>"),
      );
      for (const width of WIDTHS) {
        const at = `the AMP page in ${locale} at ${width.name} px`;
        await page.setViewportSize(width);
        // `dir` is written right to left only (left to right is HTML's default).
        const seen = await page.evaluate(() => ({
          lang: document.documentElement.getAttribute("lang"),
          dir: document.documentElement.getAttribute("dir") ?? "ltr",
          direction: getComputedStyle(document.body).direction,
        }));
        expect.soft(seen, at).toEqual({ lang: locale, dir: dirOf(locale), direction: dirOf(locale) });
        await expectNothingCut(page, at);
        await expectTextStartsAtStart(page, "h1", locale, at);
        expect.soft(await seriousViolations(page), `axe: ${at}`).toEqual([]);
      }
    });
  }
});
