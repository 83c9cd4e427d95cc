// GET /api/v1/accounts/{account_id}/pages/{b64 url}/comment_rules.json – the page's comment rules, for the widget to state
import { ZPageParams } from "@/server/engagement/comments.schema";
import { publicPageRules } from "@/server/engagement/moderation/rules/page-rules";
import { ZPublicPageRules } from "@/server/engagement/moderation/rules/page-rules.schema";
import { json } from "@/server/http/respond";
import { apiRoute, routes } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: apiRoute(
    {
      auth: "publisherJwt",
      params: ZPageParams,
      cors: true,
      summary:
        "The page's comment rules as a new comment meets them: {comment_mode: open|pre_moderation|closed, slow_mode_seconds, surge}. closed: a new comment is 403; pre_moderation: every comment waits for a moderator; slow_mode_seconds > 0: a signed-in reader's second comment within that many seconds is 429 with Retry-After. They are the page's own rules, or a surge's where stricter: surge is null, or {reason: queue (comments arrive faster than moderators clear them) | off_shift (no moderator on shift), action: pre_moderation|slow_mode, slow_mode_seconds, since}. An unknown page is open with no slow mode, unless the account's off-shift surge applies.",
    },
    async ({ db, account, params }) =>
      json(
        ZPublicPageRules.parse(await publicPageRules(db, { accountId: account.id, encodedUrl: params.encoded_url })),
        {
          headers: { "Cache-Control": "no-store" },
        },
      ),
  ),
});
