"use client";

/**
 * One webhook: edit it, disable or re-enable it, rotate its secret, send a test event, delete it,
 * see the exact request of a chosen event with its signatures (test-delivery-panel.tsx), and read
 * its delivery log (every attempt; tests carry a "Test" badge), with "Redeliver" on completed
 * deliveries. A webhook pointed at the built-in test receiver shows what the receiver got, too.
 */
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useEffect, useState } from "react";

import { useTRPC } from "@/components/trpc/react";
import {
  Alert,
  Badge,
  Button,
  Code,
  CodeBlock,
  DateTime,
  ErrorAlert,
  LoadError,
  Loading,
  LoadMore,
  LoadState,
  Panel,
  StatusFilter,
  useConfirm,
} from "@/components/ui";
import { WEBHOOK_KIND_LABELS } from "@/server/webhooks/events.schema";

import { EndpointStatus } from "./endpoint-status";
import { SecretOnce } from "./secret-once";
import { TestDeliveryPanel } from "./test-delivery-panel";
import { TestReceiverReceipts } from "./test-receiver-panel";
import { WebhookForm } from "./webhook-form";

type DeliveryStatus = "PENDING" | "SUCCEEDED" | "FAILED";
const DELIVERY_STATUS_LABEL: Record<DeliveryStatus, string> = {
  PENDING: "Pending",
  SUCCEEDED: "Succeeded",
  FAILED: "Failed",
};

export function WebhookDetail({ id }: { id: string }) {
  const trpc = useTRPC();
  const router = useRouter();
  const queryClient = useQueryClient();
  const confirm = useConfirm();
  const endpoint = useQuery(trpc.webhooks.get.queryOptions({ id }));
  const [secret, setSecret] = useState<string | null>(null);
  const [editing, setEditing] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);

  const refresh = async () => {
    await queryClient.invalidateQueries({ queryKey: trpc.webhooks.get.queryKey({ id }) });
    await queryClient.invalidateQueries({ queryKey: trpc.webhooks.deliveries.pathKey() });
  };
  const update = useMutation(
    trpc.webhooks.update.mutationOptions({
      onSuccess: async () => {
        setEditing(false);
        await refresh();
      },
    }),
  );
  const setActive = useMutation(trpc.webhooks.setActive.mutationOptions({ onSuccess: refresh }));
  const rotate = useMutation(trpc.webhooks.rotateSecret.mutationOptions({ onSuccess: (r) => setSecret(r.secret) }));
  const sendTest = useMutation(
    trpc.webhooks.sendTest.mutationOptions({
      onSuccess: async () => {
        setNotice("Test event queued. It appears in the log below.");
        await refresh();
      },
    }),
  );
  const remove = useMutation(trpc.webhooks.delete.mutationOptions({ onSuccess: () => router.push("/admin/webhooks") }));

  if (endpoint.isPending) return <Loading what="webhook" className="text-sm text-gray-500" />;
  if (endpoint.isError)
    return <LoadError what="webhook" error={endpoint.error} onRetry={endpoint.refetch} className="text-sm" />;
  const ep = endpoint.data;

  return (
    <div className="space-y-6">
      {secret ? <SecretOnce secret={secret} onDone={() => setSecret(null)} /> : null}
      <Panel title="Endpoint" padded actions={<EndpointStatus active={ep.active} disabledReason={ep.disabledReason} />}>
        <div className="min-w-0">
          <p className="font-mono text-sm font-medium break-all text-gray-900" data-testid="webhook-url">
            {ep.url}
          </p>
          <p className="mt-1 text-xs text-gray-500">
            {WEBHOOK_KIND_LABELS[ep.kind]} · {ep.hasSecret ? "signed" : "unsigned (empty X-Qt-Signature)"}
            {ep.description ? ` · ${ep.description}` : ""}
          </p>
          <div className="mt-2 flex flex-wrap gap-1">
            {ep.events.map((e) => (
              <Code key={e}>{e}</Code>
            ))}
          </div>
          {ep.failingSince ? (
            <p className="mt-2 text-xs text-red-700">
              Failing since <DateTime value={ep.failingSince} />.
            </p>
          ) : null}
        </div>
        <div className="flex flex-wrap gap-2">
          <Button
            loading={sendTest.isPending}
            loadingText="Sending…"
            disabled={!ep.active}
            title={ep.active ? undefined : "Re-enable the webhook to send to it."}
            onClick={() => sendTest.mutate({ id })}
          >
            Send test event
          </Button>
          <Button onClick={() => setEditing(!editing)}>{editing ? "Cancel editing" : "Edit"}</Button>
          <Button loading={setActive.isPending} onClick={() => setActive.mutate({ id, active: !ep.active })}>
            {ep.active ? "Disable" : "Re-enable"}
          </Button>
          <Button
            loading={rotate.isPending}
            onClick={async () => {
              const ok = await confirm({
                title: ep.hasSecret ? "Rotate the signing secret?" : "Add a signing secret?",
                body: "The current secret keeps signing webhook-signature for 24 hours; X-Qt-Signature switches now.",
                confirmLabel: ep.hasSecret ? "Rotate secret" : "Add a secret",
                tone: "primary",
              });
              if (ok) rotate.mutate({ id });
            }}
          >
            {ep.hasSecret ? "Rotate secret" : "Add a secret"}
          </Button>
          <Button
            variant="danger"
            loading={remove.isPending}
            onClick={async () => {
              const ok = await confirm({
                title: "Delete this webhook?",
                body: "Its delivery log is deleted with it. Receivers get nothing more.",
                confirmLabel: "Delete",
              });
              if (ok) remove.mutate({ id });
            }}
          >
            Delete
          </Button>
        </div>
        {!ep.active ? (
          <p className="text-xs text-gray-600">Disabled: nothing is sent to it, not even a test event.</p>
        ) : null}
        {notice ? <Alert tone="success">{notice}</Alert> : null}
        {[sendTest.error, setActive.error, rotate.error, remove.error].filter(Boolean).map((error, i) => (
          <ErrorAlert key={i} error={error} />
        ))}
        {editing ? (
          <div className="border-t border-gray-200 pt-4">
            <WebhookForm
              editing
              initial={{ kind: ep.kind, url: ep.url, description: ep.description, events: ep.events }}
              submitLabel="Save changes"
              pending={update.isPending}
              error={update.error}
              onSubmit={(values) =>
                update.mutate({ id, url: values.url, description: values.description, events: values.events })
              }
              onCancel={() => setEditing(false)}
            />
          </div>
        ) : null}
      </Panel>
      <TestDeliveryPanel id={id} kind={ep.kind} subscribed={ep.events} active={ep.active} />
      <DeliveryLog endpointId={id} active={ep.active} />
      <TestReceiverReceipts url={ep.url} />
    </div>
  );
}

function DeliveryLog({ endpointId, active }: { endpointId: string; active: boolean }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<DeliveryStatus | "">("");
  const log = useInfiniteQuery(
    trpc.webhooks.deliveries.infiniteQueryOptions(
      { endpointId, limit: 25, status: status || undefined },
      {
        getNextPageParam: (page) => page.nextCursor,
        // Keep watching while something is still being attempted.
        refetchInterval: (query) =>
          query.state.data?.pages.some((p) => p.deliveries.some((d) => d.status === "PENDING")) ? 2000 : false,
      },
    ),
  );
  const redeliver = useMutation(
    trpc.webhooks.redeliver.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.webhooks.deliveries.pathKey() }),
    }),
  );
  const deliveries = log.data?.pages.flatMap((p) => p.deliveries) ?? [];
  // The endpoint's own state ("Failing since…") follows from its deliveries: when one of them
  // changes (an attempt succeeded or failed), read the endpoint again instead of waiting for a reload.
  const outcomes = deliveries.map((d) => `${d.id}:${d.status}:${d.attemptCount}`).join(",");
  useEffect(() => {
    if (outcomes) void queryClient.invalidateQueries({ queryKey: trpc.webhooks.get.queryKey({ id: endpointId }) });
  }, [outcomes, endpointId, queryClient, trpc]);

  return (
    <Panel
      title="Delivery log"
      actions={<StatusFilter value={status} onChange={setStatus} labels={DELIVERY_STATUS_LABEL} />}
    >
      <ErrorAlert error={redeliver.error} className="mx-4 mt-3" />
      <LoadState
        query={log}
        what="log"
        empty={deliveries.length === 0}
        emptyText={
          status ? "No deliveries with this status." : "No deliveries yet. Send a test event to try the endpoint."
        }
      />
      {deliveries.length ? (
        <ul className="divide-y divide-gray-100" data-testid="delivery-log">
          {deliveries.map((d) => (
            <li key={d.id} className="flex items-start gap-3 px-4 py-3" data-testid="delivery" data-status={d.status}>
              {/* The summary holds text only: a button inside it would be an interactive element inside another. */}
              <details className="min-w-0 flex-1">
                <summary className="flex cursor-pointer list-none flex-wrap items-center gap-x-3 gap-y-1 text-sm">
                  <Badge tone={d.status === "SUCCEEDED" ? "green" : d.status === "FAILED" ? "red" : "blue"}>
                    {d.status.toLowerCase()}
                  </Badge>
                  <code className="font-mono text-xs text-gray-800">{d.event.name}</code>
                  <span className="text-xs text-gray-500">event {d.event.id}</span>
                  <DateTime value={d.createdAt} className="text-xs text-gray-500" />
                  <span className="text-xs text-gray-500">
                    {d.attemptCount} attempt{d.attemptCount === 1 ? "" : "s"}
                    {d.lastStatusCode ? ` · HTTP ${d.lastStatusCode}` : d.lastError ? ` · ${d.lastError}` : ""}
                  </span>
                  {d.test ? <Badge tone="gray">Test</Badge> : null}
                  {d.redeliveryOf ? <span className="text-xs text-gray-500">redelivery</span> : null}
                  {d.status === "PENDING" ? (
                    <span className="text-xs text-gray-500">
                      next attempt <DateTime value={d.nextAttemptAt} />
                    </span>
                  ) : null}
                </summary>
                <ol className="mt-3 space-y-2 border-l-2 border-gray-200 pl-4 text-xs">
                  {d.attempts.map((a) => (
                    <li key={a.number}>
                      <p className="text-gray-700">
                        <span className="font-medium">Attempt {a.number}</span> · <DateTime value={a.startedAt} /> ·{" "}
                        {a.durationMs} ms ·{" "}
                        {a.statusCode !== null ? `HTTP ${a.statusCode}` : (a.error ?? "no response")}
                        {a.succeeded ? " · delivered" : ""}
                      </p>
                      {a.responseExcerpt ? (
                        <CodeBlock label={`Response to attempt ${a.number}`} className="mt-1 max-h-32">
                          {a.responseExcerpt}
                        </CodeBlock>
                      ) : null}
                    </li>
                  ))}
                </ol>
                <details className="mt-2 text-xs">
                  <summary className="cursor-pointer text-gray-600">Payload</summary>
                  <CodeBlock label={`Payload of event ${d.event.id}`} className="mt-1 max-h-64">
                    {JSON.stringify(d.event.payload, null, 2)}
                  </CodeBlock>
                </details>
              </details>
              {d.status !== "PENDING" ? (
                <Button
                  className="shrink-0"
                  disabled={redeliver.isPending || !active}
                  onClick={() => redeliver.mutate({ deliveryId: d.id })}
                >
                  Redeliver
                </Button>
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}
      <LoadMore query={log} />
    </Panel>
  );
}
