/**
 * What the privacy and notice parts hold about a reader, for their export: their consent records
 * (what they agreed to or withdrew, with the wording), their erasure requests, and the
 * illegal-content notices they sent or that were about their comments, with the decisions.
 */
import "server-only";

import type { Db } from "../../db/client";
import { consentHistory } from "../consent/consent";
import { iso } from "./format";

export async function collectPrivacy(db: Db, accountId: number, memberId: number) {
  const [records, erasures, notices] = await Promise.all([
    consentHistory(db, accountId, memberId),
    db.erasureRequest.findMany({
      where: { accountId, memberId },
      orderBy: { createdAt: "asc" },
      select: { requestedVia: true, state: true, createdAt: true, completedAt: true },
    }),
    db.dsaNotice.findMany({
      where: { accountId, OR: [{ notifierMemberId: memberId }, { authorMemberId: memberId }] },
      orderBy: { id: "asc" },
      select: {
        id: true,
        commentId: true,
        notifierMemberId: true,
        category: true,
        lawOrReason: true,
        createdAt: true,
        action: true,
        ground: true,
        groundReference: true,
        facts: true,
        decidedAt: true,
        appeals: {
          where: { memberId },
          select: { party: true, submittedAt: true, text: true, outcome: true, reasons: true, decidedAt: true },
        },
      },
    }),
  ]);
  return {
    consent_records: records.map((r) => ({
      purpose: r.purpose,
      what: r.purposeLabel,
      given: r.given,
      channel: r.channel,
      at: iso(r.occurredAt),
      locale: r.locale,
      text: r.text,
    })),
    erasure_requests: erasures.map((e) => ({
      requested_via: e.requestedVia,
      state: e.state,
      created_at: iso(e.createdAt),
      completed_at: iso(e.completedAt),
    })),
    illegal_content_notices: notices.map((n) => ({
      role: n.notifierMemberId === memberId ? "notifier" : "author",
      comment_id: n.commentId,
      category: n.category,
      law_or_reason: n.notifierMemberId === memberId ? n.lawOrReason : null,
      created_at: iso(n.createdAt),
      action: n.action,
      ground: n.ground,
      ground_reference: n.groundReference,
      facts: n.facts,
      decided_at: iso(n.decidedAt),
      appeals: n.appeals.map((a) => ({
        party: a.party,
        submitted_at: iso(a.submittedAt),
        text: a.text,
        outcome: a.outcome,
        reasons: a.reasons,
        decided_at: iso(a.decidedAt),
      })),
    })),
  };
}
