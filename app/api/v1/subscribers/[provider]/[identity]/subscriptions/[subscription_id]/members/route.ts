// GET|POST|DELETE /api/v1/subscribers/{provider}/{identity}/subscriptions/{id}/members – the members of a
// group_access subscription (server API)
import { json } from "@/server/http/respond";
import { apiRoute, routes } from "@/server/http/route";
import {
  findPathSubscriber,
  NO_STORE,
  notFoundSubscriber,
  SERVER_READ_LIMIT,
  SERVER_WRITE_LIMIT,
  ZSubscriberSubscriptionParams,
} from "@/server/http/subscriber-subscription-routes";
import { addGroupMember, listGroupMembers, removeGroupMembers } from "@/server/subscriptions/subscribers/group-members";
import {
  ZAddGroupMemberBody,
  ZRemoveGroupMembersQuery,
} from "@/server/subscriptions/subscribers/subscription-actions.schema";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: apiRoute(
    {
      auth: "server",
      params: ZSubscriberSubscriptionParams,
      rateLimit: SERVER_READ_LIMIT,
      summary:
        "The members of the subscriber's group_access subscription, oldest first → {members: [Subscriber]}. 404 for another subscriber's id; 422 for a subscription of another type.",
    },
    async ({ db, account, params }) => {
      const owner = await findPathSubscriber(db, { accountId: account.id, ...params });
      if (!owner) throw notFoundSubscriber();
      const members = await listGroupMembers(db, {
        accountId: account.id,
        ownerId: owner.id,
        subscriptionId: params.subscription_id,
        now: new Date(),
      });
      return json({ members }, NO_STORE);
    },
  ),
  POST: apiRoute(
    {
      auth: "server",
      params: ZSubscriberSubscriptionParams,
      body: ZAddGroupMemberBody,
      maxBodyBytes: 4_096,
      rateLimit: SERVER_WRITE_LIMIT,
      summary:
        "{member:{provider, identity, name?}}: add the reader at that identity (created when new) as a member → 201 {members: Subscriber} (the member added); already a member → 200, nothing changed. 422 when the plan's user_limit is reached, for a subscription that is not group_access or has failed, or for the subscriber themself; 404 for another subscriber's id.",
    },
    async ({ db, account, params, body }) => {
      const owner = await findPathSubscriber(db, { accountId: account.id, ...params });
      if (!owner) throw notFoundSubscriber();
      const { member, added } = await addGroupMember(db, {
        accountId: account.id,
        ownerId: owner.id,
        subscriptionId: params.subscription_id,
        member: body.member,
        now: new Date(),
      });
      return json({ members: member }, { status: added ? 201 : 200, headers: NO_STORE.headers });
    },
  ),
  DELETE: apiRoute(
    {
      auth: "server",
      params: ZSubscriberSubscriptionParams,
      query: ZRemoveGroupMembersQuery,
      rateLimit: SERVER_WRITE_LIMIT,
      summary:
        "ids[]=<member id> (required, repeatable): remove those members (ids that are not members are ignored) → {}. 404 for another subscriber's id; 422 for a subscription that is not group_access.",
    },
    async ({ db, account, params, query }) => {
      const owner = await findPathSubscriber(db, { accountId: account.id, ...params });
      if (!owner) throw notFoundSubscriber();
      await removeGroupMembers(db, {
        accountId: account.id,
        ownerId: owner.id,
        subscriptionId: params.subscription_id,
        ids: query.ids,
        now: new Date(),
      });
      return json({}, NO_STORE);
    },
  ),
});
