// GET /api/auth/v1/oauth/auto-sso/authorize – authorize without a login page (bridgekeeper's getAutoSSOUrl)
import { authorizeRoute } from "@/server/http/oauth-routes";
import { routes } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: authorizeRoute({
    autoSso: true,
    summary:
      "As GET /api/auth/v1/oauth/authorize when the reader is signed in; otherwise 302 to redirect_uri?error=login_required " +
      "(no login page).",
  }),
});
