// GET /api/v1/accounts/{account_id}/captcha/challenge – a proof-of-work captcha challenge for guest commenting (ALTCHA)
import { z } from "zod";

import { getEnv } from "@/env.js";
import { CAPTCHA, captchaSecrets, createCaptchaChallenge } from "@/server/engagement/captcha";
import { ENGAGEMENT_RATE_LIMITS } from "@/server/http/engagement-limits";
import { json } from "@/server/http/respond";
import { apiRoute, routes } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: apiRoute(
    {
      auth: "publisherJwt",
      params: z.object({ account_id: z.string() }),
      query: z.object({ jwt: z.string().optional() }),
      cors: true,
      rateLimit: ENGAGEMENT_RATE_LIMITS.captchaChallenge,
      summary: `A signed ALTCHA (v2) challenge, {parameters: {algorithm: "${CAPTCHA.algorithm}", nonce, salt, cost, keyLength, keyPrefix, keySignature, expiresAt, data}, signature}, good for ${CAPTCHA.ttlSeconds / 60} minutes and one comment. Solve it (the ALTCHA widget, or altcha-lib's solveChallenge) and send base64(JSON {challenge, solution}) as comment.body.captcha_response to comment as a guest.`,
    },
    async ({ account }) =>
      json(
        await createCaptchaChallenge({ accountId: account.id, now: new Date(), secrets: captchaSecrets(getEnv()) }),
        { headers: { "Cache-Control": "no-store" } },
      ),
  ),
});
