/** A webhook endpoint's state as a badge: active, disabled by hand, or disabled for failing. */
import { Badge } from "@/components/ui";

export function EndpointStatus({ active, disabledReason }: { active: boolean; disabledReason: string | null }) {
  if (active) return <Badge tone="green">Active</Badge>;
  return (
    <Badge tone={disabledReason === "failing" ? "red" : "gray"}>
      {disabledReason === "failing" ? "Disabled: failing" : "Disabled"}
    </Badge>
  );
}
