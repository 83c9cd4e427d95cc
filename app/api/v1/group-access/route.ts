// GET /api/v1/group-access?key= – as /api/v1/group_subscriptions (the path an existing client calls)
import { routes } from "@/server/http/route";
import { publicGroupsByKeyRoute } from "@/server/http/subscription-routes";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: publicGroupsByKeyRoute(
    "group_access",
    "[group]: the same as /api/v1/group_subscriptions, on the path existing paywall clients call.",
  ),
});
