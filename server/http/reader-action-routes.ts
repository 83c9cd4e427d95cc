/**
 * The reader's engagement endpoints (docs/engagement.md): everything under
 * /api/v1/accounts/{account_id}/… that the widgets call from the publisher's pages. Each is made
 * here, by one of the factories below, and their route files pick one (`routes(REACTION_ROUTES.page)`,
 * `routes({ GET: READER_ACTIONS.notices })`), so they all authenticate, answer and cache alike:
 * - the account in the path and the publisher-signed `jwt` (query or JSON body): auth
 *   "publisherJwt", or "publisherJwt+user" when the route is for a signed-in reader (401 without);
 * - browser-facing (CORS);
 * - one use case, given one `now`, whose result is the JSON answer, never cached
 *   (`Cache-Control: no-store`), 200 (201 where the route makes something and says so).
 *
 *   acknowledgeNotice: readerAction({ signedIn: true, params, body, rateLimit, summary }, ({ db, account, user, now }) =>
 *     acknowledgeNotice(db, { accountId: account.id, user, now })),
 */
import { z } from "zod";

import { getEnv } from "../../env.js";
import type { Db } from "../db/client";
import { CAPTCHA, captchaSecrets, createCaptchaChallenge } from "../engagement/captcha";
import { editComment, hideComment } from "../engagement/comments";
import {
  COMMENT_LIMITS,
  ZCommentParams,
  ZEditCommentBody,
  ZHideCommentBody,
  ZPageParams,
} from "../engagement/comments.schema";
import { acknowledgeNotice, listReaderNotices } from "../engagement/community/notices";
import {
  ZAcknowledgeNoticeBody,
  ZAcknowledgeNoticeParams,
  ZNoticesParams,
  ZNoticesQuery,
} from "../engagement/community/notices.schema";
import { currentUser } from "../engagement/current-user";
import { DSA_NOTICE_CATEGORIES, ZDsaNoticeBody, ZDsaNoticeParams } from "../engagement/dsa/dsa.schema";
import { submitDsaNotice } from "../engagement/dsa/notices";
import { readerFeed } from "../engagement/feed";
import { ZFeedParams, ZMyFeedQuery } from "../engagement/feed.schema";
import { listAwaitingReview } from "../engagement/moderation/queue/awaiting-review";
import { ZAwaitingReviewQuery } from "../engagement/moderation/queue/awaiting-review.schema";
import { readerPrefs, updateReaderPrefs } from "../engagement/notifications/preferences";
import { ZPrefsParams, ZPrefsQuery, ZUpdatePrefsBody } from "../engagement/notifications/preferences.schema";
import { setPageMetadata } from "../engagement/page-metadata";
import { PAGE_METADATA_LIMITS, ZPageMetadataBody, ZPageMetadataParams } from "../engagement/page-metadata.schema";
import { addPageReaction, pageReactions, removePageReaction } from "../engagement/page-reactions";
import { addReaction, removeReaction } from "../engagement/reactions";
import {
  REACTION_IDS,
  ZPageReactionParams,
  ZPageReactionsQuery,
  ZReactionBody,
  ZReactionParams,
} from "../engagement/reactions.schema";
import { reportComment } from "../engagement/reports";
import { REPORT_REASONS, ZReportBody, ZReportParams } from "../engagement/reports.schema";
import { listMyUgc } from "../engagement/ugc";
import { ZMyUgcQuery, ZUgcParams } from "../engagement/ugc.schema";
import { ENGAGEMENT_RATE_LIMITS } from "./engagement-limits";
import { json } from "./respond";
import { apiRoute, type HandlerContext, type RouteHandler, type RouteOptions } from "./route";

const NO_STORE = { "Cache-Control": "no-store" };

/** What a route of the family declares: its inputs, limits and summary; the scheme is the family's. */
type ReaderActionOptions<R extends boolean, Q extends z.ZodType, B extends z.ZodType, P extends z.ZodType> = Pick<
  RouteOptions<"publisherJwt", Q, B, P>,
  "params" | "query" | "body" | "maxBodyBytes" | "rateLimit"
> & {
  /** true: a signed-in reader only (auth "publisherJwt+user", 401 without a jwt). */
  signedIn?: R;
  summary: string;
};

/** The handler context of the family's routes, with the request's one `now`. */
type ReaderActionContext<
  R extends boolean,
  Q extends z.ZodType,
  B extends z.ZodType,
  P extends z.ZodType,
> = (R extends true ? HandlerContext<"publisherJwt+user", Q, B, P> : HandlerContext<"publisherJwt", Q, B, P>) & {
  now: Date;
};

/** One endpoint of the family: `run` gives the JSON answer. */
function readerAction<
  T,
  R extends boolean = false,
  Q extends z.ZodType = z.ZodType,
  B extends z.ZodType = z.ZodType,
  P extends z.ZodType = z.ZodType,
>(
  options: ReaderActionOptions<R, Q, B, P> & {
    /** The result says whether it made something (`{created}`): 201 when it did, else 200. */
    created?: true;
  },
  run: (ctx: ReaderActionContext<R, Q, B, P>) => Promise<T>,
): RouteHandler {
  const { signedIn, created, ...rest } = options;
  return apiRoute(
    // "publisherJwt+user" only adds that `user` is never null: its context is the other's.
    { ...rest, auth: (signedIn ? "publisherJwt+user" : "publisherJwt") as "publisherJwt", cors: true },
    async (ctx: HandlerContext<"publisherJwt", Q, B, P>) => {
      const result = await run({ ...ctx, now: new Date() } as ReaderActionContext<R, Q, B, P>);
      const made = created && typeof result === "object" && result !== null && "created" in result && result.created;
      return json(result, { status: made ? 201 : 200, headers: NO_STORE });
    },
  );
}

/** One way of a give/take-back pair: its summary and its use case, given the inputs the pair reads. */
type ReaderChange<A, T> = { summary: string; run: (db: Db, input: A) => Promise<T> };

/**
 * A thing the reader gives and takes back at one path (a reaction, …): POST gives it, DELETE takes
 * it back, both with the same scheme, inputs (`input` reads them from the request) and kind of answer.
 */
function readerActionRoutes<
  A,
  T,
  R extends boolean = false,
  Q extends z.ZodType = z.ZodType,
  B extends z.ZodType = z.ZodType,
  P extends z.ZodType = z.ZodType,
>(
  options: Omit<ReaderActionOptions<R, Q, B, P>, "summary"> & {
    input: (ctx: ReaderActionContext<R, Q, B, P>) => A;
    give: ReaderChange<A, T>;
    takeBack: ReaderChange<A, T>;
  },
): { POST: RouteHandler; DELETE: RouteHandler } {
  const { input, give, takeBack, ...shared } = options;
  const route = ({ summary, run }: ReaderChange<A, T>) =>
    readerAction({ ...shared, summary }, (ctx: ReaderActionContext<R, Q, B, P>) => run(ctx.db, input(ctx)));
  return { POST: route(give), DELETE: route(takeBack) };
}

/** The reaction endpoints, to a visible comment and to the page itself: POST gives, DELETE takes back. */
export const REACTION_ROUTES = {
  comment: readerActionRoutes({
    signedIn: true,
    params: ZReactionParams,
    body: ZReactionBody,
    rateLimit: ENGAGEMENT_RATE_LIMITS.reaction,
    input: ({ account, user, params, now }) => ({
      accountId: account.id,
      user,
      encodedUrl: params.encoded_url,
      commentId: params.comment_id,
      reactionId: params.reaction_id,
      now,
    }),
    give: {
      summary: `Give the reader's reaction (${REACTION_IDS.join(", ")}) to a visible comment: {jwt} → {comment} with the counts in reactions; again: unchanged (one per reader, comment and reaction). 401 without jwt, 404 for a comment not visible on this page of this account.`,
      run: addReaction,
    },
    takeBack: {
      summary:
        "Take back the reader's reaction: jwt in the query (or the body) → {comment}; without that reaction: unchanged, 200. 401 without jwt, 404 for a comment not visible on this page of this account.",
      run: removeReaction,
    },
  }),
  page: readerActionRoutes({
    signedIn: true,
    params: ZPageReactionParams,
    body: ZReactionBody,
    rateLimit: ENGAGEMENT_RATE_LIMITS.reaction,
    input: ({ account, user, params, now }) => ({
      accountId: account.id,
      user,
      encodedUrl: params.encoded_url,
      reactionId: params.reaction_id,
      now,
    }),
    give: {
      summary: `Give the reader's reaction (${REACTION_IDS.join(", ")}) to the page itself: {jwt} → the page's reactions as GET …/reactions answers them; again: unchanged (one per reader, page and reaction). The page is created on first use, on the publication's hosts only (403 otherwise). 401 without jwt, 403 for a banned reader.`,
      run: addPageReaction,
    },
    takeBack: {
      summary:
        "Take back the reader's reaction to the page: jwt in the query (or the body) → the page's reactions; without that reaction: unchanged, 200. 401 without jwt, 403 for a banned reader.",
      run: removePageReaction,
    },
  }),
};

/** The family's other endpoints, one a route file (the route file's name in the key). */
export const READER_ACTIONS = {
  hideComment: readerAction(
    {
      params: ZCommentParams,
      body: ZHideCommentBody,
      rateLimit: ENGAGEMENT_RATE_LIMITS.commentHide,
      summary:
        "Hide the comment as its author: {jwt} → {comment} with hidden, hidden_at, hidden_by_id; again: unchanged. 401 without jwt, 403 for another reader, 404 for a comment not on this page of this account.",
    },
    ({ db, account, user, params, now }) =>
      hideComment(db, {
        accountId: account.id,
        user,
        encodedUrl: params.encoded_url,
        commentId: params.comment_id,
        now,
      }),
  ),
  editComment: readerAction(
    {
      params: ZCommentParams,
      body: ZEditCommentBody,
      maxBodyBytes: COMMENT_LIMITS.maxBodyBytes,
      rateLimit: ENGAGEMENT_RATE_LIMITS.commentEdit,
      summary:
        "Replace the comment's ops as its author: {comment: {ops}, jwt} → {comment} with edited_at; 401 without jwt, 403 for another reader, 404 for a comment not on this page of this account.",
    },
    ({ db, account, user, params, body, now }) =>
      editComment(db, {
        accountId: account.id,
        user,
        encodedUrl: params.encoded_url,
        commentId: params.comment_id,
        ops: body.comment.ops,
        now,
      }),
  ),
  reportComment: readerAction(
    {
      signedIn: true,
      params: ZReportParams,
      body: ZReportBody,
      rateLimit: ENGAGEMENT_RATE_LIMITS.report,
      summary: `Report a visible comment to the moderators: {jwt, reason (${REPORT_REASONS.join(", ")}), note?} → 201 {report, created: true}; the reader's second report of the comment: 200 with the first one, created false. 401 without jwt, 403 for a banned reader or one's own comment, 404 for a comment not visible on this page of this account.`,
      created: true,
    },
    ({ db, account, user, params, body, now }) =>
      reportComment(db, {
        accountId: account.id,
        user,
        encodedUrl: params.encoded_url,
        commentId: params.comment_id,
        input: body,
        now,
      }),
  ),
  illegalContentNotice: readerAction(
    {
      params: ZDsaNoticeParams,
      body: ZDsaNoticeBody,
      rateLimit: ENGAGEMENT_RATE_LIMITS.dsaNotice,
      summary: `Notify a visible comment as illegal content (EU Digital Services Act art. 16): {jwt?, category (${DSA_NOTICE_CATEGORIES.join(", ")}), law_or_reason (10 to 1000 characters), name?, email (required without jwt), good_faith: true, locale?, captcha_response (required without jwt)} → 201 {notice, created: true}; the same notifier's undecided notice of the comment: 200 with it, created false. The comment is not hidden: moderators decide. The notifier gets a confirmation of receipt by e-mail. 400 for a bad body, 403 for a forged, expired or used captcha, 404 for a comment not visible on this page of this account.`,
      created: true,
    },
    ({ db, account, user, params, body, now }) =>
      submitDsaNotice(db, {
        accountId: account.id,
        user: user ?? null,
        encodedUrl: params.encoded_url,
        commentId: params.comment_id,
        input: body,
        now,
      }),
  ),
  setPageMetadata: readerAction(
    {
      params: ZPageMetadataParams,
      body: ZPageMetadataBody,
      maxBodyBytes: PAGE_METADATA_LIMITS.maxBodyBytes,
      rateLimit: ENGAGEMENT_RATE_LIMITS.pageMetadata,
      summary:
        "Replace the page's metadata (flat: strings, numbers, arrays of them; at most 50 keys, 10 kB): {metadata, metadata_jwt?, jwt?} → {page: {id, page_url, headline, hero_image_url, metadata, author_ids_count}, ignored}. og:title sets the headline, og:image (http(s)) the hero image. The page's author_ids come only from metadata_jwt (signed with the shared key, claims {page_url, author_ids}); author_ids in metadata is ignored. Creates the page on the publication's hosts only (403).",
    },
    ({ db, account, params, body, now }) =>
      setPageMetadata(db, { accountId: account.id, encodedUrl: params.encoded_url, input: body, now }),
  ),
  pageReactions: readerAction(
    {
      params: ZPageParams,
      query: ZPageReactionsQuery,
      summary:
        "The reactions on a page: {page_url, reactions: {like, love, haha, wow, sad, angry: count}, total_count, my_reactions} (my_reactions: the ids the jwt's reader gave; [] without a jwt). A page nobody reacted to counts 0; nothing is created.",
    },
    ({ db, account, user, params }) =>
      pageReactions(db, { accountId: account.id, user, encodedUrl: params.encoded_url }),
  ),
  awaitingReview: readerAction(
    {
      signedIn: true,
      params: ZPageParams,
      query: ZAwaitingReviewQuery,
      rateLimit: { name: "engagement.awaiting_review", limit: 120, windowSeconds: 60, by: "ip" },
      summary:
        "The jwt's reader's own comments on the page that wait for a moderator (401 without a jwt): {comments: [comment]}, each as the comment list answers it, with is_published false; unpublished, undecided, not deleted nor hidden; oldest first, at most 50. The widget shows them to their author alone, marked as awaiting review. A reader never seen, or an unknown page: []. Never cached.",
    },
    ({ db, account, user, params }) =>
      listAwaitingReview(db, { accountId: account.id, encodedUrl: params.encoded_url, user }),
  ),
  notificationPrefs: readerAction(
    {
      signedIn: true,
      params: ZPrefsParams,
      query: ZPrefsQuery,
      rateLimit: { name: "engagement.notification-prefs", limit: 120, windowSeconds: 60, by: "ip" },
      summary:
        "The jwt's reader's e-mail notifications: {preferences: {replies, mentions, decisions}, email_on_file, time_zone}; each kind off, immediate (at once) or digest (daily, at 07:00 in time_zone, the reader's IANA zone; null: UTC). A reader who never chose: every kind immediate. email_on_file: whether e-mail can reach them (a verified address, or one the jwt carries). 401 without a jwt.",
    },
    ({ db, account, user }) => readerPrefs(db, { accountId: account.id, user }),
  ),
  updateNotificationPrefs: readerAction(
    {
      signedIn: true,
      params: ZPrefsParams,
      body: ZUpdatePrefsBody,
      rateLimit: { name: "engagement.notification-prefs-write", limit: 30, windowSeconds: 60, by: "ip" },
      summary:
        "{jwt, preferences?: {replies?, mentions?, decisions?}, time_zone?} (each kind off, immediate or digest; at least one kind, or a time_zone alone; time_zone an IANA zone such as Europe/Madrid, the hour of the daily digest is 07:00 there) → the reader's preferences as GET answers them; kinds not named are kept. Anything else is 400 naming the field, nothing changed. 401 without a jwt.",
    },
    ({ db, account, user, body, now }) =>
      updateReaderPrefs(db, {
        accountId: account.id,
        user,
        prefs: body.preferences ?? {},
        timeZone: body.time_zone,
        now,
      }),
  ),
  notices: readerAction(
    {
      signedIn: true,
      params: ZNoticesParams,
      query: ZNoticesQuery,
      rateLimit: { name: "engagement.notices", limit: 120, windowSeconds: 60, by: "ip" },
      summary:
        "The jwt's reader's notices from the moderators that they have not acknowledged, oldest first (401 without a jwt): {notices: [{id, kind: warning|ban|suspension, message, created_at, until, acknowledged_at}]}. A ban's or suspension's notice only while it is in force; until is a suspension's end (ISO 8601, UTC), null otherwise. A reader never seen: no notices.",
    },
    ({ db, account, user, now }) => listReaderNotices(db, { accountId: account.id, user, now }),
  ),
  acknowledgeNotice: readerAction(
    {
      signedIn: true,
      params: ZAcknowledgeNoticeParams,
      body: ZAcknowledgeNoticeBody,
      rateLimit: ENGAGEMENT_RATE_LIMITS.noticeAcknowledge,
      summary:
        "{jwt} → {notice} with acknowledged_at: the widget showed it and the reader said so; it is not answered again. Again: the same answer, the first time kept. 401 without a jwt; 404 for a notice of another reader or account.",
    },
    ({ db, account, user, params, now }) =>
      acknowledgeNotice(db, { accountId: account.id, user, noticeId: params.notice_id, now }),
  ),
  currentUser: readerAction(
    {
      params: z.object({ account_id: z.string() }),
      query: z.object({ jwt: z.string().optional() }),
      rateLimit: { name: "engagement.current_user", limit: 120, windowSeconds: 60, by: "ip" },
      summary:
        "The reader of the jwt: {signed_in, current_user: {name, avatar, id, slug, guest, bio, accounts}, is_guest, provider}; id is the member id that comments carry as author_id. Without jwt: signed_in false, current_user null, is_guest true. A forged, expired or unsigned jwt: 401.",
    },
    ({ db, account, user, now }) => currentUser(db, { accountId: account.id, user, now }),
  ),
  captchaChallenge: readerAction(
    {
      params: z.object({ account_id: z.string() }),
      query: z.object({ jwt: z.string().optional() }),
      rateLimit: ENGAGEMENT_RATE_LIMITS.captchaChallenge,
      summary: `A signed ALTCHA (v2) challenge, {parameters: {algorithm: "${CAPTCHA.algorithm}", nonce, salt, cost, keyLength, keyPrefix, keySignature, expiresAt, data}, signature}, good for ${CAPTCHA.ttlSeconds / 60} minutes and one comment. Solve it (the ALTCHA widget, or altcha-lib's solveChallenge) and send base64(JSON {challenge, solution}) as comment.body.captcha_response to comment as a guest.`,
    },
    ({ account, now }) => createCaptchaChallenge({ accountId: account.id, now, secrets: captchaSecrets(getEnv()) }),
  ),
  myFeed: readerAction(
    {
      signedIn: true,
      params: ZFeedParams,
      query: ZMyFeedQuery,
      summary:
        "The jwt's reader's activity (401 without a jwt), newest first: {items: [{type: own_comment|reply|mention, held, comment, page: {id, url, headline, hero_image_url}}], next_cursor}. own_comment: the reader's comments, held ones too (held true, is_published false); reply: others' visible replies to them; mention: others' visible comments whose mention op's id is the reader's member id. limit 1 to 50 (default 20); cursor: the previous answer's next_cursor; since (ISO 8601 time): unread_count counts replies and mentions newer than it (at most 50; null without since).",
    },
    ({ db, account, user, query }) => readerFeed(db, { accountId: account.id, user, query }),
  ),
  myUgc: readerAction(
    {
      signedIn: true,
      params: ZUgcParams,
      query: ZMyUgcQuery,
      summary:
        "The jwt's reader's submissions (401 without), newest first: {items: [submission], next_cursor}; status pending|approved|rejected (filter with status). limit 1 to 50 (default 20); cursor: the previous answer's next_cursor.",
    },
    ({ db, account, user, query }) => listMyUgc(db, { accountId: account.id, user, query }),
  ),
};
