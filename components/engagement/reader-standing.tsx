/** A reader's standing and comment counts, as the Community page's list and card show them. */
import type { ReactNode } from "react";

import { Badge, DateTime } from "@/components/ui";
import type { TReaderRow } from "@/server/engagement/community/community.schema";
import type { TBanView } from "@/server/engagement/moderation/queue/queue.schema";

/** A reader's standing as a badge (the suspension's end with its time zone). */
export function StandingBadge({ reader }: { reader: Pick<TReaderRow, "status" | "suspendedUntil"> }) {
  switch (reader.status) {
    case "banned":
      return <Badge tone="red">Banned for good</Badge>;
    case "suspended":
      return (
        <Badge tone="amber">
          Suspended until {reader.suspendedUntil ? <DateTime value={reader.suspendedUntil} /> : "later"}
        </Badge>
      );
    case "warned":
      return <Badge tone="blue">Warned</Badge>;
    case "active":
      return <Badge tone="green">In good standing</Badge>;
  }
}

export function CommentCounts({ counts }: { counts: TReaderRow["counts"] }) {
  return (
    <span>
      {counts.published} published · {counts.pending} pending · {counts.rejected} rejected
    </span>
  );
}

/** One ban or suspension in a reader's history: its reason, its end, who and whether it still holds. */
export function BanLine({
  ban: b,
  since,
  inForce,
}: {
  ban: TBanView;
  /** When it was made, where the line says so. */
  since?: ReactNode;
  /** The words for one that holds ("in force", "active"). */
  inForce: string;
}) {
  return (
    <>
      {b.reason} ·{" "}
      {b.expiresAt ? (
        <>
          until <DateTime value={b.expiresAt} />
        </>
      ) : (
        "for good"
      )}
      {b.createdBy ? ` · by ${b.createdBy}` : ""}
      {since}
      {b.liftedAt ? ` · lifted${b.liftedBy ? ` by ${b.liftedBy}` : ""}` : b.active ? ` · ${inForce}` : " · ended"}
    </>
  );
}
