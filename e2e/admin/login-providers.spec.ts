/**
 * Settings → Member logins: an owner adds Google (client id only), sees it listed without its
 * secret, is told what is missing (a custom name's issuer, Facebook's app secret), edits and
 * removes it; POST /api/login/<provider> follows. At desktop width and at 390 px.
 */
import { expect, expectNoHorizontalPageScroll, test, VIEWPORTS } from "../fixtures";

for (const viewport of VIEWPORTS) {
  test(`an owner configures member logins (${viewport.name})`, async ({ page, users, signIn }) => {
    await page.setViewportSize(viewport);
    await signIn(users.owner);
    // What an earlier failed run may have left (a missing one answers 404: fine).
    for (const name of ["google", "facebook", "corp-sso"]) {
      await page.request.post("/api/trpc/loginProviders.delete", { data: { json: { name } } });
    }
    await page.goto("/admin/settings");
    const form = page.getByRole("form", { name: "Add or change a member login" });
    await expect(form).toBeVisible();

    // Not configured yet: the social login is 422, an unknown provider 404.
    const notYet = await page.request.post("/api/login/google", { data: { token: "x", "set-session": true } });
    expect(notYet.status()).toBe(422);
    expect((await page.request.post("/api/login/no-such", { data: { token: "x" } })).status()).toBe(404);

    await form.getByLabel("Name").fill("google");
    await form.getByLabel("Client ids").fill(`web-${viewport.name}.apps.googleusercontent.com`);
    await form.getByRole("button", { name: "Save login" }).click();
    await expect(page.getByTestId("login-provider-saved")).toContainText('"google"');
    const row = page.getByTestId("login-provider-google");
    await expect(row).toContainText("https://accounts.google.com");
    await expect(row).toContainText(`web-${viewport.name}.apps.googleusercontent.com`);
    await expectNoHorizontalPageScroll(page);

    // Configured: the token goes to Google (tokeninfo / its keys), which this machine cannot
    // reach: 503, never a session; a malformed body is still a 400.
    const offline = await page.request.post("/api/login/google", { data: { token: "ya29.not-checked" } });
    expect([401, 503]).toContain(offline.status());
    expect(offline.headers()["x-qt-auth"]).toBeUndefined();
    const both = { token: { "access-token": "a", "id-token": "b" } };
    expect((await page.request.post("/api/login/google", { data: both })).status()).toBe(400);

    // A name of one's own needs its issuer; Facebook needs the app secret.
    await form.getByLabel("Name").fill("corp-sso");
    await form.getByLabel("Kind (optional)").selectOption("oidc");
    await form.getByLabel("Client ids").fill("masthead");
    await form.getByRole("button", { name: "Save login" }).click();
    await expect(form.getByTestId("field-error").first()).toContainText("is required for a provider of this name");
    await form.getByLabel("Name").fill("facebook");
    await form.getByLabel("Kind (optional)").selectOption("");
    await form.getByLabel("Client ids").fill("1234567890");
    await form.getByRole("button", { name: "Save login" }).click();
    await expect(form.getByTestId("field-error").first()).toContainText("is required for Facebook");
    await form.getByLabel("Client secret (optional)").fill("fb-app-secret-e2e");
    await form.getByRole("button", { name: "Save login" }).click();
    const facebook = page.getByTestId("login-provider-facebook");
    await expect(facebook).toContainText("secret set");
    await expect(page.getByText("fb-app-secret-e2e")).toHaveCount(0);

    // Edit (turn Google off), then remove both.
    await row.getByRole("button", { name: "Edit" }).click();
    await expect(form.getByLabel("Name")).toHaveValue("google");
    await form.getByLabel("On", { exact: true }).uncheck();
    await form.getByRole("button", { name: "Save login" }).click();
    await expect(row).toContainText("off");
    expect((await page.request.post("/api/login/google", { data: { token: "x" } })).status()).toBe(422);
    for (const name of ["google", "facebook"]) {
      await page.getByTestId(`login-provider-${name}`).getByRole("button", { name: "Remove" }).click();
      await page.getByRole("dialog").getByRole("button", { name: "Remove" }).click();
      await expect(page.getByTestId(`login-provider-${name}`)).toHaveCount(0);
    }
    await expectNoHorizontalPageScroll(page);
  });
}
