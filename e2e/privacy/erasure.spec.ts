/**
 * A reader deletes their account (docs/privacy.md "Erasure"): a reader the publisher's JWT signs
 * in comments, opens /member/delete-account, asks, confirms from the mailed link (read in the
 * dashboard's Outbox) with the button, is signed out; the background job erases them: their
 * comment is shown as by a deleted reader, the dashboard's subscriber search, Outbox, members'
 * CSV export and audit-log export no longer name them, their subscription's invoice stays and the
 * invoices still add up, and their JWT now makes a new person. Axe and no sideways scroll at 1440 and 390 px.
 */
import type { APIRequestContext } from "@playwright/test";
import { parse } from "csv-parse/sync";
import { SignJWT } from "jose";

import { pageIdOf } from "../comments";
import { asStaff, demoAccount, expect, expectCleanAtEachSize, test } from "../fixtures";
import { subscribeMonthly } from "../subscriptions";

const CLIENT_KEY = "mh_pk_demo_public_client_key_local_only";
/** The account's invoices as its CSV export lists them: how many, their total, and the export's text. */
async function invoices(request: APIRequestContext) {
  const res = await request.get("/api/admin/exports/invoices.csv");
  expect(res.status()).toBe(200);
  const text = await res.text();
  const rows = parse<Record<string, string>>(text, { columns: true });
  const total = rows.reduce((sum, row) => sum + Number(row.amount_cents), 0);
  return { count: rows.length, total, text: text.toLowerCase() };
}

test("a reader deletes their account from the member pages and can no longer be found", async ({
  browser,
  page,
  users,
  baseURL,
}) => {
  const { accountId, jwtSecret } = demoAccount();
  const stamp = Date.now().toString(36);
  const name = `Erin Erasable${stamp}`;
  const email = `erin.${stamp}@example.com`;
  const jwt = await new SignJWT({ id: `erin-${stamp}`, name, email })
    .setProtectedHeader({ alg: "HS256" })
    .setIssuedAt()
    .setExpirationTime("1h")
    .sign(new TextEncoder().encode(jwtSecret));

  // A comment on the demo article, as the reader.
  const b64 = pageIdOf(new URL("/demo/article", baseURL).href);
  const posted = await page.request.post(`/api/v1/accounts/${accountId}/pages/${b64}/comments.json`, {
    data: { comment: { body: { ops: [{ insert: `Words that outlive me ${stamp}\n` }] } }, jwt },
  });
  expect(posted.status(), await posted.text()).toBe(201);
  const commentId = ((await posted.json()) as { comment: { id: number } }).comment.id;

  // Signed in on the member pages by the publisher's JWT.
  const sessionUrl = `/api/member/subscriptions/session?key=${CLIENT_KEY}&svc_jwt=${jwt}`;
  const session = await page.request.post(sessionUrl);
  expect(session.status(), await session.text()).toBe(200);
  const memberId = ((await session.json()) as { subscriber_id: number }).subscriber_id;

  // A monthly subscription through the server API, invoiced to them.
  await subscribeMonthly(page.request, `erin-${stamp}`, "publisher");
  const before = await asStaff(browser, users.owner, (owner) => invoices(owner.request));
  expect(before.text).toContain(email);

  await page.goto("/member/delete-account");
  await expect(page.getByRole("heading", { name: "Delete your account", level: 1 })).toBeVisible();
  await expectCleanAtEachSize(page, "delete account");
  await page.getByRole("button", { name: "Send me the confirmation link" }).click();
  await expect(page.getByTestId("erase-sent")).toBeVisible();

  const link = await asStaff(browser, users.owner, async (owner) => {
    await owner.goto("/admin/mail");
    await expect(owner.getByText(email).first()).toBeVisible();
    const text =
      (await owner
        .getByText(/\/member\/delete-account\/confirm\?token=/)
        .first()
        .textContent()) ?? "";
    const match = /(https?:\/\/\S+\/member\/delete-account\/confirm\?token=[A-Za-z0-9_-]+)/.exec(text);
    expect(match, text).not.toBeNull();
    return match![1]!;
  });
  await page.goto(new URL(link).pathname + new URL(link).search);
  await expect(page.getByRole("heading", { name: "Confirm the deletion of your account", level: 1 })).toBeVisible();
  await expectCleanAtEachSize(page, "confirm deletion");
  await page.getByRole("button", { name: "Delete my account" }).click();
  await expect(page.getByTestId("erase-done")).toBeVisible();
  await expectCleanAtEachSize(page, "deletion confirmed");
  expect((await page.request.get("/api/member/subscriptions")).status()).toBe(401);

  // The job erases them: the comment stays, by a deleted reader.
  await expect
    .poll(
      async () => {
        const res = await page.request.get(`/api/v1/accounts/${accountId}/pages/${b64}/comments.json`);
        const { comments } = (await res.json()) as {
          comments: { id: number; author: { name: string; erased?: boolean } | null }[];
        };
        return comments.find((c) => c.id === commentId)?.author ?? null;
      },
      { timeout: 30_000 },
    )
    .toEqual(expect.objectContaining({ name: "", erased: true }));

  // The dashboard's subscriber search finds them by neither name nor e-mail.
  await asStaff(browser, users.owner, async (owner) => {
    await owner.goto("/admin/subscriptions/subscribers");
    await owner.getByRole("radio", { name: "All members" }).check();
    for (const q of [name, email]) {
      await owner.getByRole("searchbox", { name: "Search subscribers" }).fill(q);
      await expect(owner.getByText(`No member matches “${q}”.`)).toBeVisible();
    }
    // The invoices stay and still add up, without the reader's e-mail.
    const after = await invoices(owner.request);
    expect({ count: after.count, total: after.total }).toEqual({ count: before.count, total: before.total });
    expect(after.text).not.toContain(email);
    // Nor do the dashboard's Outbox, the members' CSV export or the audit log's.
    await owner.goto("/admin/mail");
    await expect(owner.getByRole("heading", { level: 1 })).toBeVisible();
    await expect(owner.getByText(email)).toHaveCount(0);
    for (const csv of ["/api/admin/exports/subscribers.csv?who=all", "/api/admin/audit-log.csv"]) {
      const res = await owner.request.get(csv);
      expect(res.status(), csv).toBe(200);
      const text = (await res.text()).toLowerCase();
      expect(text.includes(email) || text.includes(name.toLowerCase()), csv).toBe(false);
    }
  });

  // Their JWT now signs in a new person.
  const again = await page.request.post(sessionUrl);
  expect(((await again.json()) as { subscriber_id: number }).subscriber_id).not.toBe(memberId);
});
