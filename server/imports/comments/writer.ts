/**
 * The comments of a batch, written together at its end: one statement takes their ids from the
 * comments' sequence, one inserts them all, one records them (import_records). A statement per
 * comment was most of an import's time; the triggers on `comments` (counts, cache notices) are
 * statement triggers, so they also run once per batch, whatever its size.
 *
 * All in the batch's transaction: nothing of it stays when it rolls back (`discard`). A reply's
 * plan that needs a comment still waiting here (its top-level post, in the same batch) flushes
 * first.
 *
 * Quiet unless the run announces (--announce): then each comment queues the notifications a live
 * comment queues (a reply, a mention: notifications/notify.ts), in the same transaction.
 */
import "server-only";

import type { TransactionClient } from "../../db/client";
import { enqueueCommentNotifications } from "../../engagement/notifications/notify";
import { Prisma, type CommentModerationState } from "../../generated/prisma/client";
import type { ImportContext } from "../types";

type PendingComment = {
  sourceId: string;
  /** The post it answered, when not its top-level post (Masthead's parent). */
  sourceParentId: string | null;
  /** The posts answering it that the file lists before it (index-pass.ts earlyReplies). */
  earlyReplies: string[];
  row: {
    account_id: number;
    page_id: number;
    parent_comment_id: number | null;
    author_id: number;
    body: unknown;
    body_digest: string;
    guest: boolean;
    guest_name: string | null;
    is_published: boolean;
    is_spam: boolean;
    page_author: boolean;
    moderation_state: "undecided" | "approved" | "rejected" | "spam";
    decided_at: string | null;
    deleted_at: string | null;
    created_at: string;
  };
};

export class CommentWriter {
  private pending: PendingComment[] = [];
  private bySource = new Set<string>();

  constructor(private readonly kind: string) {}

  add(comment: PendingComment): void {
    this.pending.push(comment);
    this.bySource.add(comment.sourceId);
  }

  /** Whether the comment of `sourceId` waits here. */
  holds(sourceId: string): boolean {
    return this.bySource.has(sourceId);
  }

  async flush(tx: TransactionClient, ctx: ImportContext): Promise<void> {
    const batch = this.pending;
    if (batch.length === 0) return;
    const ids = await tx.$queryRaw<{ id: number }[]>(Prisma.sql`
      SELECT nextval(pg_get_serial_sequence('comments', 'id'))::int AS id FROM generate_series(1, ${batch.length}::int)`);
    const rows = batch.map((c, i) => ({ id: ids[i]!.id, ...c.row }));
    await tx.$executeRaw(Prisma.sql`
      INSERT INTO comments (id, account_id, page_id, parent_comment_id, author_id, body, body_digest, guest,
        guest_name, is_published, is_spam, page_author, moderation_state, decided_at, deleted_at, created_at)
      SELECT x.id, x.account_id, x.page_id, x.parent_comment_id, x.author_id, x.body, x.body_digest, x.guest,
        x.guest_name, x.is_published, x.is_spam, x.page_author, x.moderation_state::comment_moderation_state, x.decided_at,
        x.deleted_at, x.created_at
      FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS x(id int, account_id int, page_id int,
        parent_comment_id int, author_id int, body jsonb, body_digest text, guest boolean, guest_name text,
        is_published boolean, is_spam boolean, page_author boolean, moderation_state text, decided_at timestamptz,
        deleted_at timestamptz, created_at timestamptz)
      ORDER BY x.id`);
    await ctx.recordMany(
      tx,
      batch.map((c, i) => ({
        kind: this.kind,
        sourceId: c.sourceId,
        targetId: ids[i]!.id,
        created: true,
        sourceParentId: c.sourceParentId,
      })),
    );
    await linkReplyTo(tx, ctx, this.kind, batch);
    if (ctx.announce) {
      for (const [i, c] of batch.entries()) {
        await enqueueCommentNotifications(tx, {
          comment: {
            id: ids[i]!.id,
            accountId: c.row.account_id,
            parentCommentId: c.row.parent_comment_id,
            isPublished: c.row.is_published,
            body: c.row.body,
            moderationState: c.row.moderation_state.toUpperCase() as CommentModerationState,
            deletedAt: c.row.deleted_at ? new Date(c.row.deleted_at) : null,
          },
          now: ctx.now,
        });
      }
    }
    this.discard();
  }

  discard(): void {
    this.pending = [];
    this.bySource = new Set();
  }
}

/**
 * Each reply of `batch` that answered another reply gets that reply's comment as reply_to_id, and
 * so do the replies written earlier that answer a comment of `batch`: through the import records
 * (source_parent_id → the comment the post became), by source id, in one statement.
 */
async function linkReplyTo(tx: TransactionClient, ctx: ImportContext, kind: string, batch: PendingComment[]) {
  const ids = batch.flatMap((c) => (c.sourceParentId ? [c.sourceId] : []).concat(c.earlyReplies));
  if (ids.length === 0) return;
  await tx.$executeRaw(Prisma.sql`
    UPDATE comments c SET reply_to_id = p.target_id::int
    FROM import_records r
    JOIN import_records p ON p.account_id = r.account_id AND p.source = r.source AND p.kind = r.kind
      AND p.source_id = r.source_parent_id AND p.site IN (r.site, '')
    WHERE r.account_id = ${ctx.accountId} AND r.source = ${ctx.source} AND r.kind = ${kind} AND r.site = ${ctx.site}
      AND r.source_id = ANY(${ids}::text[]) AND r.source_parent_id IS NOT NULL
      AND p.target_id ~ '^[0-9]{1,9}$' AND c.id = r.target_id::int AND c.reply_to_id IS NULL`);
}
