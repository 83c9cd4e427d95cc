// GET /api/v1/custom-urls/<url-encoded path> – the redirect or static page at a site path: {page}
import { z } from "zod";

import { AppError } from "@/server/errors";
import { contentResponse } from "@/server/http/content-cache";
import { apiRoute, routes } from "@/server/http/route";
import { customUrlPath, getCustomUrlPage } from "@/server/publishing/custom-urls";
import { splitPath, ZCustomUrlPath } from "@/server/publishing/reference.schema";

const PREFIX = "/api/v1/custom-urls/";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: apiRoute(
    {
      auth: "publisher",
      params: z.object({ path: z.preprocess(splitPath, z.array(z.string()).min(1)) }),
      summary:
        "The redirect or static page at a path of the site; the path URL-encoded as one segment (%2Fold%2Fpage).",
    },
    async ({ req, db, publisher, url, params }) => {
      // The raw path keeps "%2F" as the client sent it; decode it once ourselves.
      const raw = url.pathname.startsWith(PREFIX)
        ? url.pathname.slice(PREFIX.length)
        : params.path.map(encodeURIComponent).join("/");
      const parsed = ZCustomUrlPath.safeParse(customUrlPath(raw));
      if (!parsed.success) {
        throw new AppError("BAD_REQUEST", "Invalid path.", {
          details: parsed.error.issues.map((i) => ({ field: "params.path", issue: i.message })),
        });
      }
      const { accountId } = publisher;
      const body = await getCustomUrlPage(db, { accountId, path: parsed.data });
      return contentResponse(req, body, { tags: ["custom-urls", `sp/${body.page.id}`] });
    },
  ),
});
