/**
 * The OAuth 2.0 provider for the auth component (/api/auth/v1/oauth), driven by a real OAuth
 * client library (oauth4webapi) through the route handlers (server/testing/oauth-client.ts):
 * allow_ajax and callback_uri, the external exchange for a JWT the publisher verifies with the
 * shared key (a login JWT for the comment API naming the same member, and without an id when
 * masthead:<member id> already names another member), and the internal exchange for a session
 * cookie.
 */
import { jwtVerify } from "jose";
import { describe, expect, it } from "vitest";

import { GET as widgetCurrentUser } from "@/app/api/v1/accounts/[account_id]/current_user/route";
import { signUpMember } from "@/server/members/members";
import {
  authorizeUrl,
  browse,
  codeExchange,
  getCode,
  oauthSetup,
  serve,
  SITE,
  tokenForm,
  withRealTimers,
} from "@/server/testing/oauth-client";

withRealTimers();

describe("OAuth 2.0 provider with a real client library (oauth4webapi)", () => {
  it("the auth component: allow_ajax, callback_uri, the JWT exchange and the internal exchange", async () => {
    const s = await oauthSetup();
    const ajax = await browse(
      authorizeUrl(s, { allow_ajax: "true", callback_uri: `${SITE}/story/1` }, "/api/auth/v1/oauth/authorize"),
      s.cookie,
    );
    expect(ajax.status).toBe(200);
    const { redirect_uri } = (await ajax.res.json()) as { redirect_uri: string };
    const landed = new URL(redirect_uri);
    expect(landed.searchParams.get("callback_uri")).toBe(`${SITE}/story/1`);
    const signedOut = await browse(authorizeUrl(s, { allow_ajax: "true" }, "/api/auth/v1/oauth/authorize"));
    expect(((await signedOut.res.json()) as { redirect_uri: string }).redirect_uri).toMatch(
      /^\/member\/login\?return_to=/,
    );
    // callback_uri off the publication's hosts (or not http) goes back as an error.
    for (const callback of ["https://evil.example.com/", "javascript://a.example.com/%0aalert(1)"]) {
      const off = await browse(authorizeUrl(s, { callback_uri: callback }, "/api/auth/v1/oauth/authorize"), s.cookie);
      expect(new URL(off.location!).searchParams.get("error")).toBe("invalid_request");
    }

    // External exchange: a JWT the publisher verifies with the shared key.
    const res = await tokenForm(codeExchange(s, landed.searchParams.get("code")!), {}, "/api/auth/v1/oauth/token");
    expect(res.status).toBe(200);
    const token = (await res.json()) as { access_token: string; token_type: string };
    const { payload, protectedHeader } = await jwtVerify(
      token.access_token,
      new TextEncoder().encode("publisher-shared-secret-for-tests-0001"),
      {
        audience: s.client.clientId,
      },
    );
    expect(protectedHeader).toMatchObject({ alg: "HS256", typ: "at+jwt" });
    expect(payload).toMatchObject({ sub: String(s.member.id), name: "Ada Reader", client_id: s.client.clientId });
    // The same token is a login JWT for the comment API, naming this same member (one reader, one record).
    expect(payload.id).toBe(`masthead:${s.member.id}`);
    const widget = await widgetCurrentUser(
      new Request(`${SITE}/api/v1/accounts/${s.publisher.accountId}/current_user?jwt=${token.access_token}`, {
        headers: { host: "a.example.com" },
      }),
      { params: Promise.resolve({ account_id: String(s.publisher.accountId) }) },
    );
    expect(await widget.json()).toMatchObject({
      signed_in: true,
      current_user: { id: s.member.id, name: "Ada Reader" },
    });
    expect(await s.db.member.count({ where: { accountId: s.publisher.accountId } })).toBe(1);
    const me = await serve(`${SITE}/api/v1/current_user.json`, {
      headers: { authorization: `Bearer ${token.access_token}` },
    });
    expect(((await me.json()) as { current_user: { id: number } }).current_user.id).toBe(s.member.id);

    // Internal exchange: the code becomes a session cookie on this host, then callback_uri.
    const code = (await getCode(s, {}, "/api/auth/v1/oauth/authorize")).get("code")!;
    // Another site's script (not a top-level navigation) is refused, and the code is not spent.
    const exchangeUrl = `${SITE}/api/auth/v1/oauth/token?code=${code}&callback_uri=${encodeURIComponent(`${SITE}/story/1`)}`;
    const crossSite: Record<string, string>[] = [
      { "sec-fetch-site": "cross-site", "sec-fetch-mode": "cors", "sec-fetch-dest": "empty" },
      { "sec-fetch-site": "cross-site", "sec-fetch-mode": "navigate", "sec-fetch-dest": "iframe" },
      { origin: "https://evil.example.net" },
    ];
    for (const headers of crossSite) {
      const refused = await serve(exchangeUrl, { headers });
      expect(refused.status, JSON.stringify(headers)).toBe(403);
      expect(refused.headers.getSetCookie()).toEqual([]);
    }
    const bad = await serve(
      `${SITE}/api/auth/v1/oauth/token?code=${code}&callback_uri=${encodeURIComponent("https://evil.example.com/")}`,
    );
    expect(bad.status).toBe(400);
    // The redirect back: a top-level navigation, from the provider's page on another site.
    const internal = await serve(exchangeUrl, {
      headers: { "sec-fetch-site": "cross-site", "sec-fetch-mode": "navigate", "sec-fetch-dest": "document" },
    });
    expect(internal.status).toBe(302);
    expect(internal.headers.get("location")).toBe(`${SITE}/story/1`);
    const cookie = internal.headers.getSetCookie().find((c) => c.startsWith("qt-auth="))!;
    expect(cookie).toMatch(/HttpOnly/);
    const again = await serve(
      `${SITE}/api/auth/v1/oauth/token?code=${code}&callback_uri=${encodeURIComponent(`${SITE}/story/1`)}`,
    );
    expect(again.status).toBe(400);
    // The new session is the same reader.
    const withNewSession = await getCode({ ...s, cookie: cookie.split(";")[0]! });
    expect(withNewSession.get("code")).toBeTruthy();
  });

  it("the JWT carries no id when masthead:<member id> already names another member", async () => {
    const s = await oauthSetup();
    const other = await signUpMember(s.db, {
      publisher: s.publisher,
      input: { name: "Someone else", email: `else.${Date.now()}@example.com`, password: "correct horse battery" },
      now: new Date(),
    });
    await s.db.memberIdentity.create({
      data: {
        accountId: s.publisher.accountId,
        provider: "publisher",
        externalId: `masthead:${s.member.id}`,
        memberId: other.member.id,
      },
    });
    const code = (await getCode(s)).get("code")!;
    const res = await tokenForm(codeExchange(s, code), {}, "/api/auth/v1/oauth/token");
    const { access_token } = (await res.json()) as { access_token: string };
    const { payload } = await jwtVerify(
      access_token,
      new TextEncoder().encode("publisher-shared-secret-for-tests-0001"),
    );
    expect(payload).toMatchObject({ sub: String(s.member.id) });
    expect(payload.id).toBeUndefined();
  });
});
