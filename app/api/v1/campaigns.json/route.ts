// GET /api/v1/campaigns.json – the account's public campaign groups
import { json } from "@/server/http/respond";
import { apiRoute, routes } from "@/server/http/route";
import { CATALOGUE_NO_STORE } from "@/server/http/subscription-routes";
import { listPublicGroupsOfType } from "@/server/subscriptions/catalogue/catalogue";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: apiRoute(
    {
      auth: "serverOrClient",
      cors: true,
      summary:
        "{subscription_groups:[campaign group]}: the public campaign groups with their live plans, currency, target_amount, target_reached, collected_amount_cents, collected_amount (decimal string) and collected_amount_percentage. The server key, or the client key in ?key=.",
    },
    async ({ db, account }) =>
      json(
        { subscription_groups: await listPublicGroupsOfType(db, { accountId: account.id, type: "campaign" }) },
        CATALOGUE_NO_STORE,
      ),
  ),
});
