// GET /api/v1/accounts/{account_id}/current_user?jwt= – the widget's reader under third-party login (spec §4.1)
import { z } from "zod";

import { currentUser } from "@/server/engagement/current-user";
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
      rateLimit: { name: "engagement.current_user", limit: 120, windowSeconds: 60, by: "ip" },
      summary:
        "The reader of the jwt: {signed_in, current_user: {name, avatar, id, slug, guest, bio, accounts}, is_guest, provider}; id is the member id that comments carry as author_id. Without jwt: signed_in false, current_user null, is_guest true. A forged, expired or unsigned jwt: 401.",
    },
    async ({ db, account, user }) =>
      json(await currentUser(db, { accountId: account.id, user, now: new Date() }), {
        headers: { "Cache-Control": "no-store" },
      }),
  ),
});
