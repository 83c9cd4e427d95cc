/**
 * The catalogue listings' route handlers, shared by the route files that serve one listing on
 * two paths (`group_subscriptions` and `group-access`, which a real client calls).
 */
import { listPublicGroupsOfType } from "../subscriptions/catalogue/catalogue";
import { json } from "./respond";
import { apiRoute } from "./route";

const NO_STORE = { headers: { "Cache-Control": "no-store" } };
export const CATALOGUE_NO_STORE = NO_STORE;

/** GET …?key=: the public groups of one type as a bare array (client API, browser-facing). */
export function publicGroupsByKeyRoute(type: "standard" | "campaign" | "group_access", summary: string) {
  return apiRoute({ auth: "client", cors: true, summary }, async ({ db, account }) =>
    json(await listPublicGroupsOfType(db, { accountId: account.id, type }), NO_STORE),
  );
}
