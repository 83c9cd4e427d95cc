"use client";

/**
 * Revenue staff's view of the account's subscriptions (tRPC subscriberSubscriptions.*): search by
 * subscriber, filter by status and plan, newest first a page at a time; open one to see the
 * subscriber, the plan copy, payments and timeline, and cancel or extend it (confirmed, audited);
 * give a complimentary subscription.
 */
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useDeferredValue, useState, type FormEvent } from "react";

import { useTRPC } from "@/components/trpc/react";
import {
  Button,
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
} from "@/components/ui";
import {
  SUBSCRIPTION_STATUS_FILTERS,
  type TSubscriptionStatusFilter,
} from "@/server/subscriptions/subscribers/subscription-actions.schema";
import { subscriptionStatusLabel } from "@/server/subscriptions/subscribers/subscription-status.schema";

import { emailOf, EndOf, StatusBadge, SubscriptionDetail } from "./subscription-detail";

const PAGE_SIZE = 25;

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
