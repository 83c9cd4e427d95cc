// GET /api/v1/group_subscriptions?key= – the account's public group_access groups with their plans
import { routes } from "@/server/http/route";
import { publicGroupsByKeyRoute } from "@/server/http/subscription-routes";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: publicGroupsByKeyRoute(
    "group_access",
    "[group]: the public group_access groups of the account whose client key is `key`, with their live plans (user_limit per plan).",
  ),
});
