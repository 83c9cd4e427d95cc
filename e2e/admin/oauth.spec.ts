/**
 * OAuth 2.0 in a real browser, at desktop width and at 390 px: an owner registers a client in the
 * dashboard (its secret shown once); then a reader's browser goes through /oauth/authorize, the
 * member login page (or sign-up), and lands on the client's redirect URI with a code, which a real
 * OAuth client library (oauth4webapi) exchanges for a token that reads current_user.json.
 * The client application's host is never contacted: the test reads where the browser was sent.
 */
import * as oauth from "oauth4webapi";

import { expect, expectNoHorizontalPageScroll, test, trpcQuery } from "../fixtures";

const REDIRECT = "https://app.example.test/oauth/callback";

for (const { name, viewport } of [
  { name: "desktop", viewport: { width: 1440, height: 900 } },
  { name: "phone", viewport: { width: 390, height: 844 } },
]) {
  test(`${name}: an owner registers a client; a reader signs in through authorize and the client reads who they are`, async ({
    page,
    browser,
    baseURL,
    signIn,
    users,
  }) => {
    await page.setViewportSize(viewport);
    await signIn(users.owner);
    await page.goto("/admin/oauth-clients");
    await expect(page.getByRole("heading", { name: "OAuth clients", level: 1 })).toBeVisible();
    await page.getByRole("button", { name: "Register client" }).click();
    const appName = `Reader app ${name} ${Date.now()}`;
    await page.getByLabel("Name", { exact: true }).fill(appName);
    // A bad URI is refused next to its field, before anything is sent.
    await page.getByLabel("Redirect URIs", { exact: true }).fill("http://app.example.test/cb");
    await page.getByRole("button", { name: "Register client" }).last().click();
    await expect(page.getByTestId("field-error")).toContainText("Line 1: must use https");
    await page.getByLabel("Redirect URIs", { exact: true }).fill(REDIRECT);
    await page.getByRole("button", { name: "Register client" }).last().click();

    const secret = (await page.getByTestId("secret-value").textContent())!.trim();
    expect(secret).toMatch(/^mh_ocs_/);
    await expectNoHorizontalPageScroll(page);
    await page.getByRole("button", { name: "Done" }).click();
    await expect(page.getByTestId("secret-once")).toHaveCount(0);
    await expect(page.getByText(secret)).toHaveCount(0);
    const clients = await trpcQuery<{ name: string; clientId: string }[]>(page.request, "oauthClients.list", undefined);
    const client = clients.find((c) => c.name === appName)!;
    await expect(page.getByTestId("oauth-client").filter({ hasText: appName })).toContainText(client.clientId);

    // The reader, in a browser of their own.
    const reader = await browser.newContext({ viewport, baseURL });
    const readerPage = await reader.newPage();
    let landed: URL | null = null;
    // Where the browser was sent, from the request it starts (before any name lookup); the page
    // the client would show is stood in for where the browser lets Playwright answer a redirect's
    // target (the full Chromium does, its headless shell does not).
    readerPage.on("request", (request) => {
      if (request.url().startsWith("https://app.example.test/")) landed = new URL(request.url());
    });
    await readerPage.route("https://app.example.test/**", (route) =>
      route.fulfill({ status: 200, contentType: "text/plain", body: "the client app" }),
    );
    const verifier = oauth.generateRandomCodeVerifier();
    const state = oauth.generateRandomState();
    const authorize = new URL("/oauth/authorize", baseURL);
    for (const [k, v] of Object.entries({
      client_id: client.clientId,
      redirect_uri: REDIRECT,
      response_type: "code",
      state,
      code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
      code_challenge_method: "S256",
    })) {
      authorize.searchParams.set(k, v);
    }
    await readerPage.goto(authorize.href);
    await expect(readerPage).toHaveURL(/\/member\/login\?return_to=/);
    await expect(readerPage.getByRole("heading", { name: "Sign in", level: 1 })).toBeVisible();

    const email = `reader.${name}.${Date.now()}@example.com`;
    if (name === "desktop") {
      await readerPage.getByRole("link", { name: "Create an account" }).click();
      await expect(readerPage.getByRole("heading", { name: "Create your account", level: 1 })).toBeVisible();
      await readerPage.getByLabel("Name").fill("Ada Reader");
      await readerPage.getByLabel("E-mail").fill(email);
      await readerPage.getByLabel("Password").fill("short");
      await readerPage.getByRole("button", { name: "Create account" }).click();
      await expect(readerPage.getByTestId("field-error")).toContainText("at least 8 characters");
      await expect(readerPage.getByLabel("Password")).toHaveAttribute("aria-invalid", "true");
      await readerPage.getByLabel("Password").fill("correct horse battery");
      await readerPage.getByRole("button", { name: "Create account" }).click();
    } else {
      const signup = await reader.request.post("/api/auth/v1/signup", {
        data: { name: "Ada Reader", email, password: "correct horse battery", "dont-login": true },
      });
      expect(signup.status()).toBe(201);
      await readerPage.getByLabel("E-mail").fill(email);
      await readerPage.getByLabel("Password").fill("wrong password");
      await readerPage.getByRole("button", { name: "Sign in" }).click();
      await expect(
        readerPage.getByRole("alert").filter({ hasText: "The e-mail or password is incorrect." }),
      ).toBeVisible();
      await expectNoHorizontalPageScroll(readerPage);
      await readerPage.getByLabel("Password").fill("correct horse battery");
      await readerPage.getByRole("button", { name: "Sign in" }).click();
    }
    await expect.poll(() => landed?.origin + (landed?.pathname ?? "")).toBe(REDIRECT);

    // The client application's back end: the code for a token, the token for the reader.
    const as: oauth.AuthorizationServer = {
      issuer: baseURL!,
      authorization_endpoint: `${baseURL}/oauth/authorize`,
      token_endpoint: `${baseURL}/oauth/token`,
    };
    const oauthClient: oauth.Client = { client_id: client.clientId };
    const params = oauth.validateAuthResponse(as, oauthClient, landed!, state);
    const response = await oauth.authorizationCodeGrantRequest(
      as,
      oauthClient,
      oauth.ClientSecretBasic(secret),
      params,
      REDIRECT,
      verifier,
      { [oauth.allowInsecureRequests]: true },
    );
    const tokens = await oauth.processAuthorizationCodeResponse(as, oauthClient, response);
    expect(tokens).toMatchObject({ token_type: "bearer", expires_in: 7200 });
    const me = await reader.request.get(`/api/v1/current_user.json?access_token=${tokens.access_token}`);
    expect(me.status()).toBe(200);
    const { current_user } = (await me.json()) as { current_user: { id: number; name: string } };
    expect(current_user.name).toBe("Ada Reader");
    // The same reader as the member session the login page started.
    const member = await reader.request.get("/api/auth/v1/users/me");
    expect(((await member.json()) as { user: { id: number } }).user.id).toBe(current_user.id);

    // The code worked once.
    const again = await oauth.authorizationCodeGrantRequest(
      as,
      oauthClient,
      oauth.ClientSecretBasic(secret),
      params,
      REDIRECT,
      verifier,
      { [oauth.allowInsecureRequests]: true },
    );
    expect(again.status).toBe(400);
    expect(await again.json()).toMatchObject({ error: "invalid_grant" });
    await reader.close();
  });
}
