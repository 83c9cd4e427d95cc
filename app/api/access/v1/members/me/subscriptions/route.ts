// GET|POST /api/access/v1/members/me/subscriptions – the signed-in reader's subscriptions, and create one
// from a preview (checkout) (client API)
import { clientCheckoutRoute } from "@/server/http/checkout-routes";
import { PRIVATE_NO_STORE, READER_READ_LIMIT, readerMember } from "@/server/http/reader-subscription-routes";
import { json } from "@/server/http/respond";
import { apiRoute, routes } from "@/server/http/route";
import { ZClientQuery } from "@/server/subscriptions/subscribers/subscribers.schema";
import { listSubscriberSubscriptions } from "@/server/subscriptions/subscribers/subscriptions";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: apiRoute(
    {
      auth: "client+optionalUser",
      query: ZClientQuery,
      cors: true,
      rateLimit: READER_READ_LIMIT,
      summary:
        "The reader's subscriptions, newest first → [Subscription]. Without a JWT, or for a reader never seen, [] (the spec marks the JWT optional; no reader has no subscriptions).",
    },
    async ({ db, account, user }) => {
      const member = await readerMember(db, account.id, user);
      const list = member
        ? await listSubscriberSubscriptions(db, {
            accountId: account.id,
            memberId: member.id,
            activeOnly: false,
            now: new Date(),
          })
        : [];
      return json(list, PRIVATE_NO_STORE);
    },
  ),
  POST: clientCheckoutRoute("create"),
});
