/**
 * The Overview's cards for moderators and revenue staff: their work at a glance, each figure a
 * link to the page where it is worked on (server/accounts/work-overview.ts reads them).
 */
import type { ReactNode } from "react";

import { Card, DateTime, MoneyFigures, TextLink } from "@/components/ui";
import {
  REFUNDS_PAST_DAYS,
  RENEWALS_AHEAD_DAYS,
  type TModerationWork,
  type TRevenueWork,
} from "@/server/accounts/work-overview.schema";

function Figure({ label, value, href, detail }: { label: string; value: ReactNode; href: string; detail?: ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-sm text-gray-600">
        <TextLink href={href}>{label}</TextLink>
      </dt>
      <dd className="mt-1 text-2xl font-semibold [overflow-wrap:anywhere] text-gray-900">{value}</dd>
      {detail ? <dd className="text-sm text-gray-600">{detail}</dd> : null}
    </div>
  );
}

const QUEUE = "/admin/engagement/moderation";

export function ModerationWorkCard({ work }: { work: TModerationWork }) {
  return (
    <Card title="Moderation" actions={<TextLink href={QUEUE}>Open the queue</TextLink>}>
      <dl className="mt-4 grid grid-cols-2 gap-4 sm:grid-cols-3" data-testid="moderation-work">
        <Figure
          label="Waiting in the queue"
          value={work.pending}
          href={`${QUEUE}?view=pending`}
          detail={
            work.oldestPendingAt ? (
              <>
                oldest since <DateTime value={work.oldestPendingAt} />
              </>
            ) : (
              "none waiting"
            )
          }
        />
        <Figure label="Reported comments" value={work.reported} href={`${QUEUE}?view=reported`} />
        <Figure label="Decisions today" value={work.decidedToday} href={`${QUEUE}#decisions-per-day`} />
      </dl>
    </Card>
  );
}

const SUBS = "/admin/subscriptions";

export function RevenueWorkCard({ work }: { work: TRevenueWork }) {
  return (
    <Card title="Subscriptions" actions={<TextLink href={`${SUBS}/reports`}>Reports</TextLink>}>
      <dl className="mt-4 grid grid-cols-2 gap-4 sm:grid-cols-4" data-testid="revenue-work">
        <Figure
          label="MRR this month"
          value={<MoneyFigures figures={work.mrr} />}
          href={`${SUBS}/reports`}
          detail={`${work.payingSubscribers} paying ${work.payingSubscribers === 1 ? "subscriber" : "subscribers"}`}
        />
        <Figure
          label="In grace after a failed payment"
          value={work.inGrace}
          href={`${SUBS}/subscriptions`}
          detail="access kept while the charge is retried"
        />
        <Figure
          label={`Renewals in the next ${RENEWALS_AHEAD_DAYS} days`}
          value={work.renewalsDue}
          href={`${SUBS}/subscriptions`}
        />
        <Figure
          label={`Refunds, last ${REFUNDS_PAST_DAYS} days`}
          value={work.refunds.count}
          href={`${SUBS}/invoices`}
          detail={work.refunds.count ? <MoneyFigures figures={work.refunds.amounts} /> : undefined}
        />
      </dl>
    </Card>
  );
}
