// GET /api/v1/accounts/{account_id}/notifications/unsubscribe?token= – the page that asks (changes nothing)
// POST /api/v1/accounts/{account_id}/notifications/unsubscribe?token= – one-click unsubscribe (RFC 8058), without signing in
import { z } from "zod";

import { ZUnsubscribeQuery } from "@/server/engagement/notifications/preferences.schema";
import { unsubscribe, unsubscribeConfirmPage, unsubscribedPage } from "@/server/engagement/notifications/unsubscribe";
import { json } from "@/server/http/respond";
import { apiRoute, routes } from "@/server/http/route";
import { PG_INT_MAX, zWholeNumber } from "@/server/params.schema";

export const dynamic = "force-dynamic";

const ZParams = z.object({ account_id: zWholeNumber({ min: 1, max: PG_INT_MAX }) });

const HTML = {
  "Content-Type": "text/html; charset=utf-8",
  "Cache-Control": "no-store",
  "Referrer-Policy": "no-referrer",
  "Content-Security-Policy": "default-src 'none'; form-action 'self'; frame-ancestors 'none'",
};

// Mail providers send one-click POSTs from a few addresses: a roomy limit (a token cannot be guessed anyway).
const LIMIT = { name: "engagement.unsubscribe", limit: 300, windowSeconds: 60, by: "ip" } as const;

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: apiRoute(
    {
      auth: "public",
      params: ZParams,
      query: ZUnsubscribeQuery,
      produces: "any",
      rateLimit: LIMIT,
      summary:
        "The page a notification e-mail's unsubscribe link opens (text/html): it asks, and its button POSTs to the same URL. Changes nothing. 400 for a malformed token, 404 for one not signed for a reader of this account.",
    },
    async ({ db, params, query }) =>
      new Response(await unsubscribeConfirmPage(db, { accountId: params.account_id, token: query.token }), {
        headers: HTML,
      }),
  ),
  POST: apiRoute(
    {
      auth: "public",
      params: ZParams,
      query: ZUnsubscribeQuery,
      // RFC 8058: the body is List-Unsubscribe=One-Click, form-encoded or multipart; only the token counts.
      rawBody: true,
      produces: "any",
      rateLimit: LIMIT,
      summary:
        "One-click unsubscribe (RFC 8058 List-Unsubscribe-Post), without signing in: turns off the token's kind (replies, mentions, decisions, or all) for its reader → 200 {unsubscribed, preferences} (text/html for a browser that asks for it). Again: the same. 400 for a malformed token, 404 for one not signed for a reader of this account.",
    },
    async ({ db, req, params, query }) => {
      const { language, ...done } = await unsubscribe(db, {
        accountId: params.account_id,
        token: query.token,
        now: new Date(),
      });
      if ((req.headers.get("accept") ?? "").includes("text/html")) {
        return new Response(unsubscribedPage(done.unsubscribed, language), { headers: HTML });
      }
      return json(done, { headers: { "Cache-Control": "no-store" } });
    },
  ),
});
