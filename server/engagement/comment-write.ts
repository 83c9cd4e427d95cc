/**
 * The write of a new comment (createComment, ./comments.ts): one SQL statement, with no
 * transaction around it unless webhook endpoints take the event (docs/engagement.md, "Comment
 * create"). The statement, in order:
 * 1. a guest's captcha is used up (used_captchas; a solution used before stops everything);
 * 2. the reader's claim (comment_claims, one row per member) is written with the new comment's id.
 *    Its conflict on the member orders one reader's writers: a second post waits for the first to
 *    commit, and the claim's condition is then checked again on the row the first wrote (what an
 *    UPDATE does under READ COMMITTED). A repeat (the same page, parent and body as the reader's
 *    last comment, within DUPLICATE_WINDOW_MS) writes no claim; guests share one member, so their
 *    claims always write. The condition reads nothing but the claim's row: a subquery would read
 *    the statement's snapshot, taken before the writer it waited for committed, and miss its
 *    comment (comments.int.test.ts posts in parallel on PostgreSQL and caught exactly that).
 *    On a page in slow mode, no claim is written either while the claim's row names another
 *    comment on this page made within the slow mode's seconds: so two different posts sent at
 *    once make one comment and one 429, as two sent one after the other do.
 *    Whether the repeated comment was deleted is read after, by the caller (`replacing`);
 * 3. the comment, with the id the claim took (nothing when no claim was written);
 * 4. its comment.created event (webhook_events), the event's data made by commentEventPayload with
 *    the id set by the statement;
 * 4b. for a published reply or a comment that mentions someone (notify.ts talksToReaders), its
 *    "notifications.comment" job (jobs): the job exists exactly when the comment does, so a
 *    process that stops right after the write loses no reply or mention e-mail (the engine's next
 *    poll or sweep runs the job; the wake-up after the commit only makes it sooner);
 * 5. the counts of the answer: the page's and the realm's, as the statement's snapshot has them
 *    (before this comment, which the triggers count when the statement ends), with the replied-to
 *    comment's state (comment-queries.ts countsBeforeCreateSql); countsAfterCreate adds the new
 *    comment in the app (which counts a create answers: docs/decisions/0009-counts-a-create-answers.md).
 * Every part commits together or not at all. When active endpoints take comment.created, the
 * statement runs in a transaction that also writes their deliveries (the outbox).
 *
 * What counts as a repeat (the reader's last comment only, not any comment of the window):
 * docs/decisions/0008-duplicate-comment-rule.md.
 */
import "server-only";

import type { Db } from "../db/client";
import { withTransaction } from "../db/transaction";
import { Prisma, type Comment, type Page } from "../generated/prisma/client";
import { announceJobs } from "../jobs/queue";
import { queueEventDeliveries, subscribedEndpoints } from "../webhooks/deliveries";
import { captchaUsedError, type VerifiedCaptcha } from "./captcha";
import { countsAfterCreate, countsBeforeCreateSql, type CountsBeforeCreate } from "./comment-queries";
import { commentEventPayload } from "./events";
import { notifyCommentJob } from "./notifications/notify";

type WriteArgs = {
  comment: Comment;
  page: Pick<Page, "url" | "headline">;
  captcha: VerifiedCaptcha | null;
  /** A repeat of the reader's last comment since then is answered that comment. */
  repeatsSince: Date;
  /**
   * The comment a claim found repeated but that is deleted (createComment reads it after): the
   * claim naming it is overwritten, a claim naming anything else still stops the write.
   */
  replacing?: number;
  /**
   * The page's slow mode (a signed-in reader's new comment): no claim is written while the
   * reader's last comment is another one on this page, made less than this many seconds ago.
   */
  slowModeSeconds?: number;
  /**
   * The id of the comment's "notifications.comment" job, written by the statement with the
   * comment (given when the comment talks to readers: notify.ts talksToReaders).
   */
  notifyJobId?: string;
};

/** What a claim records of a comment: its page and body (a repeat has the same). */
const claimKeyOf = (comment: Pick<Comment, "pageId" | "bodyDigest">) => `${comment.pageId}:${comment.bodyDigest}`;

/** The claim's slow-mode condition: not while another comment of the reader's on the page is that recent. */
function slowModeSql(seconds: number | undefined, pageId: Prisma.Sql, at: Prisma.Sql): Prisma.Sql {
  if (!seconds) return Prisma.empty;
  return Prisma.sql`
      AND NOT (split_part(c.claim_key, ':', 1) = ${pageId}::text
        AND c.claim_key <> EXCLUDED.claim_key
        AND c.claimed_at > ${at} - make_interval(secs => ${seconds}::int))`;
}

/** The comment's notification job (part 4b of the file's comment), when it has one. */
function notifySql(jobId: string | undefined, accountId: Prisma.Sql, at: Prisma.Sql): Prisma.Sql {
  if (!jobId) return Prisma.empty;
  return Prisma.sql`, notify AS (
  INSERT INTO jobs (id, name, account_id, payload, status, run_at, created_at, updated_at)
  SELECT ${jobId}::uuid, ${notifyCommentJob.name}::text, ${accountId}, jsonb_build_object('commentId', inserted.id),
    'pending', ${at}, ${at}, ${at}
  FROM inserted
)`;
}

/** The write statement (see the file's comment). */
function writeSql(args: WriteArgs): Prisma.Sql {
  const { comment, captcha } = args;
  const member = Prisma.sql`${comment.authorId}::int`;
  const at = Prisma.sql`${comment.createdAt}::timestamptz`;
  const digest = Prisma.sql`${captcha?.digest ?? null}::text`;
  const accountId = Prisma.sql`${comment.accountId}::int`;
  const pageId = Prisma.sql`${comment.pageId}::int`;
  const parentId = Prisma.sql`${comment.parentCommentId}::int`;
  const replyToId = Prisma.sql`${comment.replyToId}::int`;
  return Prisma.sql`
WITH captcha AS (
  INSERT INTO used_captchas (digest, expires_at, created_at)
  SELECT ${digest}, ${captcha?.expiresAt ?? null}::timestamptz, ${at} WHERE ${digest} IS NOT NULL
  ON CONFLICT (digest) DO NOTHING
  RETURNING digest
), claim AS (
  INSERT INTO comment_claims AS c (member_id, comment_id, claim_key, claimed_at)
  SELECT ${member}, nextval(pg_get_serial_sequence('comments', 'id'))::int, ${claimKeyOf(comment)}::text, ${at}
  WHERE ${digest} IS NULL OR EXISTS (SELECT 1 FROM captcha)
  ON CONFLICT (member_id) DO UPDATE
    SET comment_id = EXCLUDED.comment_id, claim_key = EXCLUDED.claim_key, claimed_at = EXCLUDED.claimed_at
    WHERE (${digest} IS NOT NULL
       OR c.claim_key <> EXCLUDED.claim_key
       OR c.claimed_at < ${args.repeatsSince}::timestamptz
       OR c.comment_id = ${args.replacing ?? null}::int)${slowModeSql(args.slowModeSeconds, pageId, at)}
  RETURNING comment_id
), inserted AS (
  INSERT INTO comments (id, account_id, page_id, parent_comment_id, reply_to_id, author_id, body, body_digest,
    confidential, guest, guest_name, mobile, is_published, is_spam, toxicity, moderation_reasons, created_at)
  SELECT claim.comment_id, ${accountId}, ${pageId}, ${parentId}, ${replyToId}, ${member}, ${JSON.stringify(comment.body)}::jsonb,
    ${comment.bodyDigest}::text, ${comment.confidential}::boolean, ${comment.guest}::boolean,
    ${comment.guestName}::text, ${comment.mobile}::boolean, ${comment.isPublished}::boolean,
    ${comment.isSpam}::boolean, ${comment.toxicity}::float8,
    ARRAY(SELECT jsonb_array_elements_text(${JSON.stringify(comment.moderationReasons)}::jsonb)), ${at}
  FROM claim
  RETURNING id
), event AS (
  INSERT INTO webhook_events (account_id, kind, name, payload, occurred_at)
  SELECT ${accountId}, 'engagement', 'comment.created',
    jsonb_set(${JSON.stringify(commentEventPayload(comment, args.page))}::jsonb, '{comment,id}', to_jsonb(inserted.id)), ${at}
  FROM inserted
  RETURNING id
)${notifySql(args.notifyJobId, accountId, at)}
SELECT (SELECT id FROM inserted) AS comment_id, (SELECT id FROM event) AS event_id, counts.*
FROM (${countsBeforeCreateSql(accountId, pageId, parentId)}) AS counts`;
}

/**
 * What every new comment starts as: neither hidden, deleted, edited nor decided by a moderator,
 * not featured or answered, with no report or reaction (countsAfterCreate counts on a new
 * comment being neither hidden nor deleted).
 */
export const NEW_COMMENT = {
  hiddenById: null,
  hiddenAt: null,
  deletedById: null,
  deletedAt: null,
  editedAt: null,
  moderationState: "UNDECIDED",
  decidedById: null,
  decidedAt: null,
  openReports: 0,
  featuredAt: null,
  featuredById: null,
  answeredAt: null,
  answeredById: null,
  reactionCount: 0,
  pageAuthor: false,
} as const satisfies Partial<Comment>;

type Written = CountsBeforeCreate & { comment_id: number | null; event_id: bigint | null };

/**
 * Write `comment` (every column as it will be stored; its `id` is the statement's) and its
 * comment.created event. `{id, counts}`: written, with the page's stats and the realm count with
 * it (comment-queries.ts countsBeforeCreateSql: read in the same statement, as its snapshot had
 * them, plus this comment); `{repeatOf}`: the reader's last comment, which this post repeats
 * (nothing written). A guest's captcha used before is 403.
 */
export async function writeComment(
  db: Db,
  args: WriteArgs,
): Promise<
  { id: number; counts: ReturnType<typeof countsAfterCreate> } | { repeatOf: number } | { slowModeWaitSeconds: number }
> {
  const { comment, captcha } = args;
  const endpoints = await subscribedEndpoints(db, {
    accountId: comment.accountId,
    kind: "ENGAGEMENT",
    name: "comment.created",
  });
  const sql = writeSql(args);
  const write = async (q: Db): Promise<Written> => (await q.$queryRaw<Written[]>(sql))[0]!;
  const written =
    endpoints.length === 0
      ? await write(db)
      : await withTransaction(db, async (tx) => {
          const row = await write(tx);
          if (row.event_id !== null) {
            await queueEventDeliveries(tx, {
              accountId: comment.accountId,
              eventId: BigInt(row.event_id),
              endpoints,
              occurredAt: comment.createdAt,
            });
          }
          return row;
        });
  if (written.comment_id !== null) {
    if (args.notifyJobId) {
      // The job committed with the comment (in the transaction, when there is one): wake the engine.
      announceJobs(db, [{ id: args.notifyJobId, name: notifyCommentJob.name, runAt: comment.createdAt }]);
    }
    return { id: Number(written.comment_id), counts: countsAfterCreate(written, comment) };
  }
  if (captcha) throw captchaUsedError();
  const claim = (await db.commentClaim.findUnique({ where: { memberId: comment.authorId } }))!;
  if (claim.claimKey !== claimKeyOf(comment) && args.slowModeSeconds) {
    // Slow mode stopped it: another comment of the reader's on this page came first. A post whose
    // clock read before the winner's (sent at once, written after it) still waits at most the slow
    // mode's seconds.
    const waitMs = claim.claimedAt.getTime() + args.slowModeSeconds * 1000 - comment.createdAt.getTime();
    return { slowModeWaitSeconds: Math.min(args.slowModeSeconds, Math.max(1, Math.ceil(waitMs / 1000))) };
  }
  return { repeatOf: claim.commentId };
}
