// GET /api/v1/asset/<story|collection>/pricing_plans.json – pay-per-asset prices of a story or collection
import { json } from "@/server/http/respond";
import { apiRoute, routes } from "@/server/http/route";
import { CATALOGUE_NO_STORE } from "@/server/http/subscription-routes";
import { ZPricingPlansParams, ZPricingPlansQuery } from "@/server/subscriptions/catalogue/catalogue.schema";
import { listPricingPlans } from "@/server/subscriptions/catalogue/pricing-plans";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: apiRoute(
    {
      auth: "serverOrClient",
      params: ZPricingPlansParams,
      query: ZPricingPlansQuery,
      cors: true,
      summary:
        "{pricing_plans:[{id, title, asset_type, price_cents, price_currency, duration_length, duration_unit}]}: the enabled pay-per-asset plans that price the story or collection `id` (without id: every plan of the type); for a story, the collection plans of its collections (collection_id[]) too. The server key, or the client key in ?key=.",
    },
    async ({ db, account, params, query }) =>
      json(
        await listPricingPlans(db, { accountId: account.id, assetType: params.asset_type, query }),
        CATALOGUE_NO_STORE,
      ),
  ),
});
