/**
 * The catalogue listings' route handlers: one listing served on two paths (`group_subscriptions`
 * and `group-access`, which a real client calls), and the JSON listings of groups (CATALOGUE, one
 * a route file).
 */
import type { z } from "zod";

import { getGroup, listPublicGroups, listPublicGroupsOfType } from "../subscriptions/catalogue/catalogue";
import { ZGroupIdParams } from "../subscriptions/catalogue/catalogue.schema";
import { json } from "./respond";
import { apiRoute, type HandlerContext, type RouteHandler, type RouteOptions } from "./route";

const NO_STORE = { headers: { "Cache-Control": "no-store" } };
export const CATALOGUE_NO_STORE = NO_STORE;

/** GET …?key=: the public groups of one type as a bare array (client API, browser-facing). */
export function publicGroupsByKeyRoute(type: "standard" | "campaign" | "group_access", summary: string) {
  return apiRoute({ auth: "client", cors: true, summary }, async ({ db, account }) =>
    json(await listPublicGroupsOfType(db, { accountId: account.id, type }), NO_STORE),
  );
}

/** The catalogue's JSON listings: `load` gives the answer, never cached. */
function catalogueRoute<A extends "server" | "serverOrClient", P extends z.ZodType = z.ZodType>(
  options: Pick<RouteOptions<A, z.ZodType, z.ZodType, P>, "auth" | "params" | "cors" | "summary">,
  load: (ctx: HandlerContext<A, z.ZodType, z.ZodType, P>) => Promise<unknown>,
): RouteHandler {
  return apiRoute(options, async (ctx: HandlerContext<A, z.ZodType, z.ZodType, P>) => json(await load(ctx), NO_STORE));
}

export const CATALOGUE = {
  groups: catalogueRoute(
    {
      auth: "serverOrClient",
      cors: true,
      summary:
        "{subscription_groups:[group]}: every public, non-deleted group of the account (any subscription_type) with its enabled, non-deleted plans and assets; campaign groups carry their target and collected amounts. The server key, or the client key in ?key= as browser paywalls call it.",
    },
    async ({ db, account }) => ({ subscription_groups: await listPublicGroups(db, { accountId: account.id }) }),
  ),
  campaigns: catalogueRoute(
    {
      auth: "serverOrClient",
      cors: true,
      summary:
        "{subscription_groups:[campaign group]}: the public campaign groups with their live plans, currency, target_amount, target_reached, collected_amount_cents, collected_amount (decimal string) and collected_amount_percentage. The server key, or the client key in ?key=.",
    },
    async ({ db, account }) => ({
      subscription_groups: await listPublicGroupsOfType(db, { accountId: account.id, type: "campaign" }),
    }),
  ),
  group: catalogueRoute(
    {
      auth: "server",
      params: ZGroupIdParams,
      summary:
        "{subscription_group}: the group with this id (`12.json` or `12`), public or private, with its enabled, non-deleted plans. 404 for a deleted group or another account's.",
    },
    async ({ db, account, params }) => ({
      subscription_group: await getGroup(db, { accountId: account.id, id: params.group_id }),
    }),
  ),
};
