/**
 * GET /preview/<token> and /preview/<token>/amp: a story's current saved state for whoever holds
 * its private, expiring preview link (server/publishing/editorial/preview.ts), as a plain article
 * or as its AMP page. The token is the key: no sign-in; answers are neither cached nor indexed.
 */
import "server-only";

import { z } from "zod";

import { getEnv } from "../../env.js";
import { PREVIEW_AS, renderPreview } from "../publishing/editorial/preview";
import { apiRoute } from "./route";

const SUMMARY = {
  article: "A story's current saved state as a plain article",
  amp: "A story's current saved state as its AMP page (the one published stories get)",
} as const;

export function previewRoute(format: "article" | "amp") {
  return apiRoute(
    {
      auth: "public",
      produces: "any",
      params: z.object({ token: z.string().max(200) }),
      // The article view of a closed story: as a reader without access (its free part) or with access (all of it).
      query: format === "article" ? z.object({ as: z.enum(PREVIEW_AS).optional() }) : undefined,
      summary: `${SUMMARY[format]}, for the holder of a preview link (24 hours; 404 when forged, 410 when expired). Not cached, not indexed.${format === "article" ? " ?as=reader shows a closed story as a reader without access sees it (its free part), ?as=subscriber (the default) all of it with the paywall point marked." : ""}`,
    },
    async ({ db, params, query }) => {
      const answer = await renderPreview(db, {
        token: params.token,
        format,
        as: "as" in query ? query.as : undefined,
        now: new Date(),
        appUrl: getEnv().APP_URL,
      });
      return new Response(answer.html, {
        status: answer.status,
        headers: { "Content-Type": answer.contentType, ...answer.headers },
      });
    },
  );
}
