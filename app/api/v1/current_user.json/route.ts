// GET /api/v1/current_user.json – the reader an OAuth access token speaks for
import { privateJson } from "@/server/http/member-session";
import { apiRoute, routes } from "@/server/http/route";
import { currentUserOfToken } from "@/server/oauth/current-user";
import { ZCurrentUserQuery } from "@/server/oauth/provider.schema";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: apiRoute(
    {
      auth: "oauth",
      query: ZCurrentUserQuery,
      cors: true,
      rateLimit: { name: "oauth.current-user", limit: 120, windowSeconds: 60, by: "ip" },
      summary:
        "access_token (query) or Authorization: Bearer → {current_user: {id, name, avatar, bio, slug}}; id is the " +
        "reader's member id (the author_id of their comments). 401 for a missing, unknown, expired or revoked token.",
    },
    async ({ oauth }) => privateJson(currentUserOfToken(oauth.member)),
  ),
});
