/** A newsletter send's state as a badge. */
import { Badge, type BadgeTone } from "@/components/ui";
import type { TSendView } from "@/server/newsletters/send.schema";

const LOOK: Record<TSendView["status"], { tone: BadgeTone; label: string }> = {
  QUEUED: { tone: "gray", label: "Queued" },
  SENDING: { tone: "blue", label: "Sending" },
  SENT: { tone: "green", label: "Sent" },
  CANCELLED: { tone: "amber", label: "Cancelled" },
};

export function SendStatus({ status }: { status: TSendView["status"] }) {
  const look = LOOK[status];
  return (
    <span data-testid="send-status" data-status={status}>
      <Badge tone={look.tone}>{look.label}</Badge>
    </span>
  );
}
