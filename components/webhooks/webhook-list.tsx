"use client";
/** The account's webhooks and the form to add one (the new secret is shown once). */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";

import { useTRPC } from "@/components/trpc/react";

import { WebhookForm } from "./webhook-form";
import { EndpointStatus, SecretOnce, StatusBadge, buttonClass } from "./ui";

export function WebhookList() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const list = useQuery(trpc.webhooks.list.queryOptions());
  const [adding, setAdding] = useState(false);
  const [created, setCreated] = useState<{ id: string; secret: string | null } | null>(null);
  const create = useMutation(
    trpc.webhooks.create.mutationOptions({
      onSuccess: async (result) => {
        setAdding(false);
        setCreated({ id: result.endpoint.id, secret: result.secret });
        await queryClient.invalidateQueries({ queryKey: trpc.webhooks.list.queryKey() });
      },
    }),
  );

  return (
    <div className="space-y-6">
      {created?.secret ? <SecretOnce secret={created.secret} onDone={() => setCreated(null)} /> : null}

      <section className="rounded-lg border border-gray-200 bg-white shadow-sm" aria-labelledby="webhooks-title">
        <div className="flex items-center justify-between border-b border-gray-200 px-4 py-3">
          <h2 id="webhooks-title" className="text-sm font-semibold text-gray-900">
            Endpoints
          </h2>
          {!adding ? (
            <button type="button" className={buttonClass} onClick={() => setAdding(true)}>
              Add webhook
            </button>
          ) : null}
        </div>
        {adding ? (
          <div className="border-b border-gray-200 bg-gray-50 px-4 py-4">
            <h3 className="mb-3 text-sm font-semibold text-gray-900">New webhook</h3>
            <WebhookForm
              submitLabel="Add webhook"
              pending={create.isPending}
              error={create.error}
              onSubmit={(values) => create.mutate(values)}
              onCancel={() => {
                create.reset();
                setAdding(false);
              }}
            />
          </div>
        ) : null}
        {list.isPending ? (
          <p className="px-4 py-10 text-center text-sm text-gray-500" role="status">
            Loading webhooks…
          </p>
        ) : list.isError ? (
          <p className="px-4 py-10 text-center text-sm text-red-700" role="alert">
            The webhooks could not be loaded: {list.error.message}
          </p>
        ) : list.data.length === 0 ? (
          <p className="px-4 py-10 text-center text-sm text-gray-500">No webhooks yet. Add one to receive story, collection or subscription events.</p>
        ) : (
          <ul className="divide-y divide-gray-100">
            {list.data.map((endpoint) => (
              <li key={endpoint.id} className="flex flex-col gap-2 px-4 py-3 sm:flex-row sm:items-center sm:justify-between">
                <div className="min-w-0">
                  <Link href={`/admin/webhooks/${endpoint.id}`} className="block truncate font-mono text-sm font-medium text-brand-700 hover:underline">
                    {endpoint.url}
                  </Link>
                  <p className="mt-0.5 text-xs text-gray-500">
                    {endpoint.kind === "CONTENT" ? "Content workflow" : "Subscriptions"} · {endpoint.events.length} event{endpoint.events.length === 1 ? "" : "s"}
                    {endpoint.description ? ` · ${endpoint.description}` : ""}
                  </p>
                </div>
                <div className="flex shrink-0 flex-wrap items-center gap-2 text-xs">
                  <EndpointStatus active={endpoint.active} disabledReason={endpoint.disabledReason} />
                  <StatusBadge tone="green">{endpoint.deliveryCounts.SUCCEEDED} delivered</StatusBadge>
                  {endpoint.deliveryCounts.PENDING ? <StatusBadge tone="blue">{endpoint.deliveryCounts.PENDING} pending</StatusBadge> : null}
                  {endpoint.deliveryCounts.FAILED ? <StatusBadge tone="red">{endpoint.deliveryCounts.FAILED} failed</StatusBadge> : null}
                </div>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
