/**
 * The member pages in every locale (docs/i18n.md), at 1440 and 390 px: sign in, sign up, the
 * password reset request and the new-password form, the self-service page of a signed-in reader
 * with a subscription, and a newsletter mail's confirm and unsubscribe pages. Each load is checked
 * once for everything (e2e/i18n/layout-checks.ts): `<html lang dir>`, the heading in the locale's
 * words, no sideways scroll, no clipped text, axe, and Arabic laid out right to left.
 *
 * The sweep picks the locale with the masthead_locale cookie; Accept-Language is tried once, and
 * the cookie shown to win over it. A signed-in reader picks Hindi on the language picker: the page
 * comes back in Hindi, the choice is saved on their record (it holds without the cookie), and the
 * password reset mail they then ask for from the page is in Hindi, `lang="hi"`.
 */
import type { Browser, BrowserContext, Page } from "@playwright/test";

import { memberWords, type MemberKey } from "../../components/members/member-words";
import { LOCALES, type Locale } from "../../i18n/locales";
import { messagesOf } from "../../i18n/messages";
import { demoUsers, expect, submitSignIn, test, trpcQuery } from "../fixtures";
import { createNewsletter } from "../newsletters/fixtures";
import { subscribeMonthly } from "../subscriptions";
import { clippedText, expectReaderPage, misplaced } from "./layout-checks";

const SIZES = [
  { width: 1440, height: 900 },
  { width: 390, height: 844 },
] as const;
const PASSWORD = "a long enough password";

type MemberPage = { name: string; path: () => string; title: MemberKey; signedIn?: boolean };

/** What the pages need, made once: a subscriber with a pending newsletter, and its mail's links. */
type Setup = {
  storageState: Awaited<ReturnType<BrowserContext["storageState"]>>;
  confirmPath: string;
  unsubscribePath: string;
};
let setup: Setup | null = null;

function words(locale: Locale) {
  return memberWords(locale, [...messagesOf("member", "en"), ...messagesOf("member", locale)]);
}

const PAGES: readonly MemberPage[] = [
  { name: "sign in", path: () => "/member/login", title: "login.title" },
  { name: "sign up", path: () => "/member/signup", title: "signup.title" },
  { name: "password reset request", path: () => "/member/forgot-password", title: "forgot.title" },
  { name: "new password", path: () => "/member/reset-password?token=from-the-mail", title: "reset.title" },
  { name: "subscriptions", path: () => "/member/subscriptions", title: "self.title", signedIn: true },
  { name: "newsletter confirm", path: () => setup!.confirmPath, title: "confirm.title" },
  { name: "newsletter unsubscribe", path: () => setup!.unsubscribePath, title: "unsub.title" },
];

/** The owner's outbox (mail.list): the newest mail of `kind` to `to`, once it is queued. */
async function mailTo(browser: Browser, to: string, kind: string) {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.goto("/admin/sign-in");
    await submitSignIn(page, demoUsers().owner);
    await expect(page).toHaveURL(/\/admin$/);
    type Mail = { to: string; kind: string; subject: string; text: string; language: { lang: string; dir: string } };
    let mail: Mail | undefined;
    await expect(async () => {
      const list = await trpcQuery<{ items: Mail[] }>(context.request, "mail.list", { limit: 50 });
      mail = list.items.find((m) => m.to === to && m.kind === kind);
      expect(mail, `a ${kind} mail to ${to}`).toBeDefined();
    }).toPass({ timeout: 15_000 });
    return mail!;
  } finally {
    await context.close();
  }
}

/** A reader signed up through the API and signed in on the hosted login page (English: no cookie yet). */
async function signedInReader(browser: Browser, email: string): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext();
  const signup = await context.request.post("/api/auth/v1/signup", {
    data: { name: "Lena Leser", email, password: PASSWORD, "dont-login": true },
  });
  expect(signup.status(), await signup.text()).toBe(201);
  const page = await context.newPage();
  await page.goto("/member/login?return_to=%2Fmember%2Fsubscriptions");
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/member\/subscriptions$/);
  return { context, page };
}

async function makeSetup(browser: Browser): Promise<Setup> {
  const stamp = Date.now();
  const owner = await browser.newContext();
  const ownerPage = await owner.newPage();
  await ownerPage.goto("/admin/sign-in");
  await submitSignIn(ownerPage, demoUsers().owner);
  await expect(ownerPage).toHaveURL(/\/admin$/);
  const name = `Mehrsprachig ${stamp}`;
  await createNewsletter(owner.request, { name, slug: `i18n-${stamp}`, trackOpens: false });
  await owner.close();

  const email = `reader.i18n.${stamp}@example.com`;
  const { context, page } = await signedInReader(browser, email);
  await subscribeMonthly(context.request, email);
  // Joined with an e-mail not yet verified: pending, and a confirmation mail goes out.
  await page.reload();
  const choice = page.getByTestId("newsletter-choice").filter({ hasText: name });
  await choice.getByRole("switch", { name: `Receive ${name}` }).check();
  await expect(choice).toContainText("Waiting for your confirmation");
  const storageState = await context.storageState();
  await context.close();

  const { text } = await mailTo(browser, email, "newsletter.confirm");
  const link = (pattern: RegExp) => new URL(pattern.exec(text)![1]!).pathname;
  return {
    storageState,
    confirmPath: link(/(https?:\/\/\S+\/newsletters\/confirm\/\S+)/),
    unsubscribePath: link(/(https?:\/\/\S+\/api\/newsletters\/unsubscribe\/\S+)/),
  };
}

test.beforeAll(async ({ browser }) => {
  test.setTimeout(120_000);
  setup ??= await makeSetup(browser);
});

for (const locale of LOCALES) {
  test(`the member pages in ${locale}, at 1440 and 390 px`, async ({ browser, baseURL }) => {
    const cookie = { name: "masthead_locale", value: locale, url: baseURL! };
    const anonymous = await browser.newContext();
    const signedIn = await browser.newContext({ storageState: setup!.storageState });
    await anonymous.addCookies([cookie]);
    await signedIn.addCookies([cookie]);
    const pages = { anonymous: await anonymous.newPage(), signedIn: await signedIn.newPage() };
    const { t } = words(locale);
    for (const size of SIZES) {
      for (const { name, path, title, signedIn: withSession } of PAGES) {
        const page = withSession ? pages.signedIn : pages.anonymous;
        const what = `${name} in ${locale} at ${size.width} px`;
        await page.setViewportSize(size);
        await page.goto(path());
        await expect(page.getByRole("heading", { level: 1 }), what).toHaveText(t(title));
        if (withSession) await expect(page.getByTestId("subscription-card").first(), what).toBeVisible();
        await expectReaderPage(page, locale, what);
      }
    }
    await anonymous.close();
    await signedIn.close();
  });
}

test("Accept-Language chooses the member pages' locale, and the reader's own choice (the cookie) wins over it", async ({
  browser,
  baseURL,
}) => {
  // The browser's language (Playwright's locale) is what it sends as Accept-Language.
  const context = await browser.newContext({ locale: "ar-EG" });
  const page = await context.newPage();
  await page.goto("/member/login");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(words("ar").t("login.title"));
  await expectReaderPage(page, "ar", "sign in by Accept-Language (ar-EG)");

  await context.addCookies([{ name: "masthead_locale", value: "de", url: baseURL! }]);
  await page.reload();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(words("de").t("login.title"));
  await expect(page.locator("html")).toHaveAttribute("lang", "de");
  await expect(page.locator("html")).toHaveAttribute("dir", "ltr");
  await context.close();
});

test("a signed-in reader picks Hindi: the page follows, the choice is saved, and their next mail is in Hindi", async ({
  browser,
}) => {
  const email = `reader.hindi.${Date.now()}@example.com`;
  const { context, page } = await signedInReader(browser, email);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Your subscriptions");
  await expect(page.locator("html")).toHaveAttribute("lang", "en");

  const saved = page.waitForResponse((r) => r.url().endsWith("/api/member/locale") && r.request().method() === "PUT");
  await page.getByLabel("Language").selectOption("hi");
  const answer = await saved;
  expect(answer.status()).toBe(200);
  expect(answer.request().postDataJSON()).toEqual({ locale: "hi" });
  const hindi = words("hi");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(hindi.t("self.title"));
  await expect(page.locator("html")).toHaveAttribute("lang", "hi");
  await expect(page.getByTestId("language-picker")).toHaveValue("hi");

  // Saved on the reader's record, not only in this browser: without the cookie the page is still Hindi.
  await context.clearCookies({ name: "masthead_locale" });
  await page.reload();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(hindi.t("self.title"));

  // A mail the reader causes from the page: a password reset, asked for on the (Hindi) request page.
  await page.goto("/member/forgot-password");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(hindi.t("forgot.title"));
  await page.getByLabel(hindi.t("auth.email")).fill(email);
  await page.locator("form button[type=submit]").click();
  await expect(page.getByTestId("member-forgot-password-done")).toBeVisible();
  await context.close();

  const mail = await mailTo(browser, email, "member.password_reset");
  const hindiMail = messagesOf("mail", "hi");
  expect(mail.language).toEqual({ lang: "hi", dir: "ltr" });
  expect(mail.subject).toContain(hindiMail.get("resetSubject")!.split("{publisher}")[1]!.trim());
  expect(mail.text).toContain(hindiMail.get("resetOnce"));
  expect(mail.text).toContain(hindiMail.get("resetIntro")!.split("{publisher}")[1]!.trim());
});

test("the layout checks find clipped text and a layout the wrong way round", async ({ page }) => {
  const body = (label: string, control: string, button: string, select: string) => `
    <main style="width: 360px">
      <label for="a" style="display: block; ${label}">البريد الإلكتروني</label>
      <input id="a" style="display: block; width: 100%; box-sizing: border-box">
      <form style="display: block"><button style="display: block; ${button}">أرسل</button></form>
      <label for="s">اللغة</label> <select id="s" style="${select}"><option>العربية</option></select>
      <p style="${control}">نص طويل جدا لا يتسع في مكانه</p>
    </main>`;
  await page.setViewportSize({ width: 390, height: 844 });
  await page.setContent(
    `<html lang="ar" dir="rtl"><body>${body(
      "text-align: left",
      "width: 60px; overflow: hidden; white-space: nowrap",
      "margin-right: auto",
      "padding-left: 8px; padding-right: 32px",
    )}</body></html>`,
  );
  expect(await page.evaluate(clippedText)).toEqual([
    expect.stringMatching(/^p "نص .*" is cut off \(\d+ px of text in 60 px\)$/),
    expect.stringMatching(/^p "نص .*" runs out of its box$/),
  ]);
  expect(await page.evaluate(misplaced, "rtl" as const)).toEqual([
    'label "البريد الإلكتروني" is aligned left',
    expect.stringMatching(/^label "البريد الإلكتروني" starts \d+ px from its control's start$/),
    expect.stringMatching(/^button "أرسل" starts -?\d+ px from its row's start$/),
    "select#s keeps its arrow room on the start side",
  ]);
  await page.setContent(
    `<html lang="ar" dir="rtl"><body>${body("", "", "", "padding-inline: 8px 32px")}</body></html>`,
  );
  expect(await page.evaluate(clippedText)).toEqual([]);
  expect(await page.evaluate(misplaced, "rtl" as const)).toEqual([]);
});
