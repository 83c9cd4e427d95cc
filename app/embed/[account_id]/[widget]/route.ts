// GET /embed/{account_id}/{widget} – a widget frame (comments, feed, ugc, reactions), loaded in an iframe by the loader
import { z } from "zod";

import { getEnv } from "@/env.js";
import { apiRoute, routes } from "@/server/http/route";
import { renderFramePage, WIDGET_KINDS, ZFrameQuery } from "@/server/widgets/frame-page";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: apiRoute(
    {
      auth: "publisherJwt",
      produces: "any",
      params: z.object({ account_id: z.string(), widget: z.enum(WIDGET_KINDS) }),
      query: ZFrameQuery,
      summary:
        "The HTML page of a widget frame for page_url, with the container's settings as query parameters (colours, font, topic, widget_id, parent_origin). Sent with a strict Content-Security-Policy whose frame-ancestors are the publication's hosts. The reader's JWT is never in this URL: the loader posts it to the frame.",
    },
    async ({ db, account, params, query }) =>
      renderFramePage(db, { accountId: account.id, kind: params.widget, query, appUrl: getEnv().APP_URL }),
  ),
});
