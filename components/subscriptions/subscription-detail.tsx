"use client";

/**
 * One subscription as revenue staff open it (tRPC subscriberSubscriptions.get): the subscriber, the
 * plan copy, price, status and period; cancel, pause or extend it (confirmed, audited); its payments
 * and timeline. `SubscriberSubscriptions` lists one subscriber's (on the Subscribers page).
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";

import { useTRPC } from "@/components/trpc/react";
import type { RouterOutputs } from "@/components/trpc/types";
import {
  Alert,
  Badge,
  Button,
  Code,
  DateTime,
  DetailFacts,
  DetailPanel,
  DetailSection,
  ErrorAlert,
  FormField,
  Input,
  LoadState,
  useConfirm,
  useDateTimeFormat,
  useFigureFormats,
  useTimeZone,
} from "@/components/ui";
import { periodInWords } from "@/server/subscriptions/catalogue/catalogue.schema";
import {
  paymentStatusLabel,
  subscriptionStatusLabel,
} from "@/server/subscriptions/subscribers/subscription-status.schema";

import { FailedChargeRow } from "./failed-charge";
import { invalidateMoneyViews } from "./money-views";
import { PauseForm } from "./pause-form";

type TDetailWire = RouterOutputs["subscriberSubscriptions"]["get"];
type TSubscriptionWire = TDetailWire["subscription"];

export const emailOf = (s: TSubscriptionWire) =>
  s.subscriber.subscriber_identities.find((i) => i.provider === "email")?.value ?? null;

/** The status in one word (subscriptionStatusLabel: "Paused" while a pause is open), and what qualifies it. */
export function StatusBadge({ s }: { s: TSubscriptionWire }) {
  const word = subscriptionStatusLabel(s);
  return (
    <span className="flex flex-wrap items-center gap-1">
      <Badge tone={word.tone}>{word.label}</Badge>
      {word.paused && s.paused_until ? (
        <span className="text-gray-600">
          resumes <DateTime value={new Date(s.paused_until)} />
        </span>
      ) : null}
      {!word.paused && s.status === "cancelled" && s.active ? <Badge tone="blue">access until end</Badge> : null}
      {!word.paused && s.expired && s.status !== "expired" ? <Badge tone="gray">expired</Badge> : null}
    </span>
  );
}

export function EndOf({ s }: { s: TSubscriptionWire }) {
  return s.end_timestamp ? <DateTime value={new Date(s.end_timestamp)} /> : <span>no end</span>;
}

export function SubscriptionDetail({ id, onClose }: { id: number; onClose: () => void }) {
  const trpc = useTRPC();
  const detail = useQuery(trpc.subscriberSubscriptions.get.queryOptions({ id }));
  const s = detail.data?.subscription;
  return (
    <DetailPanel
      title={s ? `Subscription #${s.id}` : "Subscription"}
      testId="subscription-detail"
      onClose={onClose}
      query={detail}
      what="subscription"
    >
      {(data) => <SubscriptionBody data={data} />}
    </DetailPanel>
  );
}

function SubscriptionBody({ data }: { data: TDetailWire }) {
  const actions = useSubscriptionActions(data.subscription);
  return (
    <>
      {actions.message ? <Alert tone="success">{actions.message}</Alert> : null}
      <ErrorAlert error={actions.cancel.error ?? actions.extend.error} />
      <SubscriptionFacts s={data.subscription} />
      <SubscriptionActions s={data.subscription} actions={actions} />
      <SubscriptionPayments data={data} />
      <SubscriptionTimeline timeline={data.timeline} />
    </>
  );
}

/** Cancel and extend (each confirmed first), and what the last of them said. */
function useSubscriptionActions(s: TSubscriptionWire) {
  const { formatDay } = useFigureFormats();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const confirm = useConfirm();
  const formatTime = useDateTimeFormat();
  const zone = useTimeZone() ?? "UTC";
  const [message, setMessage] = useState<string | null>(null);
  const [extendTo, setExtendTo] = useState("");
  const refresh = () => invalidateMoneyViews(queryClient, trpc);
  const cancel = useMutation(
    trpc.subscriberSubscriptions.cancel.mutationOptions({
      onSuccess: async () => {
        setMessage("Cancelled: the reader keeps access until the end of the period.");
        await refresh();
      },
    }),
  );
  const extend = useMutation(
    trpc.subscriberSubscriptions.extend.mutationOptions({
      onSuccess: async (e) => {
        setMessage(e.end_timestamp ? `Extended to ${formatTime(new Date(e.end_timestamp))}.` : "Extended: no end.");
        setExtendTo("");
        await refresh();
      },
    }),
  );
  const onCancel = async () => {
    const ok = await confirm({
      title: `Cancel subscription #${s.id}?`,
      body: "The reader keeps access until the end of the period already paid for; it will not renew.",
      confirmLabel: "Cancel subscription",
      dismissLabel: "Keep subscription",
    });
    if (ok) cancel.mutate({ id: s.id });
  };
  const onExtend = async (to: string) => {
    const ok = await confirm({
      title:
        to === "indefinitely"
          ? `Remove the end of #${s.id}?`
          : `Extend #${s.id} to the end of ${formatDay(to)} (${zone})?`,
      body: "The reader's access follows the new end at once.",
      confirmLabel: "Extend",
      tone: "primary",
    });
    if (ok) extend.mutate({ id: s.id, extendTo: to });
  };
  const onPaused = async (until: string) => {
    setMessage(`Paused: no payment and no access until ${formatTime(new Date(until))}, then it resumes and renews.`);
    await refresh();
  };
  return { message, extendTo, setExtendTo, zone, cancel, extend, onCancel, onExtend, onPaused };
}

type Actions = ReturnType<typeof useSubscriptionActions>;

function SubscriptionFacts({ s }: { s: TSubscriptionWire }) {
  const { formatMoney } = useFigureFormats();
  return (
    <DetailFacts
      testId="subscription-facts"
      facts={[
        {
          label: "Subscriber",
          value: `${s.subscriber.name ?? "Unnamed"} ${emailOf(s) ? `· ${emailOf(s)}` : ""} (#${s.subscriber_id})`,
        },
        {
          label: "Plan",
          value: `${s.group_name ? `${s.group_name} · ` : ""}${s.plan_name} (${periodInWords(s.duration_length, s.duration_unit)}, ${s.plan_occurrence})`,
        },
        {
          label: "Price",
          value: `${formatMoney(s.plan_amount_cents, s.plan_amount_currency)}; paid ${formatMoney(s.payment_amount_cents, s.payment_amount_currency)} (${s.payment_type})`,
        },
        { label: "Status", value: <StatusBadge s={s} />, testId: "subscription-status" },
        {
          label: "Period",
          value: (
            <>
              <DateTime value={new Date(s.start_timestamp)} /> → <EndOf s={s} />
            </>
          ),
        },
        s.cancelled_at ? { label: "Cancelled", value: <DateTime value={new Date(s.cancelled_at)} /> } : null,
        {
          label: "Metadata",
          value: Object.keys((s.metadata as object | null) ?? {}).length ? (
            <Code>{JSON.stringify(s.metadata)}</Code>
          ) : (
            "—"
          ),
        },
      ]}
    />
  );
}

function SubscriptionActions({ s, actions }: { s: TSubscriptionWire; actions: Actions }) {
  return (
    <DetailSection title="Actions">
      <div className="flex flex-wrap items-end gap-3">
        <Button
          variant="danger"
          onClick={() => void actions.onCancel()}
          disabled={s.status === "cancelled" || s.status === "failed"}
          loading={actions.cancel.isPending}
          loadingText="Cancelling…"
        >
          Cancel subscription
        </Button>
        <PauseForm s={s} onPaused={actions.onPaused} />
        {!s.recurring && s.status !== "cancelled" && s.status !== "failed" ? (
          <ExtendForm s={s} actions={actions} />
        ) : (
          <p className="text-gray-600">
            {s.recurring ? "Recurring: its payments set the end." : "Cancelled or failed: not extendable."}
          </p>
        )}
      </div>
    </DetailSection>
  );
}

function ExtendForm({ s, actions }: { s: TSubscriptionWire; actions: Actions }) {
  const { extendTo, setExtendTo, zone, extend, onExtend } = actions;
  return (
    <form
      className="flex flex-wrap items-end gap-2"
      onSubmit={(e) => {
        e.preventDefault();
        if (extendTo) void onExtend(extendTo);
      }}
    >
      <FormField label="Extend to" hint={`Through the end of this day in ${zone}.`}>
        <Input type="date" value={extendTo} onChange={(e) => setExtendTo(e.target.value)} required />
      </FormField>
      <Button type="submit" variant="secondary" loading={extend.isPending} loadingText="Extending…">
        Extend
      </Button>
      {s.end_timestamp ? (
        <Button type="button" variant="secondary" onClick={() => void onExtend("indefinitely")}>
          No end
        </Button>
      ) : null}
    </form>
  );
}

function SubscriptionPayments({ data }: { data: TDetailWire }) {
  const { formatMoney } = useFigureFormats();
  return (
    <DetailSection title="Payments">
      {data.payments.length ? (
        <ul className="space-y-1" data-testid="subscription-payments">
          {data.payments.map((p) => (
            <li key={p.id} className="flex flex-wrap gap-2">
              <DateTime value={new Date(p.created_at)} /> <span>{formatMoney(p.amount_cents, p.currency)}</span>
              <Badge tone="gray">{p.payment_type}</Badge>
              <Badge tone={p.status === "captured" ? "green" : "gray"}>{paymentStatusLabel(p.status)}</Badge>
            </li>
          ))}
        </ul>
      ) : data.failed_charges.length ? null : (
        <p className="text-gray-600">No payments recorded.</p>
      )}
      {data.failed_charges.length ? (
        <ul className="mt-2 space-y-2" data-testid="subscription-failed-charges">
          {data.failed_charges.map((c) => (
            <FailedChargeRow key={c.id} charge={c} />
          ))}
        </ul>
      ) : null}
    </DetailSection>
  );
}

function SubscriptionTimeline({ timeline }: { timeline: TDetailWire["timeline"] }) {
  return (
    <DetailSection title="Timeline">
      <ol className="space-y-1" data-testid="subscription-timeline">
        {timeline.map((entry, i) => (
          <li key={i} className="flex flex-wrap gap-2">
            <DateTime value={new Date(entry.at)} />
            <span className="font-medium">{entry.action.replace("subscription.", "")}</span>
            <span className="text-gray-600">by {entry.by}</span>
            {entry.action === "subscription.extend" ? (
              <span className="text-gray-600">
                to {typeof entry.detail.to === "string" ? <DateTime value={new Date(entry.detail.to)} /> : "no end"}
              </span>
            ) : null}
          </li>
        ))}
      </ol>
    </DetailSection>
  );
}

/**
 * One subscriber's subscriptions, newest first, with their state flags (the Subscribers page's
 * detail); `onOpen` adds a button that opens one (its cancel and extend actions).
 */
export function SubscriberSubscriptions({ memberId, onOpen }: { memberId: number; onOpen?: (id: number) => void }) {
  const trpc = useTRPC();
  const list = useQuery(trpc.subscriberSubscriptions.list.queryOptions({ memberId, limit: 50 }));
  const rows = list.data?.items ?? [];
  return (
    <DetailSection title="Subscriptions">
      <LoadState query={list} what="subscriptions" empty={rows.length === 0} emptyText="No subscriptions." />
      {rows.length ? (
        <ul className="space-y-2" data-testid="subscriber-subscriptions">
          {rows.map((s) => (
            <li key={s.id} className="flex flex-wrap items-center gap-2">
              <span className="font-medium">
                #{s.id} {s.plan_name}
              </span>
              <StatusBadge s={s} />
              {s.active ? <Badge tone="green">active</Badge> : null}
              {s.in_trial_period ? <Badge tone="blue">in trial</Badge> : null}
              {s.in_grace_period ? <Badge tone="amber">in grace period</Badge> : null}
              {s.recurring ? <Badge tone="gray">recurring</Badge> : null}
              <span className="text-gray-600">
                ends <EndOf s={s} />
              </span>
              {onOpen ? (
                <Button variant="secondary" size="sm" onClick={() => onOpen(s.id)}>
                  Manage #{s.id}
                </Button>
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}
    </DetailSection>
  );
}
