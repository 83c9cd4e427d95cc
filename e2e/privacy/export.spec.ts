/**
 * A reader's data export (docs/privacy.md "Data export (subject access)"), at 1440 and 390 px with
 * axe: a reader who commented signs in, asks for their data on /member/privacy, the mail with the
 * link reaches the outbox (read as the owner, mail.list), the link downloads the zip, and its
 * index.html, opened in the browser, shows their comment. The page once in Arabic, right to left.
 * Then revenue staff produce the same archive from the subscriber's detail and download it.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

import type { Browser } from "@playwright/test";
import { SignJWT } from "jose";

import { pageIdOf, postComment } from "../comments";
import {
  asStaff,
  demoAccount,
  demoUsers,
  expect,
  expectCleanAtEachSize,
  openFilters,
  seriousViolations,
  submitSignIn,
  test,
  trpcQuery,
  VIEWPORTS,
} from "../fixtures";

const CLIENT_KEY = "mh_pk_demo_public_client_key_local_only";
/** The export mail to `to`, from the owner's outbox (mail.list), once it is queued. */
async function exportMailTo(browser: Browser, to: string) {
  return asStaff(browser, demoUsers().owner, async (page) => {
    type Mail = { to: string; kind: string; text: string; language: { lang: string; dir: string } | null };
    let mail: Mail | undefined;
    await expect(async () => {
      const list = await trpcQuery<{ items: Mail[] }>(page.request, "mail.list", { limit: 50 });
      mail = list.items.find((m) => m.to === to && m.kind === "privacy.export_ready");
      expect(mail, `an export mail to ${to}`).toBeDefined();
    }).toPass({ timeout: 30_000 });
    return mail!;
  });
}

test("a reader asks for their data, gets the link by mail, and reads the archive", async ({
  browser,
  page,
  baseURL,
}) => {
  test.setTimeout(90_000);
  const stamp = Date.now();
  const email = `reader.export.${stamp}@example.com`;
  const comment = `Exported words ${stamp} <kept as text>`;
  const { accountId, jwtSecret } = demoAccount();
  const jwt = await new SignJWT({ id: `export-${stamp}`, name: "Ella Export", email })
    .setProtectedHeader({ alg: "HS256" })
    .setIssuedAt()
    .setExpirationTime("1h")
    .sign(new TextEncoder().encode(jwtSecret));
  const posted = await postComment(
    page.request,
    accountId,
    pageIdOf(`https://localhost/news/export-${stamp}`),
    comment,
    jwt,
  );
  expect(posted.status(), await posted.text()).toBeLessThan(300);
  // The same reader signed in on the member pages (the session the publisher's JWT opens).
  const session = await page.request.post(`/api/member/subscriptions/session?key=${CLIENT_KEY}&svc_jwt=${jwt}`);
  expect(session.status(), await session.text()).toBe(200);

  await page.goto("/member/privacy");
  await expect(page.getByRole("heading", { name: "Your data", level: 1 })).toBeVisible();
  await expect(page.getByRole("link", { name: "Delete your account" })).toHaveAttribute(
    "href",
    "/member/delete-account",
  );
  await page.getByRole("button", { name: "Ask for my data" }).click();
  await expect(page.getByTestId("export-status")).toContainText(/preparing your data|Your data is ready/);
  await expectCleanAtEachSize(page, "your data, asked");

  const mail = await exportMailTo(browser, email);
  expect(mail.language).toEqual({ lang: "en", dir: "ltr" });
  const match = /https?:\/\/\S+(\/api\/member\/privacy\/exports\/[0-9a-f-]{36}\?token=[A-Za-z0-9_-]+)/.exec(mail.text);
  expect(match, mail.text).not.toBeNull();
  const link = match![1]!;

  // Another browser (no session) is sent to sign in; the reader's own downloads the zip.
  const stranger = await browser.newContext();
  const refused = await stranger.request.get(link, { maxRedirects: 0, headers: { accept: "application/json" } });
  expect(refused.status()).toBe(401);
  await stranger.close();
  const zip = await page.request.get(link);
  expect(zip.status()).toBe(200);
  expect(zip.headers()["content-type"]).toBe("application/zip");
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "masthead-export-e2e-"));
  try {
    const file = path.join(dir, "data.zip");
    fs.writeFileSync(file, await zip.body());
    expect(execFileSync("unzip", ["-l", file], { encoding: "utf8" })).toMatch(/data\.json[\s\S]*index\.html/);
    const data = JSON.parse(execFileSync("unzip", ["-p", file, "data.json"], { encoding: "utf8" })) as {
      comments: { text: string }[];
    };
    expect(data.comments.map((c) => c.text)).toEqual([comment]);
    execFileSync("unzip", ["-q", file, "-d", dir]);
    // index.html read in the browser, from disk as the reader would open it.
    await page.goto(`file://${path.join(dir, "index.html")}`);
    await expect(page.getByRole("heading", { name: "Your comments" })).toBeVisible();
    await expect(page.getByText(comment)).toBeVisible();
    await expectCleanAtEachSize(page, "index.html");
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }

  await page.goto("/member/privacy");
  await expect(page.getByTestId("export-status")).toContainText("Your data is ready");

  // Once in Arabic: right to left, in its words.
  await page.context().addCookies([{ name: "masthead_locale", value: "ar", url: baseURL! }]);
  await page.goto("/member/privacy");
  await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
  await expect(page.getByRole("heading", { name: "بياناتك", level: 1 })).toBeVisible();
  await expectCleanAtEachSize(page, "your data in Arabic");

  // Staff (revenue) produce the same for this reader from the subscriber's detail, and download it.
  const staff = await browser.newContext({ viewport: { width: VIEWPORTS[0].width, height: VIEWPORTS[0].height } });
  try {
    const staffPage = await staff.newPage();
    await staffPage.goto("/admin/sign-in");
    await submitSignIn(staffPage, demoUsers().revenue);
    await expect(staffPage).toHaveURL(/\/admin$/);
    await staffPage.goto("/admin/subscriptions/subscribers");
    await openFilters(staffPage);
    await staffPage.getByLabel("Search subscribers").fill(`export-${stamp}`);
    await staffPage.getByLabel("All members").check();
    const results = staffPage.getByTestId("subscriber-results");
    await expect(results.getByRole("button")).toHaveCount(1);
    await results.getByRole("button").click();
    const panel = staffPage.getByTestId("subscriber-data-export");
    await panel.getByRole("button", { name: "Produce the reader's data" }).click();
    const download = panel.getByRole("link", { name: "Download" });
    await expect(download).toBeVisible({ timeout: 30_000 });
    expect(await seriousViolations(staffPage)).toEqual([]);
    const downloading = staffPage.waitForEvent("download");
    await download.click();
    expect((await downloading).suggestedFilename()).toMatch(/^your-data-\d{4}-\d\d-\d\d\.zip$/);
  } finally {
    await staff.close();
  }
});
