// GET /oauth/authorize – OAuth 2.0 authorization endpoint (code flow, PKCE S256): a code to redirect_uri
import { authorizeRoute } from "@/server/http/oauth-routes";
import { routes } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: authorizeRoute({
    autoSso: false,
    summary:
      "Authorization code flow (spec §4.1): client_id, redirect_uri (exactly as registered), response_type=code, state, " +
      "code_challenge + code_challenge_method=S256, scope. Signed in: 302 to redirect_uri?code=&state=; not signed in: 302 " +
      "to /member/login; unknown client or redirect_uri: 400 (never redirected); other errors: redirect_uri?error=.",
  }),
});
