/**
 * The headline numbers of a send or a newsletter (server/newsletters/stats.ts says what each
 * means), as a list of figures that wraps on a phone.
 */
import { formatRate, type SendStats } from "@/server/newsletters/stats.schema";

export const STATS_COLORS = { delivered: "#4f46e5", opened: "#15803d", clicked: "#b45309", active: "#4f46e5" };

export function StatFigures({
  stats,
  tracksOpens,
  sends,
}: {
  stats: SendStats;
  tracksOpens: boolean;
  /** How many sends the numbers add up (a newsletter's), when more than one may. */
  sends?: number;
}) {
  const figures: { label: string; value: string; detail?: string }[] = [
    ...(sends !== undefined ? [{ label: "Sends", value: String(sends) }] : []),
    { label: "Recipients", value: String(stats.recipients) },
    {
      label: "Delivered",
      value: String(stats.delivered),
      detail: `${stats.bounced} bounced, ${stats.failed} failed${stats.pending ? `, ${stats.pending} pending` : ""}`,
    },
    {
      label: "Opened",
      value: tracksOpens || stats.opened ? String(stats.opened) : "not tracked",
      detail: tracksOpens || stats.opened ? `${formatRate(stats.openRate)} of delivered` : undefined,
    },
    { label: "Clicked", value: String(stats.clicked), detail: `${formatRate(stats.clickRate)} of delivered` },
    { label: "Unsubscribed", value: String(stats.unsubscribed) },
    {
      label: "Subscriptions started",
      value: String(stats.subscriptionsStarted),
      detail: "paid, within 7 days of a click",
    },
  ];
  return (
    <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-4 xl:grid-cols-7" data-testid="stat-figures">
      {figures.map((f) => (
        <div key={f.label} className="min-w-0 rounded-md border border-gray-200 bg-white p-3">
          <dt className="text-xs font-medium text-gray-600">{f.label}</dt>
          <dd className="mt-1 text-xl font-semibold text-gray-900 tabular-nums">{f.value}</dd>
          {f.detail ? <dd className="text-xs text-gray-600">{f.detail}</dd> : null}
        </div>
      ))}
    </dl>
  );
}

/** Why opens are a floor and a ceiling at once (docs/newsletters.md "Measuring"). */
export function OpensCaveat({ tracksOpens }: { tracksOpens: boolean }) {
  return (
    <p className="text-sm text-gray-600">
      {tracksOpens
        ? "Opens are approximate: Apple Mail Privacy Protection and some mail providers load the open pixel without the reader opening the mail (more opens), and readers who block images are not counted (fewer). Clicks are the surer measure."
        : "Opens are not tracked for this newsletter (its open pixel is off in its settings)."}
    </p>
  );
}
