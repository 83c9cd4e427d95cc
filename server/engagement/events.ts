/**
 * Engagement webhook events (docs/webhooks.md "Engagement events"): comment.created,
 * comment.published, comment.unpublished, comment.deleted, comment.reported. Emitted by the services, each inside the
 * transaction of the change (emitWebhookEvent writes the event and its deliveries as rows), so an
 * event exists exactly when its change committed, once.
 */
import "server-only";

import type { Db } from "../db/client";
import type { Comment, Page } from "../generated/prisma/client";
import { emitWebhookEvent } from "../webhooks/deliveries";
import type { TEngagementEvent } from "../webhooks/events.schema";

/** The comment as an engagement event's `data.comment` carries it (snake_case, as the API). */
function commentEventData(comment: Comment, page: Pick<Page, "url" | "headline">) {
  return {
    id: comment.id,
    comment_realm_id: comment.accountId,
    page_id: comment.pageId,
    page_url: page.url,
    headline: page.headline,
    parent_comment_id: comment.parentCommentId,
    author_id: comment.authorId,
    body: comment.body,
    confidential: comment.confidential,
    is_published: comment.isPublished,
    is_spam: comment.isSpam,
    toxicity: comment.toxicity,
    moderation_state: comment.moderationState.toLowerCase(),
    created_at: comment.createdAt.toISOString(),
    edited_at: comment.editedAt?.toISOString() ?? null,
    deleted_at: comment.deletedAt?.toISOString() ?? null,
    deleted_by_id: comment.deletedById,
  };
}

/** An engagement event's `data`: the comment, and what else the event names (a report's reason…). */
export function commentEventPayload(
  comment: Comment,
  page: Pick<Page, "url" | "headline">,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return { comment: commentEventData(comment, page), ...extra };
}

/** Emit one engagement event about `comment`, inside the caller's transaction. */
export async function emitCommentEvent(
  tx: Db,
  args: {
    name: TEngagementEvent;
    comment: Comment;
    page: Pick<Page, "url" | "headline">;
    occurredAt: Date;
    extra?: Record<string, unknown>;
  },
): Promise<void> {
  await emitWebhookEvent(tx, {
    accountId: args.comment.accountId,
    kind: "ENGAGEMENT",
    name: args.name,
    data: commentEventPayload(args.comment, args.page, args.extra),
    occurredAt: args.occurredAt,
  });
}
