// GET /api/v1/preview/{token} – the story a preview token names, for the publication's own preview page
import { z } from "zod";

import { json } from "@/server/http/respond";
import { apiRoute, routes } from "@/server/http/route";
import { getPreviewStory, PREVIEW_HEADERS } from "@/server/publishing/editorial/preview";
import { contentContext } from "@/server/publishing/stories";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: apiRoute(
    {
      auth: "publisher",
      params: z.object({ token: z.string().min(1).max(200) }),
      summary:
        "The story a preview token (from the editor's Preview, valid 24 hours) names, in its current saved state whatever its status: {story} in the stories' shape, never cached. 404 for a forged token or another publication's story, 410 when it has expired.",
    },
    async ({ db, publisher, params }) => {
      const story = await getPreviewStory(db, { ctx: contentContext(publisher), token: params.token, now: new Date() });
      return json({ story }, { headers: PREVIEW_HEADERS });
    },
  ),
});
