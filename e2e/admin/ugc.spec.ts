/**
 * Reader submissions: readers send contributions through the UGC endpoint; a moderator (desktop)
 * and an editor (390 px phone) find them pending, read them (HTML in the text shown as text), and
 * approve or reject them; the reader's own list then says so. The page fits the window and axe
 * finds no serious violation.
 */
import fs from "node:fs";
import path from "node:path";

import type { APIRequestContext } from "@playwright/test";
import { SignJWT } from "jose";

import { atEachViewport, expect, expectCleanPage, openFilters, test } from "../fixtures";

type Demo = { accountId: number; jwtSecret: string };

function demo(): Demo {
  try {
    const file = JSON.parse(
      fs.readFileSync(path.resolve(import.meta.dirname, "../../.data-e2e/demo-credentials.json"), "utf8"),
    ) as Partial<Demo>;
    if (file.accountId && file.jwtSecret) return { accountId: file.accountId, jwtSecret: file.jwtSecret };
  } catch {
    // The documented demo values (README).
  }
  return { accountId: 1, jwtSecret: "masthead-demo-jwt-secret-local-development-only" };
}

function readerJwt(secret: string, id: string, name: string) {
  return new SignJWT({ id, name })
    .setProtectedHeader({ alg: "HS256" })
    .setExpirationTime("10m")
    .sign(new TextEncoder().encode(secret));
}

type Submission = { id: number; status: string; text: string };

async function submit(request: APIRequestContext, jwt: string, submission: Record<string, unknown>) {
  const { accountId } = demo();
  const res = await request.post(`/api/v1/accounts/${accountId}/ugc`, { data: { jwt, submission } });
  expect(res.status(), await res.text()).toBe(201);
  return ((await res.json()) as { submission: Submission }).submission;
}

async function mine(request: APIRequestContext, jwt: string): Promise<Submission[]> {
  const { accountId } = demo();
  const res = await request.get(`/api/v1/accounts/${accountId}/ugc/me?jwt=${jwt}`);
  expect(res.status()).toBe(200);
  return ((await res.json()) as { items: Submission[] }).items;
}

/** Who reviews at each size, and what they decide. */
const REVIEWS = {
  desktop: { role: "moderator", decision: "Approve", status: "Approved" },
  phone: { role: "editor", decision: "Reject", status: "Rejected" },
} as const;

atEachViewport((size) => {
  const viewport = { ...size, ...REVIEWS[size.name] };
  test(`the ${viewport.role} reviews a reader's submission`, async ({ page, signIn, users }) => {
    const run = `${viewport.name}-${Date.now()}`;
    const jwt = await readerJwt(demo().jwtSecret, `e2e-reader-${run}`, "Rita Reader");
    const text = `<script>window.__ugc = 1</script><b>Flooded underpass</b> on Main Street (${run})`;
    const sent = await submit(page.request, jwt, {
      topic_type: `e2e-${run}`,
      topic_values: "floods, Main Street",
      title: `Flood report ${run}`,
      text,
      links: ["https://example.com/flood-photo"],
    });
    expect(sent.status).toBe("pending");

    await signIn(users[viewport.role]);
    if (viewport.width < 640) {
      await page.goto("/admin/ugc");
    } else {
      await page
        .getByRole("navigation", { name: "Dashboard" })
        .getByRole("link", { name: "Reader submissions" })
        .click();
    }
    await expect(page.getByRole("heading", { name: "Reader submissions", level: 1 })).toBeVisible();
    await openFilters(page);
    await expect(page.getByLabel("Status")).toHaveValue("PENDING");

    const row = page.getByTestId("ugc-submission").filter({ hasText: `Flood report ${run}` });
    await expect(row).toHaveCount(1);
    await expect(row).toHaveAttribute("data-status", "PENDING");
    await row.locator("summary").click();
    // The reader's HTML is text: shown as written, never run.
    await expect(row.getByTestId("ugc-text")).toHaveText(text);
    expect(await page.evaluate(() => (window as { __ugc?: number }).__ugc)).toBeUndefined();
    await expect(row.getByRole("link", { name: "https://example.com/flood-photo" })).toHaveAttribute("rel", /nofollow/);
    await expectCleanPage(page, `/admin/ugc at ${viewport.width} px`);

    await row.getByRole("button", { name: viewport.decision }).click();
    await expect(page.getByRole("status").filter({ hasText: `Flood report ${run}` })).toContainText(
      viewport.status.toLowerCase(),
    );
    // Decided: it leaves the pending list, and is listed under its new status.
    await expect(row).toHaveCount(0);
    await page.getByLabel("Status").selectOption(viewport.status.toUpperCase());
    const decided = page.getByTestId("ugc-submission").filter({ hasText: `Flood report ${run}` });
    await expect(decided).toHaveAttribute("data-status", viewport.status.toUpperCase());
    await page.getByLabel("Topic").selectOption(`e2e-${run}`);
    await expect(page.getByTestId("ugc-submission")).toHaveCount(1);

    // The reader sees the decision.
    const own = await mine(page.request, jwt);
    expect(own.map((s) => [s.id, s.status])).toEqual([[sent.id, viewport.status.toLowerCase()]]);
  });
});

test("the page is for moderators, editors and owners; the API behind it refuses others", async ({ page }) => {
  const response = await page.goto("/admin/ugc");
  await expect(page).toHaveURL(/\/admin\/sign-in/);
  expect(response?.status()).toBeLessThan(500);
  const api = await page.request.get(`/api/trpc/ugc.list?input=${encodeURIComponent(JSON.stringify({ json: {} }))}`);
  expect(api.status()).toBe(401);
});
