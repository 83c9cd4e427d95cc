// GET /api/v1/subscription_groups/<group-id>.json – one group of the account, public or private
import { json } from "@/server/http/respond";
import { apiRoute, routes } from "@/server/http/route";
import { CATALOGUE_NO_STORE } from "@/server/http/subscription-routes";
import { getGroup } from "@/server/subscriptions/catalogue/catalogue";
import { ZGroupIdParams } from "@/server/subscriptions/catalogue/catalogue.schema";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: apiRoute(
    {
      auth: "server",
      params: ZGroupIdParams,
      summary:
        "{subscription_group}: the group with this id (`12.json` or `12`), public or private, with its enabled, non-deleted plans. 404 for a deleted group or another account's.",
    },
    async ({ db, account, params }) =>
      json(
        { subscription_group: await getGroup(db, { accountId: account.id, id: params.group_id }) },
        CATALOGUE_NO_STORE,
      ),
  ),
});
