"use client";

/** Paywall offers (offers.list / create / update / archive; REVENUE staff): the list by priority and the form. */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";

import { useTRPC } from "@/components/trpc/react";
import { Alert, Badge, Button, ErrorAlert, LoadState, Panel, Table } from "@/components/ui";
import type { TOfferView } from "@/server/subscriptions/offers/offers.schema";

import { OfferForm } from "./offer-form";

function segmentText(o: TOfferView): string {
  const parts = [
    o.segment.audiences.length ? o.segment.audiences.join(" or ") : null,
    o.segment.newsletter === null ? null : o.segment.newsletter ? "from a newsletter" : "not from a newsletter",
    o.segment.countries.length ? o.segment.countries.join(", ") : null,
    o.segment.devices.length ? o.segment.devices.join(" or ") : null,
  ].filter(Boolean);
  return parts.length ? parts.join("; ") : "everyone";
}

export function OffersManager() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const offers = useQuery(trpc.offers.list.queryOptions());
  const plans = useQuery(trpc.subscriptions.plans.list.queryOptions());
  const [editing, setEditing] = useState<TOfferView | "new" | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const done = async (name: string) => {
    setEditing(null);
    setSaved(name);
    await queryClient.invalidateQueries({ queryKey: trpc.offers.pathKey() });
  };
  const create = useMutation(trpc.offers.create.mutationOptions({ onSuccess: (o) => done(o.name) }));
  const update = useMutation(trpc.offers.update.mutationOptions({ onSuccess: (o) => done(o.name) }));
  const archive = useMutation(trpc.offers.archive.mutationOptions({ onSuccess: () => done("Archived") }));
  const planList = plans.data?.plans ?? [];
  const planTitle = new Map(planList.map((p) => [p.id, p.title]));

  if (editing)
    return (
      <OfferForm
        offer={editing === "new" ? null : editing}
        plans={planList}
        pending={create.isPending || update.isPending}
        error={editing === "new" ? create.error : update.error}
        onCancel={() => setEditing(null)}
        onSave={(values) =>
          editing === "new" ? create.mutate(values) : update.mutate({ id: editing.id, offer: values })
        }
      />
    );
  return (
    <div className="space-y-4">
      <LoadState query={offers} what="offers" />
      {saved ? <Alert tone="success">Saved: {saved}.</Alert> : null}
      <ErrorAlert error={archive.error} />
      <Panel
        title="Offers"
        actions={
          <Button variant="primary" onClick={() => setEditing("new")}>
            New offer
          </Button>
        }
      >
        <Table
          label="Offers"
          rows={offers.data ?? []}
          rowKey={(o) => o.id}
          rowProps={(o) => ({ "data-testid": `offer-${o.id}` })}
          columns={[
            { header: "Priority", cell: (o) => o.priority },
            {
              header: "Offer",
              cell: (o) => (
                <span>
                  {o.name} {o.isDefault ? <Badge tone="blue">default</Badge> : null}{" "}
                  {!o.enabled ? <Badge tone="gray">off</Badge> : null}
                </span>
              ),
            },
            { header: "Plans", cell: (o) => o.planIds.map((id) => planTitle.get(id) ?? id).join(", ") },
            {
              header: "Coupon / trial",
              cell: (o) =>
                [o.couponCode, o.trialDays ? `${o.trialDays}-day trial` : null].filter(Boolean).join(", ") || "–",
            },
            { header: "Who", cell: segmentText },
            {
              header: "Actions",
              hideHeader: true,
              cell: (o) => (
                <span className="flex gap-2">
                  <Button size="sm" onClick={() => setEditing(o)}>
                    Edit <span className="sr-only">{o.name}</span>
                  </Button>
                  <Button size="sm" onClick={() => archive.mutate({ id: o.id })}>
                    Archive <span className="sr-only">{o.name}</span>
                  </Button>
                </span>
              ),
            },
          ]}
        />
      </Panel>
    </div>
  );
}
