// GET  /api/auth/v1/oauth/token – internal exchange: the code becomes the reader's session, then callback_uri
// POST /api/auth/v1/oauth/token – external exchange: the code for a JWT access token
import { internalExchangeRoute, tokenRoute } from "@/server/http/oauth-routes";
import { routes } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: internalExchangeRoute(
    "code, callback_uri (a page on the publication's hosts), code_verifier when the code has a PKCE challenge: sets " +
      "the qt-auth session cookies on this host and 302 to callback_uri; a bad, expired or used code is 400.",
  ),
  POST: tokenRoute({
    format: "jwt",
    summary:
      "As POST /oauth/token, but access_token is an HS256 JWT signed with the account's shared key (sub: member id, " +
      "aud: client_id, jti, exp), so the publisher's back end can verify it; it also works at current_user.json.",
  }),
});
