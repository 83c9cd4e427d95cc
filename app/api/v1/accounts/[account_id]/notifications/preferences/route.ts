// GET /api/v1/accounts/{account_id}/notifications/preferences?jwt= – the reader's choices of e-mails about their comments
// PUT /api/v1/accounts/{account_id}/notifications/preferences – change them
import { readerPrefs, updateReaderPrefs } from "@/server/engagement/notifications/preferences";
import { ZPrefsParams, ZPrefsQuery, ZUpdatePrefsBody } from "@/server/engagement/notifications/preferences.schema";
import { json } from "@/server/http/respond";
import { apiRoute, routes } from "@/server/http/route";

export const dynamic = "force-dynamic";

const NO_STORE = { headers: { "Cache-Control": "no-store" } };

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: apiRoute(
    {
      auth: "publisherJwt+user",
      params: ZPrefsParams,
      query: ZPrefsQuery,
      cors: true,
      rateLimit: { name: "engagement.notification-prefs", limit: 120, windowSeconds: 60, by: "ip" },
      summary:
        "The jwt's reader's e-mail notifications: {preferences: {replies, mentions, decisions}, email_on_file, time_zone}; each kind off, immediate (at once) or digest (daily, at 07:00 in time_zone, the reader's IANA zone; null: UTC). A reader who never chose: every kind immediate. email_on_file: whether e-mail can reach them (a verified address, or one the jwt carries). 401 without a jwt.",
    },
    async ({ db, account, user }) => json(await readerPrefs(db, { accountId: account.id, user }), NO_STORE),
  ),
  PUT: apiRoute(
    {
      auth: "publisherJwt+user",
      params: ZPrefsParams,
      body: ZUpdatePrefsBody,
      cors: true,
      rateLimit: { name: "engagement.notification-prefs-write", limit: 30, windowSeconds: 60, by: "ip" },
      summary:
        "{jwt, preferences?: {replies?, mentions?, decisions?}, time_zone?} (each kind off, immediate or digest; at least one kind, or a time_zone alone; time_zone an IANA zone such as Europe/Madrid, the hour of the daily digest is 07:00 there) → the reader's preferences as GET answers them; kinds not named are kept. Anything else is 400 naming the field, nothing changed. 401 without a jwt.",
    },
    async ({ db, account, user, body }) =>
      json(
        await updateReaderPrefs(db, {
          accountId: account.id,
          user,
          prefs: body.preferences ?? {},
          timeZone: body.time_zone,
          now: new Date(),
        }),
        NO_STORE,
      ),
  ),
});
