// GET/PUT /api/member/card-link/{token} – the card update of one subscription through a signed "update your card" link
import { privateJson } from "@/server/http/member-session";
import { apiRoute, routes } from "@/server/http/route";
import { SELF_SERVICE_READ_LIMIT, SELF_SERVICE_WRITE_LIMIT } from "@/server/http/self-service-routes";
import { cardLinkView, updateCardByLink } from "@/server/subscriptions/self-service/card-link-access";
import { ZCardLinkParams, ZPaymentMethodInput } from "@/server/subscriptions/self-service/self-service.schema";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: apiRoute(
    {
      auth: "publisher",
      params: ZCardLinkParams,
      rateLimit: { ...SELF_SERVICE_READ_LIMIT, by: "ip" },
      summary:
        "The subscription a signed 'update your card' link (the dunning e-mail, the paywall banner) names → {id, plan_name, summary, in_grace_period, payment_type, can_update_payment_method, payment_method_update, expires_at}. No session needed: the link is signed (HMAC), bound to the subscription and the reader, and expires with the grace period. 401 for a forged, altered or expired link.",
    },
    async ({ db, req, publisher, params }) =>
      privateJson(
        await cardLinkView(db, {
          token: params.token,
          accountId: publisher.accountId,
          now: new Date(),
          reader: { cookies: req.headers.get("cookie"), acceptLanguage: req.headers.get("accept-language") },
        }),
      ),
  ),
  PUT: apiRoute(
    {
      auth: "publisher",
      params: ZCardLinkParams,
      body: ZPaymentMethodInput,
      rateLimit: { ...SELF_SERVICE_WRITE_LIMIT, by: "ip" },
      maxBodyBytes: 4_096,
      summary:
        "{payment_token, signature?} → {subscription_id, label, message}: as PUT /api/member/subscriptions/{id}/payment-method, for the one subscription the signed link names (in grace, the unpaid period is charged again at once). 401 for a forged, altered or expired link; 422 when the gateway refuses the card; 503 when it cannot be reached.",
    },
    async ({ db, publisher, params, body }) => {
      const { payment_token, ...extra } = body;
      return privateJson(
        await updateCardByLink(db, {
          token: params.token,
          accountId: publisher.accountId,
          paymentToken: payment_token,
          extra,
          now: new Date(),
        }),
      );
    },
  ),
});
