// POST /api/login/<provider> – social / OpenID Connect login: {token, "set-session"} → {member, user} and a session
import { socialLoginRoute } from "@/server/http/member-routes";
import { routes } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  POST: socialLoginRoute(
    '@quintype/bridgekeeper-js createSession and quintype-ruby POST login/<provider>: {token, "set-session"} with an ID token (OpenID Connect: google, apple, or a provider the owner configured) or a Facebook access token. 200 {member, user} (the same member); with "set-session" the session as /api/auth/v1/login sets it (X-QT-AUTH, cookies). 401 for a bad, forged or expired token, 404 for an unknown provider, 422 for google/facebook/apple not configured.',
  ),
});
