// GET /frontend/v2/accesstype.d.ts – the TypeScript declarations of window.AccessType
import { ACCESSTYPE_DTS } from "@/sdk/accesstype/bundle.generated";
import { apiRoute, routes } from "@/server/http/route";
import { staticAssetResponse } from "@/server/http/static-asset";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: apiRoute(
    {
      auth: "public",
      produces: "any",
      summary: "The TypeScript declarations of the AccessType browser SDK (window.AccessType and its wire types).",
    },
    async ({ req }) => staticAssetResponse(req, ACCESSTYPE_DTS, "text/plain; charset=utf-8"),
  ),
});
