// PUT /api/member/subscriptions/{id}/payment-method – replace the payment method the next charges use, through the gateway
import { privateJson } from "@/server/http/member-session";
import { apiRoute, routes } from "@/server/http/route";
import { SELF_SERVICE_WRITE_ROUTE } from "@/server/http/self-service-routes";
import { updateSelfServicePaymentMethod } from "@/server/subscriptions/self-service/self-service";
import { ZPaymentMethodInput } from "@/server/subscriptions/self-service/self-service.schema";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  PUT: apiRoute(
    {
      ...SELF_SERVICE_WRITE_ROUTE,
      body: ZPaymentMethodInput,
      summary:
        "{payment_token (from the gateway's card form), signature?} → {subscription_id, label, message}: the gateway adapter checks the new method and the subscription's next charges use it. 422 when the gateway refuses it, the subscription is not recurring or has ended, or its gateway cannot change methods through Masthead; 503 when the gateway cannot be reached.",
    },
    async ({ db, publisher, member, params, body }) => {
      const { payment_token, ...extra } = body;
      return privateJson(
        await updateSelfServicePaymentMethod(db, {
          accountId: publisher.accountId,
          memberId: member.member.id,
          subscriptionId: params.subscription_id,
          paymentToken: payment_token,
          extra,
          now: new Date(),
        }),
      );
    },
  ),
});
