// GET /api/member/card-link/{token}/hosted – through a signed "update your card" link, to the gateway's own card page
import { apiRoute, routes } from "@/server/http/route";
import { SELF_SERVICE_READ_LIMIT } from "@/server/http/self-service-routes";
import { hostedCardPageByLink } from "@/server/subscriptions/self-service/card-link-access";
import { ZCardLinkParams } from "@/server/subscriptions/self-service/self-service.schema";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: apiRoute(
    {
      auth: "publisher",
      params: ZCardLinkParams,
      rateLimit: { ...SELF_SERVICE_READ_LIMIT, by: "ip" },
      summary:
        "303 to the gateway's hosted card page (Razorpay) of the subscription a signed 'update your card' link names. 401 for a forged, altered or expired link; 422 when its gateway has no such page.",
    },
    async ({ db, publisher, params }) => {
      const { url } = await hostedCardPageByLink(db, {
        token: params.token,
        accountId: publisher.accountId,
        now: new Date(),
      });
      return new Response(null, {
        status: 303,
        headers: { location: url, "cache-control": "private, no-store", "referrer-policy": "no-referrer" },
      });
    },
  ),
});
