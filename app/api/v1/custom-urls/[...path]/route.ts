// GET /api/v1/custom-urls/<url-encoded path> – the redirect or static page at a site path: {page}
import { z } from "zod";

import { AppError } from "@/server/errors";
import { contentRoute } from "@/server/http/content-routes";
import { routes } from "@/server/http/route";
import { customUrlPath, getCustomUrlPage } from "@/server/publishing/custom-urls";
import { splitPath, ZCustomUrlPath } from "@/server/publishing/reference.schema";

const PREFIX = "/api/v1/custom-urls/";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: contentRoute(
    {
      params: z.object({ path: z.preprocess(splitPath, z.array(z.string()).min(1)) }),
      summary:
        "The redirect or static page at a path of the site; the path URL-encoded as one segment (%2Fold%2Fpage).",
    },
    async ({ db, ctx, url, params }) => {
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
      const body = await getCustomUrlPage(db, { accountId: ctx.accountId, path: parsed.data });
      return { body, tags: ["custom-urls", `sp/${body.page.id}`] };
    },
  ),
});
