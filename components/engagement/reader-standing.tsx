/** A reader's standing and comment counts, as the Community page's list and card show them. */
import { Badge, DateTime } from "@/components/ui";
import type { TReaderRow } from "@/server/engagement/community/community.schema";

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

/** The standing badge, the comment counts and the day the reader joined, on one line. */
export function StandingLine({
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
