"use client";

/**
 * Revenue staff's view of the account's subscriptions (tRPC subscriberSubscriptions.*): search by
 * subscriber, filter by status and plan, newest first a page at a time; open one to see the
 * subscriber, the plan copy, payments and timeline, and cancel or extend it (confirmed, audited);
 * give a complimentary subscription. `SubscriberSubscriptions` lists one subscriber's (on the
 * Subscribers page).
 */
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useDeferredValue, useState, type FormEvent } from "react";

import { useTRPC } from "@/components/trpc/react";
import type { RouterOutputs } from "@/components/trpc/types";
import {
  Alert,
  Badge,
  Button,
  Code,
  DateTime,
  ErrorAlert,
  FilterDisclosure,
  FilterSelect,
  FormActions,
  FormField,
  Input,
  LoadMore,
  LoadState,
  Panel,
  SearchInput,
  Select,
  SelectableList,
  StatusFilter,
  useConfirm,
  useDateTimeFormat,
  useFigureFormats,
  useTimeZone,
} from "@/components/ui";
import { periodInWords } from "@/server/subscriptions/catalogue/catalogue.schema";
import {
  SUBSCRIPTION_STATUS_FILTERS,
  type TSubscriptionStatusFilter,
} from "@/server/subscriptions/subscribers/subscription-actions.schema";
import {
  paymentStatusLabel,
  subscriptionStatusLabel,
} from "@/server/subscriptions/subscribers/subscription-status.schema";

import { FailedChargeRow } from "./failed-charge";
import { invalidateMoneyViews } from "./money-views";
import { PauseForm } from "./pause-form";

type TSubscriptionWire = RouterOutputs["subscriberSubscriptions"]["get"]["subscription"];

const PAGE_SIZE = 25;
const emailOf = (s: TSubscriptionWire) =>
  s.subscriber.subscriber_identities.find((i) => i.provider === "email")?.value ?? null;

/** The status in one word (subscriptionStatusLabel: "Paused" while a pause is open), and what qualifies it. */
function StatusBadge({ s }: { s: TSubscriptionWire }) {
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

function EndOf({ s }: { s: TSubscriptionWire }) {
  return s.end_timestamp ? <DateTime value={new Date(s.end_timestamp)} /> : <span>no end</span>;
}

export function SubscriptionsBrowser() {
  const trpc = useTRPC();
  const [q, setQ] = useState("");
  const deferred = useDeferredValue(q.trim());
  const [status, setStatus] = useState<TSubscriptionStatusFilter | "">("");
  const [planId, setPlanId] = useState("");
  const [selected, setSelected] = useState<number | null>(null);
  const [granting, setGranting] = useState(false);
  const plans = useQuery(trpc.subscriptions.plans.list.queryOptions());
  const planOptions = (plans.data?.plans ?? []).map((p) => ({
    value: String(p.id),
    label: `${p.group_name} · ${p.title}`,
  }));
  const list = useInfiniteQuery(
    trpc.subscriberSubscriptions.list.infiniteQueryOptions(
      {
        q: deferred,
        limit: PAGE_SIZE,
        ...(status ? { status } : {}),
        ...(planId ? { planId: Number(planId) } : {}),
      },
      { getNextPageParam: (page) => page.nextCursor ?? undefined },
    ),
  );
  const rows = list.data?.pages.flatMap((page) => page.items) ?? [];
  const filtered = Boolean(deferred || status || planId);

  return (
    <div className="space-y-6">
      <div className="flex flex-wrap justify-end gap-2">
        <Button onClick={() => setGranting((v) => !v)} variant={granting ? "secondary" : "primary"}>
          {granting ? "Close" : "Give a subscription"}
        </Button>
      </div>
      {granting ? (
        <GrantForm
          planOptions={planOptions}
          onDone={(id) => {
            setGranting(false);
            setSelected(id);
          }}
        />
      ) : null}
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-2">
        <Panel
          title="Subscriptions"
          actions={
            <FilterDisclosure active={[deferred, status, planId].filter(Boolean).length}>
              <div className="flex flex-wrap items-center gap-2">
                <SearchInput
                  aria-label="Search subscriptions"
                  placeholder="Subscriber e-mail, name or identity"
                  value={q}
                  onChange={(e) => setQ(e.target.value)}
                  compact
                />
                <StatusFilter
                  value={status}
                  onChange={setStatus}
                  labels={
                    Object.fromEntries(
                      SUBSCRIPTION_STATUS_FILTERS.map((s) => [
                        s,
                        s === "paused" ? "Paused" : subscriptionStatusLabel({ status: s, paused_until: null }).label,
                      ]),
                    ) as Record<TSubscriptionStatusFilter, string>
                  }
                />
                <FilterSelect
                  label="Plan"
                  value={planId}
                  onChange={(e) => setPlanId(e.target.value)}
                  placeholder="All"
                  options={planOptions}
                  className="max-w-40"
                />
              </div>
            </FilterDisclosure>
          }
        >
          <LoadState
            query={list}
            what="subscriptions"
            empty={rows.length === 0}
            emptyText={filtered ? "No subscription matches these filters." : "No subscriptions yet."}
          />
          <SelectableList
            items={rows}
            selected={selected}
            onSelect={setSelected}
            testId="subscription-results"
            row={(s) => ({
              title: `${s.subscriber.name ?? "Unnamed"} · ${s.plan_name}`,
              detail: `${emailOf(s) ?? `Subscriber #${s.subscriber_id}`} · #${s.id}`,
              aside: (
                <span className="flex flex-col items-end gap-1 text-xs text-gray-500">
                  <StatusBadge s={s} />
                  <span>
                    ends <EndOf s={s} />
                  </span>
                </span>
              ),
            })}
          />
          <LoadMore query={list} />
        </Panel>
        {selected ? <SubscriptionDetail id={selected} onClose={() => setSelected(null)} /> : null}
      </div>
    </div>
  );
}

function GrantForm({
  planOptions,
  onDone,
}: {
  planOptions: { value: string; label: string }[];
  onDone: (id: number) => void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [email, setEmail] = useState("");
  const [planId, setPlanId] = useState("");
  const grant = useMutation(
    trpc.subscriberSubscriptions.grant.mutationOptions({
      onSuccess: async (s) => {
        await queryClient.invalidateQueries({ queryKey: trpc.subscriberSubscriptions.list.pathKey() });
        onDone(s.id);
      },
    }),
  );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    grant.mutate({ email: email.trim(), planId: Number(planId) });
  };
  return (
    <Panel title="Give a subscription" padded>
      <form onSubmit={submit} className="grid grid-cols-1 gap-4 sm:grid-cols-2" data-testid="grant-form">
        <p className="text-sm text-gray-600 sm:col-span-2">
          A complimentary subscription (payment type manual, nothing charged) to the reader with this e-mail, who
          becomes a subscriber if not one yet. It starts now and lasts the plan&apos;s duration.
        </p>
        <FormField label="Subscriber e-mail">
          <Input type="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
        </FormField>
        <FormField label="Plan">
          <Select
            required
            value={planId}
            onChange={(e) => setPlanId(e.target.value)}
            placeholder="Choose a plan"
            options={planOptions}
          />
        </FormField>
        <div className="sm:col-span-2">
          <ErrorAlert error={grant.error} className="mb-3" />
          <FormActions>
            <Button type="submit" loading={grant.isPending} loadingText="Giving…">
              Give subscription
            </Button>
          </FormActions>
        </div>
      </form>
    </Panel>
  );
}

export function SubscriptionDetail({ id, onClose }: { id: number; onClose: () => void }) {
  const { formatMoney, formatDay } = useFigureFormats();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const confirm = useConfirm();
  const formatTime = useDateTimeFormat();
  const zone = useTimeZone() ?? "UTC";
  const [message, setMessage] = useState<string | null>(null);
  const [extendTo, setExtendTo] = useState("");
  const detail = useQuery(trpc.subscriberSubscriptions.get.queryOptions({ id }));
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
      onSuccess: async (s) => {
        setMessage(s.end_timestamp ? `Extended to ${formatTime(new Date(s.end_timestamp))}.` : "Extended: no end.");
        setExtendTo("");
        await refresh();
      },
    }),
  );
  const data = detail.data;
  const s = data?.subscription;

  const onCancel = async () => {
    if (!s) return;
    const ok = await confirm({
      title: `Cancel subscription #${s.id}?`,
      body: "The reader keeps access until the end of the period already paid for; it will not renew.",
      confirmLabel: "Cancel subscription",
      dismissLabel: "Keep subscription",
    });
    if (ok) cancel.mutate({ id: s.id });
  };
  const onExtend = async (to: string) => {
    if (!s) return;
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

  return (
    <Panel
      title={s ? `Subscription #${s.id}` : "Subscription"}
      data-testid="subscription-detail"
      actions={
        <Button variant="secondary" size="sm" onClick={onClose}>
          Close
        </Button>
      }
      padded
    >
      <LoadState query={detail} what="subscription" />
      {s && data ? (
        <div className="space-y-5 text-sm">
          {message ? <Alert tone="success">{message}</Alert> : null}
          <ErrorAlert error={cancel.error ?? extend.error} />
          <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-1" data-testid="subscription-facts">
            <dt className="text-gray-600">Subscriber</dt>
            <dd className="min-w-0 [overflow-wrap:anywhere]">
              {s.subscriber.name ?? "Unnamed"} {emailOf(s) ? `· ${emailOf(s)}` : ""} (#{s.subscriber_id})
            </dd>
            <dt className="text-gray-600">Plan</dt>
            <dd className="min-w-0 [overflow-wrap:anywhere]">
              {s.group_name ? `${s.group_name} · ` : ""}
              {s.plan_name} ({periodInWords(s.duration_length, s.duration_unit)}, {s.plan_occurrence})
            </dd>
            <dt className="text-gray-600">Price</dt>
            <dd>
              {formatMoney(s.plan_amount_cents, s.plan_amount_currency)}; paid{" "}
              {formatMoney(s.payment_amount_cents, s.payment_amount_currency)} ({s.payment_type})
            </dd>
            <dt className="text-gray-600">Status</dt>
            <dd data-testid="subscription-status">
              <StatusBadge s={s} />
            </dd>
            <dt className="text-gray-600">Period</dt>
            <dd>
              <DateTime value={new Date(s.start_timestamp)} /> → <EndOf s={s} />
            </dd>
            {s.cancelled_at ? (
              <>
                <dt className="text-gray-600">Cancelled</dt>
                <dd>
                  <DateTime value={new Date(s.cancelled_at)} />
                </dd>
              </>
            ) : null}
            <dt className="text-gray-600">Metadata</dt>
            <dd className="min-w-0">
              {Object.keys((s.metadata as object | null) ?? {}).length ? (
                <Code>{JSON.stringify(s.metadata)}</Code>
              ) : (
                "—"
              )}
            </dd>
          </dl>

          <section>
            <h3 className="mb-2 font-medium text-gray-900">Actions</h3>
            <div className="flex flex-wrap items-end gap-3">
              <Button
                variant="danger"
                onClick={() => void onCancel()}
                disabled={s.status === "cancelled" || s.status === "failed"}
                loading={cancel.isPending}
                loadingText="Cancelling…"
              >
                Cancel subscription
              </Button>
              <PauseForm
                s={s}
                onPaused={async (until) => {
                  setMessage(
                    `Paused: no payment and no access until ${formatTime(new Date(until))}, then it resumes and renews.`,
                  );
                  await refresh();
                }}
              />
              {!s.recurring && s.status !== "cancelled" && s.status !== "failed" ? (
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
              ) : (
                <p className="text-gray-600">
                  {s.recurring ? "Recurring: its payments set the end." : "Cancelled or failed: not extendable."}
                </p>
              )}
            </div>
          </section>

          <section>
            <h3 className="mb-2 font-medium text-gray-900">Payments</h3>
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
          </section>

          <section>
            <h3 className="mb-2 font-medium text-gray-900">Timeline</h3>
            <ol className="space-y-1" data-testid="subscription-timeline">
              {data.timeline.map((entry, i) => (
                <li key={i} className="flex flex-wrap gap-2">
                  <DateTime value={new Date(entry.at)} />
                  <span className="font-medium">{entry.action.replace("subscription.", "")}</span>
                  <span className="text-gray-600">by {entry.by}</span>
                  {entry.action === "subscription.extend" ? (
                    <span className="text-gray-600">
                      to{" "}
                      {typeof entry.detail.to === "string" ? <DateTime value={new Date(entry.detail.to)} /> : "no end"}
                    </span>
                  ) : null}
                </li>
              ))}
            </ol>
          </section>
        </div>
      ) : null}
    </Panel>
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
    <section>
      <h3 className="mb-2 font-medium text-gray-900">Subscriptions</h3>
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
    </section>
  );
}
