"use client";

/**
 * Revenue staff's view of subscribers (tRPC subscribers.search/get): paying subscribers, or every
 * member, each with their e-mail and where they stand; one search box finds a reader by any
 * identity (e-mail, phone, `provider:identity`, member id, a subscription's external id, name);
 * open one for their identities, subscriptions (cancel, extend), payments (refund) and the
 * subscription webhooks sent about them.
 */
import { useQuery } from "@tanstack/react-query";
import { useDeferredValue, useState } from "react";

import { EraseReader } from "@/components/privacy/erase-reader";
import { useTRPC } from "@/components/trpc/react";
import {
  Badge,
  Code,
  DateTime,
  DetailFacts,
  DetailPanel,
  DetailSection,
  FilterDisclosure,
  LoadState,
  Panel,
  RadioChoices,
  SearchInput,
  SelectableList,
  type BadgeTone,
} from "@/components/ui";
import type {
  TSearchSubscribersInput,
  TSubscriberStanding,
} from "@/server/subscriptions/subscribers/subscribers.schema";

import { ConsentHistory } from "./consent-history";
import { ExportLink } from "./export-link";
import { SubscriberActivity } from "./subscriber-activity";
import { SubscriberDataExport } from "./subscriber-data-export";
import { subscriberDetail } from "./subscriber-detail";
import { SubscriberSubscriptions, SubscriptionDetail } from "./subscription-detail";

/** Each standing as the list says it (subscriber-standing.ts). */
const STANDINGS: Record<TSubscriberStanding, { label: string; tone: BadgeTone }> = {
  active: { label: "Active", tone: "green" },
  grace: { label: "In grace", tone: "amber" },
  trial: { label: "Trial", tone: "blue" },
  paused: { label: "Paused", tone: "blue" },
  cancelling: { label: "Cancelling", tone: "amber" },
  lapsed: { label: "Lapsed", tone: "gray" },
  none: { label: "Never subscribed", tone: "gray" },
};

const WHO = [
  { value: "paying", label: "Paying subscribers" },
  { value: "all", label: "All members" },
] as const;

export function SubscribersBrowser() {
  const trpc = useTRPC();
  const [q, setQ] = useState("");
  const [who, setWho] = useState<TSearchSubscribersInput["who"]>("paying");
  const deferred = useDeferredValue(q);
  const [selected, setSelected] = useState<number | null>(null);
  const results = useQuery(trpc.subscribers.search.queryOptions({ q: deferred, limit: 25, who }));
  const rows = results.data ?? [];

  return (
    <div className="grid gap-6 lg:grid-cols-2">
      <Panel title="Subscribers">
        <FilterDisclosure className="mb-3" active={[q.trim() !== "", who !== "paying"].filter(Boolean).length}>
          <div className="flex flex-wrap items-center gap-3">
            <SearchInput
              aria-label="Search subscribers"
              placeholder="E-mail, phone, name, member id…"
              value={q}
              onChange={(e) => setQ(e.target.value)}
              compact
            />
            <fieldset>
              <legend className="sr-only">Who to list</legend>
              <RadioChoices name="who" value={who} options={WHO} onChange={setWho} />
            </fieldset>
          </div>
        </FilterDisclosure>
        <p className="mb-3">
          <ExportLink
            kind="subscribers"
            query={`?who=${who}`}
            label={who === "paying" ? "Download paying subscribers (CSV)" : "Download all members (CSV)"}
          />
        </p>
        <LoadState
          query={results}
          what="subscribers"
          empty={rows.length === 0}
          emptyText={
            deferred
              ? `No ${who === "paying" ? "subscriber" : "member"} matches “${deferred}”.`
              : who === "paying"
                ? "No paying subscribers yet."
                : "No members yet."
          }
        />
        <SelectableList
          items={rows}
          selected={selected}
          onSelect={setSelected}
          testId="subscriber-results"
          row={(s) => ({
            title: s.name ?? "Unnamed",
            detail: subscriberDetail(s),
            aside: (
              <span className="flex flex-col items-end gap-1">
                <Badge tone={STANDINGS[s.standing].tone}>{STANDINGS[s.standing].label}</Badge>
                <DateTime value={new Date(s.created_at)} className="text-xs text-gray-500" />
              </span>
            ),
          })}
        />
      </Panel>
      {selected ? <SubscriberDetail key={selected} id={selected} onClose={() => setSelected(null)} /> : null}
    </div>
  );
}

function SubscriberDetail({ id, onClose }: { id: number; onClose: () => void }) {
  const trpc = useTRPC();
  const subscriber = useQuery(trpc.subscribers.get.queryOptions({ id }));
  const [openSubscription, setOpenSubscription] = useState<number | null>(null);
  const name = subscriber.data ? (subscriber.data.name ?? "Unnamed subscriber") : "Subscriber";
  return (
    <DetailPanel title={name} testId="subscriber-detail" onClose={onClose} query={subscriber} what="subscriber">
      {(s) => (
        <>
          <p className="text-gray-600">
            Subscriber #{s.id} · since <DateTime value={new Date(s.created_at)} />
          </p>
          <DetailSection title="Identities">
            {s.subscriber_identities.length ? (
              <ul className="space-y-1" data-testid="subscriber-identities">
                {s.subscriber_identities.map((i) => (
                  <li key={`${i.provider}/${i.value}`} className="flex flex-wrap items-center gap-2">
                    <Badge tone="gray">{i.provider}</Badge>
                    <span className="break-all">{i.value}</span>
                  </li>
                ))}
              </ul>
            ) : (
              <p className="text-gray-600">No identities.</p>
            )}
          </DetailSection>
          <DetailSection title="Metadata">
            {s.metadata ? (
              <DetailFacts
                testId="subscriber-metadata"
                facts={[
                  {
                    label: "Address",
                    value: s.metadata.address ? Object.values(s.metadata.address).join(", ") : "—",
                  },
                  { label: "Phone", value: s.metadata.phone_number ?? "—" },
                  { label: "Other", value: s.metadata.other ? <Code>{JSON.stringify(s.metadata.other)}</Code> : "—" },
                ]}
              />
            ) : (
              <p className="text-gray-600">No metadata set.</p>
            )}
          </DetailSection>
          <SubscriberSubscriptions memberId={s.id} onOpen={setOpenSubscription} />
          {openSubscription ? (
            <SubscriptionDetail
              key={openSubscription}
              id={openSubscription}
              onClose={() => setOpenSubscription(null)}
            />
          ) : null}
          <SubscriberActivity memberId={s.id} />
          <ConsentHistory memberId={s.id} />
          <SubscriberDataExport memberId={s.id} />
          <EraseReader memberId={s.id} />
        </>
      )}
    </DetailPanel>
  );
}
