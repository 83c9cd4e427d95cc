// POST /oauth/token – OAuth 2.0 token endpoint: an authorization code for an access token
import { tokenRoute } from "@/server/http/oauth-routes";
import { routes } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  POST: tokenRoute({
    format: "opaque",
    summary:
      "grant_type=authorization_code, code, redirect_uri, code_verifier, client_id + client_secret (body or HTTP Basic); " +
      "form-urlencoded or JSON → {access_token, token_type: bearer, expires_in, created_at}. Errors in RFC 6749 shape: " +
      "{error, error_description}, 400 (invalid_request, invalid_grant, unsupported_grant_type) or 401 (invalid_client).",
  }),
});
