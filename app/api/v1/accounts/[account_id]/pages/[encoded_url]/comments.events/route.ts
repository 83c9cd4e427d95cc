// GET /api/v1/accounts/{account_id}/pages/{b64 url}/comments.events – the page's comment changes: live (SSE) or since a cursor (JSON)
import { ZPageParams } from "@/server/engagement/comments.schema";
import { openPageStream, pollPageEvents, sinceOf } from "@/server/engagement/live/follow";
import { liveHub } from "@/server/engagement/live/instance";
import { ZLiveEventsQuery } from "@/server/engagement/live/live.schema";
import { AppError } from "@/server/errors";
import { preferredMediaType } from "@/server/http/negotiate";
import { json } from "@/server/http/respond";
import { apiRoute, routes } from "@/server/http/route";
import { addressBucket } from "@/server/rate-limit/address";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: apiRoute(
    {
      auth: "publisherJwt",
      params: ZPageParams,
      query: ZLiveEventsQuery,
      cors: true,
      produces: "any",
      summary:
        "What changes in the page's visible thread, by comment id: with Accept: text/event-stream a server-sent events stream (`ready` {cursor, total_count, latest_comment_at}, then `change` {cursor, created, edited, removed, total_count} as comments are written, edited, hidden or deleted, `resync` when the list must be read again; each event's id a cursor; Last-Event-ID or since catches up; a comment line every 20 s; 404 for a page nobody has commented on, 503 with Retry-After past this instance's stream bounds (per page, per client address, in all)); otherwise JSON {cursor, total_count, latest_comment_at, created, edited, removed, resync} since `since`. A held or hidden comment is only ever named in removed.",
    },
    async ({ db, req, ip, account, params, query }) => {
      const since = sinceOf(req.headers.get("last-event-id"), query.since);
      const args = { accountId: account.id, encodedUrl: params.encoded_url, since };
      const type = preferredMediaType(req.headers.get("accept"), ["application/json", "text/event-stream"]);
      if (!type) throw new AppError("NOT_ACCEPTABLE", "This endpoint answers application/json or text/event-stream.");
      if (type === "application/json")
        return json(await pollPageEvents(db, args), { headers: { "Cache-Control": "no-store" } });
      const body = await openPageStream(db, await liveHub(), {
        ...args,
        signal: req.signal,
        client: addressBucket(ip),
      });
      if (!body)
        throw new AppError(
          "NOT_FOUND",
          "Nobody has commented on this page yet: poll its events (JSON) until someone does.",
        );
      return new Response(body, {
        headers: {
          "Content-Type": "text/event-stream; charset=utf-8",
          "Cache-Control": "no-store, no-transform",
          // Proxies (nginx) pass each event on at once rather than buffering the answer.
          "X-Accel-Buffering": "no",
        },
      });
    },
  ),
});
