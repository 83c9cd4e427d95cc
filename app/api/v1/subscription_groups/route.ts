// GET /api/v1/subscription_groups?key= – the account's public standard groups, as a bare array
import { routes } from "@/server/http/route";
import { publicGroupsByKeyRoute } from "@/server/http/subscription-routes";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: publicGroupsByKeyRoute(
    "standard",
    "[group]: the public standard-type groups of the account whose client key is `key`, with their enabled, non-deleted plans. A user JWT (accesstype_jwt, svc_jwt, masthead_jwt) may be sent and is ignored.",
  ),
});
