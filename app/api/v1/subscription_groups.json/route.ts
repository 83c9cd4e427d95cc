// GET /api/v1/subscription_groups.json – the account's public subscription groups with their live plans
import { json } from "@/server/http/respond";
import { apiRoute, routes } from "@/server/http/route";
import { CATALOGUE_NO_STORE } from "@/server/http/subscription-routes";
import { listPublicGroups } from "@/server/subscriptions/catalogue/catalogue";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: apiRoute(
    {
      auth: "serverOrClient",
      cors: true,
      summary:
        "{subscription_groups:[group]}: every public, non-deleted group of the account (any subscription_type) with its enabled, non-deleted plans and assets; campaign groups carry their target and collected amounts. The server key, or the client key in ?key= as browser paywalls call it.",
    },
    async ({ db, account }) =>
      json({ subscription_groups: await listPublicGroups(db, { accountId: account.id }) }, CATALOGUE_NO_STORE),
  ),
});
