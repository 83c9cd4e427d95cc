// POST /api/demo/failed-renewal?key=&accesstype_jwt= – TEST TOOL: the demo reader's renewing demo_test subscription fails its renewal now (grace period), a Stripe one ends its period (Stripe's word awaited), demo account only, only with DEMO_TOOLS (404 otherwise)
import { getEnv } from "@/env.js";
import { failDemoRenewal } from "@/server/demo/failed-renewal";
import { readerMember } from "@/server/http/reader-subscription-routes";
import { json } from "@/server/http/respond";
import { apiRoute, routes } from "@/server/http/route";
import { ZClientQuery } from "@/server/subscriptions/subscribers/subscribers.schema";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  POST: apiRoute(
    {
      auth: "client+user",
      query: ZClientQuery,
      cors: true,
      rateLimit: { name: "demo.failed-renewal", limit: 10, windowSeconds: 60, by: "ip" },
      summary:
        "TEST TOOL of the demo paywall: the signed-in demo reader's renewing demo_test subscription fails its renewal now: its card becomes the expired test card, its period ends, the charge is declined and the plan's grace period starts; a renewing Stripe subscription's period ends now and Masthead awaits Stripe's word on the renewal → {subscription}. 422 without such a subscription. Only for the demo account's key and only while DEMO_TOOLS is on; 404 otherwise.",
    },
    async ({ db, account, user }) => {
      const member = await readerMember(db, account.id, user);
      const subscription = await failDemoRenewal(db, {
        account,
        memberId: member?.id ?? null,
        now: new Date(),
        appUrl: getEnv().APP_URL,
      });
      return json({ subscription }, { headers: { "Cache-Control": "no-store" } });
    },
  ),
});
