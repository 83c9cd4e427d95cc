"use client";

/**
 * A renewal charge that failed, as an entry of a payments list (the Subscribers page's payments,
 * a subscription's payments): server/subscriptions/recurring/failed-charges.ts.
 */
import type { RouterOutputs } from "@/components/trpc/types";
import { Badge, DateTime, useFigureFormats, type BadgeTone } from "@/components/ui";

type FailedChargeView = RouterOutputs["revenue"]["subscriberActivity"]["failed_charges"][number];

const OUTCOME_WORDS = new Map<FailedChargeView["outcome"], { label: string; tone: BadgeTone }>([
  ["open", { label: "in grace period", tone: "amber" }],
  ["recovered", { label: "paid later", tone: "green" }],
  ["lost", { label: "not recovered", tone: "gray" }],
]);

export function FailedChargeRow({
  charge: c,
  withSubscription,
}: {
  charge: FailedChargeView;
  withSubscription?: boolean;
}) {
  const { formatMoney } = useFigureFormats();
  const outcome = OUTCOME_WORDS.get(c.outcome);
  return (
    <li
      className="flex flex-wrap items-center gap-2 rounded border border-red-200 p-3"
      data-testid={`failed-charge-${c.id}`}
    >
      <span className="font-medium">{formatMoney(c.amount_cents, c.currency)}</span>
      <Badge tone="red">failed</Badge>
      <Badge tone="gray">renewal</Badge>
      {outcome ? <Badge tone={outcome.tone}>{outcome.label}</Badge> : null}
      <span className="text-gray-600">
        {withSubscription ? `#${c.subscription_id} · ` : ""}
        <DateTime value={new Date(c.failed_at)} />
        {c.retries > 0 ? ` · ${c.retries} ${c.retries === 1 ? "retry" : "retries"} declined` : ""}
        {c.payment_id ? ` · paid by payment #${c.payment_id}` : ""}
      </span>
      {c.last_error ? <span className="w-full text-xs break-words text-gray-600">{c.last_error}</span> : null}
    </li>
  );
}
