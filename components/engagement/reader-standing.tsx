/** A reader's standing and comment counts, as the Community page's list and card show them; a ban in their history. */
import type { ReactNode } from "react";

import { Badge, DateTime } from "@/components/ui";
import type { TReaderRow } from "@/server/engagement/community/community.schema";
import type { TBanView } from "@/server/engagement/moderation/queue/queue.schema";

/** A reader's standing as a badge (the suspension's end with its time zone). */
function StandingBadge({ reader }: { reader: Pick<TReaderRow, "status" | "suspendedUntil"> }) {
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

function CommentCounts({ counts }: { counts: TReaderRow["counts"] }) {
  return (
    <span>
      {counts.published} published · {counts.pending} pending · {counts.rejected} rejected
    </span>
  );
}

/** The line under a reader's name: standing, comment counts, when they joined. */
export function ReaderStanding({
  reader,
}: {
  reader: Pick<TReaderRow, "status" | "suspendedUntil" | "counts" | "joinedAt">;
}) {
  return (
    <p className="flex flex-wrap items-center gap-x-2 gap-y-1 text-gray-700">
      <StandingBadge reader={reader} />
      <CommentCounts counts={reader.counts} />
      <span>
        · joined <DateTime value={reader.joinedAt} />
      </span>
    </p>
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
