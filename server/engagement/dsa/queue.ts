/**
 * The moderators' "Illegal-content notices" queue (docs/privacy.md, "Illegal-content notices"):
 * open notices oldest first (they wait), decided ones newest decision first, or those with an
 * appeal waiting. Owners and moderators only. Text the readers wrote is returned as text.
 */
import "server-only";

import type { StaffActor } from "../../auth/actor";
import type { Db } from "../../db/client";
import type { Prisma } from "../../generated/prisma/client";
import { parseInput } from "../../validation";
import type { TCommentOp } from "../comments.schema";
import { contentOf } from "../moderation/moderation";
import { requireModerator } from "../moderation/moderator";
import { ZDsaListInput, type TDsaNoticeRow } from "./dsa.schema";

const MAX_ROWS = 100;

export async function listDsaNotices(
  db: Db,
  args: { actor: StaffActor; input: unknown },
): Promise<{ notices: TDsaNoticeRow[] }> {
  requireModerator(args.actor);
  const { status } = parseInput(ZDsaListInput, args.input ?? {});
  const accountId = args.actor.accountId;
  const where: Prisma.DsaNoticeWhereInput =
    status === "open"
      ? { accountId, decidedAt: null }
      : status === "decided"
        ? { accountId, decidedAt: { not: null } }
        : status === "appealed"
          ? { accountId, appeals: { some: { submittedAt: { not: null }, outcome: null } } }
          : { accountId };
  const rows = await db.dsaNotice.findMany({
    where,
    orderBy: status === "open" ? [{ createdAt: "asc" }, { id: "asc" }] : [{ decidedAt: "desc" }, { id: "desc" }],
    take: MAX_ROWS,
    include: { comment: { include: { page: true } }, appeals: { orderBy: { id: "asc" } } },
  });
  return {
    notices: rows.map((n) => ({
      id: n.id,
      createdAt: n.createdAt.toISOString(),
      category: n.category,
      lawOrReason: n.lawOrReason,
      notifierName: n.notifierName,
      notifierEmail: n.notifierEmail,
      signedIn: n.notifierMemberId !== null,
      comment: n.comment
        ? {
            id: n.comment.id,
            text: contentOf((n.comment.body as { ops: TCommentOp[] }).ops).text.trim(),
            url: n.comment.page.url,
            headline: n.comment.page.headline,
            published: n.comment.isPublished && n.comment.deletedAt === null,
          }
        : null,
      decision:
        n.decidedAt && n.action
          ? {
              action: n.action,
              category: n.decisionCategory ?? n.category,
              ground: n.ground ?? "legal",
              groundReference: n.groundReference ?? "",
              facts: n.facts ?? "",
              automated: n.automated ?? false,
              decidedAt: n.decidedAt.toISOString(),
            }
          : null,
      appeals: n.appeals
        .filter((a) => a.submittedAt !== null)
        .map((a) => ({
          id: a.id,
          party: a.party,
          submittedAt: a.submittedAt?.toISOString() ?? null,
          text: a.text,
          outcome: a.outcome,
          reasons: a.reasons,
          decidedAt: a.decidedAt?.toISOString() ?? null,
        })),
    })),
  };
}
