// GET /api/member/subscriptions/{id}/payment-method/hosted – go to the gateway's own page to change the subscription's card
import { apiRoute, routes } from "@/server/http/route";
import { SELF_SERVICE_READ_LIMIT, ZSelfServiceParams } from "@/server/http/self-service-routes";
import { hostedPaymentMethodLink } from "@/server/subscriptions/self-service/self-service-payment-method";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: apiRoute(
    {
      auth: "member",
      params: ZSelfServiceParams,
      rateLimit: SELF_SERVICE_READ_LIMIT,
      summary:
        "303 to the gateway's hosted page where the subscriber changes the subscription's card (Razorpay: the subscription's short_url, fetched with GET /v1/subscriptions/<id>); the gateway's webhook then reports the new card. 422 when the subscription is not recurring, has ended, or its gateway has no such page (manual, sponsored, or one whose card changes on the page's own form); 503 when the gateway cannot be reached.",
    },
    async ({ db, publisher, member, params }) => {
      const { url } = await hostedPaymentMethodLink(db, {
        accountId: publisher.accountId,
        memberId: member.member.id,
        subscriptionId: params.subscription_id,
        now: new Date(),
      });
      return new Response(null, {
        status: 303,
        headers: { location: url, "cache-control": "private, no-store", "referrer-policy": "no-referrer" },
      });
    },
  ),
});
