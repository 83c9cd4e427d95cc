// GET /preview/<token> – a story's current draft as a plain article, for whoever holds the private, expiring link
import { z } from "zod";

import { getEnv } from "@/env.js";
import { apiRoute, routes } from "@/server/http/route";
import { renderPreview } from "@/server/publishing/editorial/preview";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: apiRoute(
    {
      auth: "public",
      produces: "any",
      params: z.object({ token: z.string().max(200) }),
      summary:
        "A story's current saved state as a plain article, for the holder of a preview link (24 hours; 404 when forged, 410 when expired). Not cached, not indexed.",
    },
    async ({ db, params }) => {
      const answer = await renderPreview(db, {
        token: params.token,
        format: "article",
        now: new Date(),
        appUrl: getEnv().APP_URL,
      });
      return new Response(answer.html, {
        status: answer.status,
        headers: { "Content-Type": answer.contentType, ...answer.headers },
      });
    },
  ),
});
