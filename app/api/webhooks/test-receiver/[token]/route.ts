// POST /api/webhooks/test-receiver/{token} – the built-in test receiver of an account's webhooks (docs/webhooks.md)
import { z } from "zod";

import { AppError } from "@/server/errors";
import { readBodyBytes } from "@/server/http/request-body";
import { json } from "@/server/http/respond";
import { apiRoute, routes } from "@/server/http/route";
import { receiveTestWebhook } from "@/server/webhooks/test-receiver";

export const dynamic = "force-dynamic";

/** Larger than any delivery Masthead sends; a body over it is refused (413) and not kept. */
const MAX_TEST_BODY_BYTES = 1024 * 1024;

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  POST: apiRoute(
    {
      auth: "public",
      // Any text: a token Masthead did not make is 404, whatever its shape.
      params: z.object({ token: z.string().max(200) }),
      rawBody: true,
      rateLimit: { name: "webhooks.test_receiver", limit: 120, windowSeconds: 60, by: "ip" },
      summary:
        "The built-in test receiver of an account's webhooks: point a webhook at the URL the dashboard's Webhooks page shows (APP_URL/api/webhooks/test-receiver/<account>-<HMAC>). It checks the request's signatures (X-Qt-Signature, webhook-signature) with the secret of the account's webhooks pointed at it, keeps the request (the last 50 per account: headers, the body cut after 32 KiB, whether the signature verified) and answers 200 {received: true}; 401 when the signature does not verify (kept too, marked so); 404 for a token Masthead did not make; 413 for a body over 1 MiB (not kept).",
    },
    async ({ req, db, params }) => {
      const body = await readBodyBytes(req, MAX_TEST_BODY_BYTES);
      const received = await receiveTestWebhook(db, {
        token: params.token,
        headers: req.headers,
        body,
        now: new Date(),
      });
      if (!received.valid) {
        throw new AppError("UNAUTHORIZED", `The signature does not verify: ${received.note}`, {
          details: [{ field: "headers", issue: received.note }],
        });
      }
      return json(
        { received: true, id: received.id.toString(), signature: "valid", note: received.note },
        { headers: { "Cache-Control": "no-store" } },
      );
    },
  ),
});
