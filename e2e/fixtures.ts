/**
 * Shared by the dashboard specs: the demo users (from the credentials file the start script's
 * seed writes, falling back to the documented demo values), a `signIn` helper that uses the real
 * sign-in form, a webhook receiver on 127.0.0.1 that each test gets fresh, tRPC calls with the
 * page's session, and a tiny PNG to upload.
 */
import fs from "node:fs";
import path from "node:path";

import AxeBuilder from "@axe-core/playwright";
import { test as base, expect, type APIRequestContext, type Browser, type Locator, type Page } from "@playwright/test";

import { startReceiver, type Receiver } from "../server/testing/webhook-receiver";

export type DemoUser = { email: string; password: string };

const CREDENTIALS_FILE = path.resolve(import.meta.dirname, "../.data-e2e/demo-credentials.json");

const FALLBACK = {
  owner: { email: "owner@demo.masthead.test", password: "masthead-demo-owner" },
  editor: { email: "editor@demo.masthead.test", password: "masthead-demo-editor" },
  moderator: { email: "moderator@demo.masthead.test", password: "masthead-demo-moderator" },
  revenue: { email: "revenue@demo.masthead.test", password: "masthead-demo-revenue" },
};

type CredentialsFile = {
  admin?: DemoUser;
  users?: (DemoUser & { roles?: string[] })[];
  accountId?: number;
  jwtSecret?: string;
};

function readCredentials(): CredentialsFile {
  try {
    return JSON.parse(fs.readFileSync(CREDENTIALS_FILE, "utf8")) as CredentialsFile;
  } catch {
    return {};
  }
}

export function demoUsers(): { owner: DemoUser; editor: DemoUser; moderator: DemoUser; revenue: DemoUser } {
  const file = readCredentials();
  const byRole = (role: string) => file.users?.find((u) => u.roles?.length === 1 && u.roles[0] === role);
  const pick = (user: DemoUser | undefined, fallback: DemoUser): DemoUser =>
    user ? { email: user.email, password: user.password } : fallback;
  return {
    owner: pick(file.admin ?? byRole("OWNER"), FALLBACK.owner),
    editor: pick(byRole("EDITOR"), FALLBACK.editor),
    moderator: pick(byRole("MODERATOR"), FALLBACK.moderator),
    revenue: pick(byRole("REVENUE"), FALLBACK.revenue),
  };
}

/** The demo account's id and the shared key its publisher signs reader JWTs with (the seed's credentials file). */
export function demoAccount(): { accountId: number; jwtSecret: string } {
  const file = readCredentials();
  if (!file.accountId || !file.jwtSecret)
    throw new Error(`No demo account in ${CREDENTIALS_FILE}: start the server first.`);
  return { accountId: file.accountId, jwtSecret: file.jwtSecret };
}

/** Fill and submit the sign-in form on the current page (which must be the sign-in page). */
export async function submitSignIn(page: Page, user: DemoUser): Promise<void> {
  await expect(page.getByRole("heading", { name: "Sign in to the dashboard" })).toBeVisible();
  await page.getByLabel("E-mail").fill(user.email);
  await page.getByLabel("Password").fill(user.password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

/** One tRPC call over HTTP with the page's session cookie (superjson envelope); fails the test unless it answers 200. */
export async function trpcCall<T>(request: APIRequestContext, path: string, input: unknown): Promise<T> {
  const response = await request.post(`/api/trpc/${path}`, { data: { json: input } });
  expect(response.status(), `${path}: ${await response.text()}`).toBe(200);
  return ((await response.json()) as { result: { data: { json: T } } }).result.data.json;
}

/** The page itself does not scroll sideways: whatever is wide scrolls inside its own box. */
/**
 * The serious and critical axe violations (WCAG 2.1 A and AA) of what the page shows now, with
 * `label-content-name-mismatch` (WCAG 2.5.3, label in name) on: axe ships it off as experimental.
 */
export async function seriousViolations(page: Page): Promise<string[]> {
  // After a client-side navigation the App Router sets the new page's <title> once its metadata
  // arrives, a moment after the page shows: scan then, not in between (a page with no title at all
  // still fails, here).
  await expect(page).toHaveTitle(/\S/);
  const results = await new AxeBuilder({ page })
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"])
    // Only the violations' nodes are gathered (axe's resultTypes): the passes' were a quarter of a scan's time.
    .options({ rules: { "label-content-name-mismatch": { enabled: true } }, resultTypes: ["violations"] })
    .analyze();
  return results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .flatMap((v) => v.nodes.map((n) => `${v.id} (${v.impact}): ${n.target.join(" ")} – ${v.help}`));
}

export async function expectNoHorizontalPageScroll(page: Page, what = page.url()): Promise<void> {
  const { scrollWidth, clientWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    clientWidth: document.documentElement.clientWidth,
  }));
  expect(scrollWidth, `${what} is ${scrollWidth} px wide in a ${clientWidth} px window`).toBeLessThanOrEqual(
    clientWidth,
  );
}

/** The audit log's entries as the page shows them: table rows on wide screens, a list on phones. */
export function auditEntries(page: Page) {
  return page.locator('tr:visible, [data-testid="audit-entry"]:visible');
}

/** One tRPC query over HTTP (GET) with the page's session cookie; fails the test unless it answers 200. */
export async function trpcQuery<T>(request: APIRequestContext, path: string, input: unknown): Promise<T> {
  const response = await request.get(`/api/trpc/${path}?input=${encodeURIComponent(JSON.stringify({ json: input }))}`);
  expect(response.status(), `${path}: ${await response.text()}`).toBe(200);
  return ((await response.json()) as { result: { data: { json: T } } }).result.data.json;
}

/**
 * Wait until a rich-text editor that has just taken the focus (a click, a dialog closing) has
 * checked it: 20 ms after focusing, ProseMirror puts its own selection back on the page when the
 * page's still is the one it found on focusing. Keys sent sooner than that (no hand is that fast)
 * had the caret moved under them. A 30 ms timer set now fires after that one.
 */
export async function afterEditorFocus(page: Page): Promise<void> {
  await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 30)));
}

/** Click into a rich-text editor that already holds text, ready for keys that move the caret. */
export async function clickIntoText(text: Locator): Promise<void> {
  await text.click();
  await afterEditorFocus(text.page());
}

/** A real 1×1 PNG, as a file for setInputFiles. */
export function pngFile(name: string) {
  const PNG_1X1 = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";
  return { name, mimeType: "image/png", buffer: Buffer.from(PNG_1X1, "base64") };
}

/** What a webhook receiver got, with Masthead's headers picked out. */
export function deliveriesTo(receiver: Receiver) {
  return receiver.requests.map((r) => ({
    body: r.body,
    signature: String(r.headers["x-qt-signature"]),
    event: String(r.headers["x-masthead-event"]),
  }));
}

export const test = base.extend<{
  users: ReturnType<typeof demoUsers>;
  signIn: (user: DemoUser) => Promise<void>;
  /** A receiver on 127.0.0.1 that answers 200 "ok" (setBehaviour to change that), closed after the test. */
  webhookReceiver: Receiver;
}>({
  // (`provide` is Playwright's `use`, renamed so React's hook rules do not mistake it for a hook.)
  users: async ({}, provide) => {
    await provide(demoUsers());
  },
  signIn: async ({ page }, provide) => {
    await provide(async (user) => {
      await page.goto("/admin/sign-in");
      await submitSignIn(page, user);
      await expect(page).toHaveURL(/\/admin$/);
    });
  },
  webhookReceiver: async ({}, provide) => {
    const receiver = await startReceiver();
    try {
      await provide(receiver);
    } finally {
      await receiver.close();
    }
  },
});

export { expect };

/** The two sizes a page is checked at: desktop (1440 px) and phone (390 px). */
export const VIEWPORTS = [
  { name: "desktop", width: 1440, height: 900 },
  { name: "phone", width: 390, height: 844 },
] as const;

/** No horizontal page scroll and no serious axe-core violation on the page as it is now. */
export async function expectCleanPage(page: Page, what: string): Promise<void> {
  await expectNoHorizontalPageScroll(page, what);
  expect(await seriousViolations(page), what).toEqual([]);
}

/** expectCleanPage at each size of VIEWPORTS in turn, the page resized where it is. */
export async function expectCleanAtEachSize(page: Page, what: string): Promise<void> {
  for (const { width, height } of VIEWPORTS) {
    await page.setViewportSize({ width, height });
    await expectCleanPage(page, `${what} at ${width} px`);
  }
}

/**
 * `work` done by a staff user signed in on the dashboard in a browser context of their own (at
 * `viewport` when given), closed after.
 */
export async function asStaff<T>(
  browser: Browser,
  user: DemoUser,
  work: (page: Page) => Promise<T>,
  options: { viewport?: { width: number; height: number } } = {},
): Promise<T> {
  const context = await browser.newContext(options.viewport ? { viewport: options.viewport } : {});
  try {
    const page = await context.newPage();
    await page.goto("/admin/sign-in");
    await submitSignIn(page, user);
    await expect(page).toHaveURL(/\/admin$/);
    return await work(page);
  } finally {
    await context.close();
  }
}

/** The dashboard's settings section `name`, opened by its link on /admin/settings: its heading is shown. */
export async function openSettingsSection(page: Page, name: string): Promise<void> {
  await page.goto("/admin/settings");
  await page.getByRole("link", { name: new RegExp(`^${name}`) }).click();
  await expect(page.getByRole("heading", { name, level: 1 })).toBeVisible();
}

/** One describe per size of VIEWPORTS (`on a desktop (1440 px)`, `on a phone (390 px)`), at that size. */
export function atEachViewport(body: (viewport: (typeof VIEWPORTS)[number]) => void): void {
  for (const viewport of VIEWPORTS) {
    test.describe(`on a ${viewport.name} (${viewport.width} px)`, () => {
      test.use({ viewport: { width: viewport.width, height: viewport.height } });
      body(viewport);
    });
  }
}

/**
 * On a phone a list's filter form sits behind its "Filters" button (components/ui/filter-disclosure.tsx):
 * open it when the button is shown and closed. From 640 px up the form is always shown and this does nothing.
 */
export async function openFilters(page: Page): Promise<void> {
  const button = page.getByTestId("filter-disclosure").getByRole("button", { name: /^Filters/ });
  if ((await button.count()) === 0 || !(await button.first().isVisible())) return;
  if ((await button.first().getAttribute("aria-expanded")) === "false") await button.first().click();
}
