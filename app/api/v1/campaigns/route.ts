// GET /api/v1/campaigns?key= – the account's public campaign groups, as a bare array
import { routes } from "@/server/http/route";
import { publicGroupsByKeyRoute } from "@/server/http/subscription-routes";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: publicGroupsByKeyRoute(
    "campaign",
    "[campaign group]: the public campaign groups of the account whose client key is `key`.",
  ),
});
