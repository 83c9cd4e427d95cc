// GET /api/auth/v1/oauth/authorize – the auth component's authorize (bridgekeeper's oauthAuthorize)
import { authorizeRoute } from "@/server/http/oauth-routes";
import { routes } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: authorizeRoute({
    autoSso: false,
    summary:
      "As GET /oauth/authorize, with the qt-auth session cookie; callback_uri (a page on the publication's hosts) is " +
      "passed on to redirect_uri with the code; allow_ajax=true answers 200 {redirect_uri} instead of a 302.",
  }),
});
