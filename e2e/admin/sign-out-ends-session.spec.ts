/**
 * Signing out ends the session on the server, not only in the browser that signed out: a copy of
 * the session cookie taken before (a stolen cookie, another tab's export) opens nothing afterwards.
 */
import { expect, test } from "../fixtures";

const SESSION_COOKIE = /^(__Secure-)?next-auth\.session-token(\.\d+)?$/;

test("after sign-out, a copy of the session cookie neither opens /admin nor answers a tRPC query", async ({
  page,
  browser,
  request,
  users,
  signIn,
}) => {
  await signIn(users.owner);
  const copied = (await page.context().cookies()).filter((cookie) => SESSION_COOKIE.test(cookie.name));
  expect(copied.length).toBeGreaterThan(0);
  // The copy exactly as it was taken, sent by hand, so nothing a response sets can stand in for it.
  const cookieHeader = copied.map((cookie) => `${cookie.name}=${cookie.value}`).join("; ");
  const tRPCQuery = () => request.get("/api/trpc/auditLog.actions", { headers: { cookie: cookieHeader } });

  const elsewhere = await browser.newContext();
  try {
    await elsewhere.addCookies(copied);
    const other = await elsewhere.newPage();

    // While the owner is signed in, the copy works like the original.
    await other.goto("/admin");
    await expect(other).toHaveURL(/\/admin$/);
    await expect(other.getByRole("banner").getByTestId("signed-in-user")).toContainText(users.owner.email);
    expect((await tRPCQuery()).status()).toBe(200);

    await page.getByRole("button", { name: "Sign out" }).click();
    await expect(page).toHaveURL(/\/admin\/sign-in$/);

    // Signed out in the first browser: the copy is dead too.
    await other.goto("/admin");
    await expect(other).toHaveURL(/\/admin\/sign-in\?callbackUrl=%2Fadmin$/);
    await expect(other.getByRole("heading", { name: "Sign in to the dashboard" })).toBeVisible();
    const response = await tRPCQuery();
    expect(response.status()).toBe(401);
  } finally {
    await elsewhere.close();
  }
});
