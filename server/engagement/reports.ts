/**
 * Reader reports (docs/engagement.md "Reports").
 *
 * - A signed-in, not banned reader reports a visible comment of the page (others: 404) with a
 *   reason of REPORT_REASONS and an optional note (plain text, shown to moderators as text).
 *   Their own comment: 403.
 * - One report per reader and comment: the unique index (comment, member) keeps one row and the
 *   insert skips an existing one (ON CONFLICT DO NOTHING), so repeats, even at the same moment,
 *   answer the first report and change nothing.
 * - A new report, in the same transaction: the comment's open reports + 1 (the reported queue),
 *   a comment.reported webhook event, and, at REPORTS_TO_HOLD open reports, an undecided
 *   published comment is held (unpublished, reason "held.reports") until a moderator decides.
 */
import "server-only";

import type { ApiUser } from "../auth/api-auth";
import type { Db } from "../db/client";
import { withTransaction } from "../db/transaction";
import { AppError } from "../errors";
import { findOrCreateJwtMember } from "../members/identities";
import { VISIBLE } from "./comments";
import { emitCommentEvent } from "./events";
import { assertNotBanned } from "./moderation/bans/bans";
import { decodePageId, findPage } from "./pages";
import { REPORTS_TO_HOLD, type TReportBody, type TReportWire } from "./reports.schema";

/** A visible comment of the page a reader's call names (its base64 URL and the comment's id); else NOT_FOUND. */
export async function visibleCommentOnPage(db: Db, args: { accountId: number; encodedUrl: string; commentId: number }) {
  const url = decodePageId(args.encodedUrl, "params.encoded_url");
  const page = await findPage(db, args.accountId, url);
  const comment = page
    ? await db.comment.findFirst({
        where: { id: args.commentId, accountId: args.accountId, pageId: page.id, ...VISIBLE },
        select: { id: true, authorId: true },
      })
    : null;
  if (!page || !comment) throw new AppError("NOT_FOUND", "Comment not found on this page.");
  return { page, comment };
}

const REASON_TO_DB = { spam: "SPAM", abuse: "ABUSE", off_topic: "OFF_TOPIC", other: "OTHER" } as const;
const REASON_WIRE = { SPAM: "spam", ABUSE: "abuse", OFF_TOPIC: "off_topic", OTHER: "other" } as const;

export async function reportComment(
  db: Db,
  args: { accountId: number; user: ApiUser; encodedUrl: string; commentId: number; input: TReportBody; now: Date },
): Promise<TReportWire> {
  const { accountId, now, input } = args;
  const { page, comment: found } = await visibleCommentOnPage(db, { ...args, accountId });
  const member = await findOrCreateJwtMember(db, { accountId, user: args.user, now });
  await assertNotBanned(db, { accountId, memberId: member.id, now });
  if (member.id === found.authorId) throw new AppError("FORBIDDEN", "You cannot report your own comment.");

  return withTransaction(db, async (tx) => {
    const inserted = await tx.commentReport.createMany({
      data: [
        {
          accountId,
          commentId: found.id,
          memberId: member.id,
          reason: REASON_TO_DB[input.reason],
          note: input.note ? input.note : null,
          createdAt: now,
        },
      ],
      skipDuplicates: true,
    });
    const report = await tx.commentReport.findUniqueOrThrow({
      where: { commentId_memberId: { commentId: found.id, memberId: member.id } },
    });
    if (inserted.count === 1) {
      const counted = await tx.comment.update({
        where: { id: found.id },
        data: { openReports: { increment: 1 } },
      });
      const hold =
        counted.openReports >= REPORTS_TO_HOLD && counted.moderationState === "UNDECIDED" && counted.isPublished;
      const comment = hold
        ? await tx.comment.update({
            where: { id: found.id },
            data: {
              isPublished: false,
              moderationReasons: [...new Set([...counted.moderationReasons, "held.reports"])],
            },
          })
        : counted;
      await emitCommentEvent(tx, {
        name: "comment.reported",
        comment,
        page,
        occurredAt: now,
        extra: { report: { reason: input.reason, open_reports: comment.openReports, held: hold } },
      });
    }
    return {
      report: {
        comment_id: report.commentId,
        reason: REASON_WIRE[report.reason],
        note: report.note,
        created_at: report.createdAt.toISOString(),
      },
      created: inserted.count === 1,
    };
  });
}
