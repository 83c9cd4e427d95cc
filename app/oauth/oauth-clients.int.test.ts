/**
 * The OAuth 2.0 provider's clients and its authorize step, driven by a real OAuth client library
 * (oauth4webapi) through the route handlers (server/testing/oauth-client.ts): never a redirect to
 * an unregistered redirect_uri nor for an unknown, revoked or other account's client; a revoked
 * client's secret and tokens stop working; a rotated secret ends the old one; edited redirect URIs
 * apply at once; without a member session, the login page with a return-to, and auto-sso goes back
 * with login_required.
 */
import { describe, expect, it } from "vitest";

import { revokeOAuthClient, rotateOAuthClientSecret, updateOAuthClient } from "@/server/oauth/clients";
import {
  authorizeUrl,
  browse,
  codeExchange,
  getCode,
  oauthSetup,
  REDIRECT,
  serve,
  SITE,
  tokenForm,
  withRealTimers,
} from "@/server/testing/oauth-client";

withRealTimers();

describe("OAuth 2.0 provider with a real client library (oauth4webapi)", () => {
  it("never redirects to an unregistered redirect_uri nor for an unknown, revoked or other account's client", async () => {
    const s = await oauthSetup();
    const bad: Record<string, string>[] = [
      { redirect_uri: "https://evil.example.com/callback" },
      { redirect_uri: `${REDIRECT}/` },
      { redirect_uri: `${REDIRECT}?x=1` },
      { client_id: "mh_oc_unknown" },
      { client_id: s.other.client.clientId },
    ];
    for (const params of bad) {
      const { status, location, res } = await browse(authorizeUrl(s, params), s.cookie);
      expect([status, location], JSON.stringify(params)).toEqual([400, null]);
      expect(await res.json()).toMatchObject({ error: { code: "BAD_REQUEST" } });
    }
    const noClient = new URL(authorizeUrl(s));
    noClient.searchParams.delete("client_id");
    expect((await browse(noClient.href, s.cookie)).status).toBe(400);

    // Revoking the client: authorize refuses it, its secret stops working, and its tokens die.
    const code = (await getCode(s)).get("code")!;
    const fields = codeExchange(s, code);
    const { access_token } = (await (await tokenForm(fields)).json()) as { access_token: string };
    const code2 = (await getCode(s)).get("code")!;
    await revokeOAuthClient(s.db, { actor: s.actor, id: s.client.id, now: new Date() });
    expect((await browse(authorizeUrl(s), s.cookie)).status).toBe(400);
    expect((await tokenForm({ ...fields, code: code2 })).status).toBe(401);
    expect(
      (await serve(`${SITE}/api/v1/current_user.json`, { headers: { authorization: `Bearer ${access_token}` } }))
        .status,
    ).toBe(401);
  });

  it("rotating the secret ends the old one; editing redirect URIs applies at once", async () => {
    const s = await oauthSetup();
    const { clientSecret } = await rotateOAuthClientSecret(s.db, { actor: s.actor, id: s.client.id, now: new Date() });
    const code = (await getCode(s)).get("code")!;
    const fields = { grant_type: "authorization_code", client_id: s.client.clientId, code, redirect_uri: REDIRECT };
    expect((await tokenForm({ ...fields, client_secret: s.clientSecret })).status).toBe(401);
    expect((await tokenForm({ ...fields, client_secret: clientSecret })).status).toBe(200);
    await updateOAuthClient(s.db, {
      actor: s.actor,
      input: { id: s.client.id, redirectUris: ["https://app.example.com/new"] },
    });
    expect((await browse(authorizeUrl(s), s.cookie)).status).toBe(400);
    const actions = (
      await s.db.auditLog.findMany({
        where: { targetType: "oauth_client", accountId: s.publisher.accountId },
        orderBy: { createdAt: "asc" },
      })
    ).map((e) => e.action);
    expect(actions).toEqual(["oauth_client.create", "oauth_client.rotate_secret", "oauth_client.update"]);
  });

  it("without a member session: the login page with a return-to; auto-sso goes back with login_required", async () => {
    const s = await oauthSetup();
    const url = authorizeUrl(s, { state: "xyz" });
    const { status, location } = await browse(url);
    expect(status).toBe(302);
    expect(location).toBe(`/member/login?return_to=${encodeURIComponent(new URL(url).pathname + new URL(url).search)}`);
    // Another publisher's reader session is no session here.
    const { status: s2, location: l2 } = await browse(url, "qt-auth=not-a-session");
    expect([s2, l2?.startsWith("/member/login?")]).toEqual([302, true]);

    const auto = await browse(authorizeUrl(s, { state: "xyz" }, "/api/auth/v1/oauth/auto-sso/authorize"));
    const back = new URL(auto.location!);
    expect([back.origin + back.pathname, back.searchParams.get("error"), back.searchParams.get("state")]).toEqual([
      REDIRECT,
      "login_required",
      "xyz",
    ]);
    const signedIn = await getCode(s, {}, "/api/auth/v1/oauth/auto-sso/authorize");
    expect(signedIn.get("code")).toBeTruthy();
  });
});
