"use client";

/**
 * The account's webhooks and the form to add one (the new secret is shown once), and the built-in
 * test receiver ("Use the test receiver" opens the form with its URL).
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";

import { useTRPC } from "@/components/trpc/react";
import { Badge, ListPanel, TextLink, useAddForm } from "@/components/ui";
import { WEBHOOK_KIND_LABELS } from "@/server/webhooks/events.schema";

import { EndpointStatus } from "./endpoint-status";
import { SecretOnce } from "./secret-once";
import { TestReceiverPanel } from "./test-receiver-panel";
import { WebhookForm } from "./webhook-form";

export function WebhookList() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const list = useQuery(trpc.webhooks.list.queryOptions());
  /** The URL the form opens with ("Use the test receiver"); a new one opens a fresh form. */
  const [initialUrl, setInitialUrl] = useState<string | null>(null);
  const adding = useAddForm({ onClose: () => setInitialUrl(null) });
  const [created, setCreated] = useState<{ id: string; secret: string | null } | null>(null);
  const create = useMutation(
    trpc.webhooks.create.mutationOptions({
      onSuccess: async (result) => {
        adding.close();
        setCreated({ id: result.endpoint.id, secret: result.secret });
        await queryClient.invalidateQueries({ queryKey: trpc.webhooks.list.queryKey() });
      },
    }),
  );

  return (
    <div className="space-y-6">
      {created?.secret ? <SecretOnce secret={created.secret} onDone={() => setCreated(null)} /> : null}

      <ListPanel
        title="Endpoints"
        titleId="webhooks-title"
        add={{
          label: "Add webhook",
          formTitle: "New webhook",
          open: adding.open,
          onOpen: () => {
            setInitialUrl(null);
            adding.show();
          },
          form: (
            <WebhookForm
              key={initialUrl ?? ""}
              initial={initialUrl ? { url: initialUrl, description: "Masthead's test receiver" } : undefined}
              submitLabel="Add webhook"
              {...adding.formProps(create)}
            />
          ),
        }}
        query={list}
        what="webhooks"
        emptyText="No webhooks yet. Add one to receive story, collection or subscription events."
      >
        {(endpoints) => (
          <ul className="divide-y divide-gray-100">
            {endpoints.map((endpoint) => (
              <li
                key={endpoint.id}
                className="flex flex-col gap-2 px-4 py-3 sm:flex-row sm:items-center sm:justify-between"
              >
                <div className="min-w-0">
                  <TextLink href={`/admin/webhooks/${endpoint.id}`} className="block truncate font-mono text-sm">
                    {endpoint.url}
                  </TextLink>
                  <p className="mt-0.5 text-xs text-gray-500">
                    {WEBHOOK_KIND_LABELS[endpoint.kind]} · {endpoint.events.length} event
                    {endpoint.events.length === 1 ? "" : "s"}
                    {endpoint.description ? ` · ${endpoint.description}` : ""}
                  </p>
                </div>
                <div className="flex shrink-0 flex-wrap items-center gap-2 text-xs">
                  <EndpointStatus active={endpoint.active} disabledReason={endpoint.disabledReason} />
                  <Badge tone="green">{endpoint.deliveryCounts.SUCCEEDED} delivered</Badge>
                  {endpoint.deliveryCounts.PENDING ? (
                    <Badge tone="blue">{endpoint.deliveryCounts.PENDING} pending</Badge>
                  ) : null}
                  {endpoint.deliveryCounts.FAILED ? (
                    <Badge tone="red">{endpoint.deliveryCounts.FAILED} failed</Badge>
                  ) : null}
                </div>
              </li>
            ))}
          </ul>
        )}
      </ListPanel>

      <TestReceiverPanel
        onUse={(url) => {
          create.reset();
          setInitialUrl(url);
          adding.show();
          // The form opens above: take the keyboard there, to its first field (the URL is filled in).
          requestAnimationFrame(() => {
            const section = document.getElementById("webhooks-title")?.closest("section");
            section?.scrollIntoView({ block: "start" });
            section?.querySelector<HTMLElement>("input")?.focus();
          });
        }}
      />
    </div>
  );
}
