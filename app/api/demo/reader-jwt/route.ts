// POST /api/demo/reader-jwt?key= – TEST TOOL: a reader JWT for a typed-in e-mail, demo account only, only with DEMO_TOOLS (404 otherwise)
import { z } from "zod";

import { mintDemoReaderJwt } from "@/server/demo/reader-jwt";
import { json } from "@/server/http/respond";
import { apiRoute, routes } from "@/server/http/route";

export const dynamic = "force-dynamic";

const ZBody = z.object({ email: z.email().max(254) });

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  POST: apiRoute(
    {
      auth: "client",
      body: ZBody,
      cors: true,
      rateLimit: { name: "demo.reader-jwt", limit: 30, windowSeconds: 60, by: "ip" },
      summary:
        "TEST TOOL of the demo paywall: {email} → {accesstype_jwt, expires_at, reader_id}, a one-hour reader JWT signed with the demo account's (public) shared key. Only for the demo account's key and only while DEMO_TOOLS is on; 404 otherwise.",
    },
    async ({ db, account, body }) =>
      json(await mintDemoReaderJwt(db, { account, email: body.email, now: new Date() }), {
        headers: { "Cache-Control": "no-store" },
      }),
  ),
});
