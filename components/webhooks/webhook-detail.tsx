"use client";
/**
 * One webhook: edit it, disable or re-enable it, rotate its secret, send a test event, delete it,
 * and read its delivery log (every attempt), with "Redeliver" on completed deliveries.
 */
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useId, useState } from "react";

import { useTRPC } from "@/components/trpc/react";

import { WebhookForm } from "./webhook-form";
import { EndpointStatus, ErrorMessage, SecretOnce, StatusBadge, buttonClass, dangerButtonClass, dateTime } from "./ui";

type DeliveryStatus = "PENDING" | "SUCCEEDED" | "FAILED";

export function WebhookDetail({ id }: { id: string }) {
  const trpc = useTRPC();
  const router = useRouter();
  const queryClient = useQueryClient();
  const endpoint = useQuery(trpc.webhooks.get.queryOptions({ id }));
  const [secret, setSecret] = useState<string | null>(null);
  const [editing, setEditing] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);

  const refresh = async () => {
    await queryClient.invalidateQueries({ queryKey: trpc.webhooks.get.queryKey({ id }) });
    await queryClient.invalidateQueries({ queryKey: trpc.webhooks.deliveries.pathKey() });
  };
  const update = useMutation(trpc.webhooks.update.mutationOptions({ onSuccess: async () => { setEditing(false); await refresh(); } }));
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

  if (endpoint.isPending) return <p className="text-sm text-gray-500" role="status">Loading webhook…</p>;
  if (endpoint.isError) return <p className="text-sm text-red-700" role="alert">The webhook could not be loaded: {endpoint.error.message}</p>;
  const ep = endpoint.data;

  return (
    <div className="space-y-6">
      {secret ? <SecretOnce secret={secret} onDone={() => setSecret(null)} /> : null}
      <section className="rounded-lg border border-gray-200 bg-white p-4 shadow-sm" aria-label="Webhook settings">
        <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
          <div className="min-w-0">
            <p className="break-all font-mono text-sm font-medium text-gray-900" data-testid="webhook-url">{ep.url}</p>
            <p className="mt-1 text-xs text-gray-500">
              {ep.kind === "CONTENT" ? "Content workflow" : "Subscriptions"} · {ep.hasSecret ? "signed" : "unsigned (empty X-Qt-Signature)"}
              {ep.description ? ` · ${ep.description}` : ""}
            </p>
            <div className="mt-2 flex flex-wrap gap-1">
              {ep.events.map((e) => (
                <code key={e} className="rounded bg-gray-100 px-1.5 py-0.5 font-mono text-xs text-gray-700">{e}</code>
              ))}
            </div>
            {ep.failingSince ? (
              <p className="mt-2 text-xs text-red-700">Failing since {dateTime.format(ep.failingSince)}.</p>
            ) : null}
          </div>
          <EndpointStatus active={ep.active} disabledReason={ep.disabledReason} />
        </div>
        <div className="mt-4 flex flex-wrap gap-2">
          <button type="button" className={buttonClass} disabled={sendTest.isPending} onClick={() => sendTest.mutate({ id })}>
            {sendTest.isPending ? "Sending…" : "Send test event"}
          </button>
          <button type="button" className={buttonClass} onClick={() => setEditing(!editing)}>
            {editing ? "Cancel editing" : "Edit"}
          </button>
          <button type="button" className={buttonClass} disabled={setActive.isPending} onClick={() => setActive.mutate({ id, active: !ep.active })}>
            {ep.active ? "Disable" : "Re-enable"}
          </button>
          <button
            type="button"
            className={buttonClass}
            disabled={rotate.isPending}
            onClick={() => {
              if (window.confirm("Make a new secret? The current one keeps signing webhook-signature for 24 hours; X-Qt-Signature switches now.")) rotate.mutate({ id });
            }}
          >
            {ep.hasSecret ? "Rotate secret" : "Add a secret"}
          </button>
          <button
            type="button"
            className={dangerButtonClass}
            disabled={remove.isPending}
            onClick={() => {
              if (window.confirm("Delete this webhook and its delivery log?")) remove.mutate({ id });
            }}
          >
            Delete
          </button>
        </div>
        {notice ? <p className="mt-3 text-sm text-green-800" role="status">{notice}</p> : null}
        {[sendTest.error, setActive.error, rotate.error, remove.error].filter(Boolean).map((error, i) => (
          <div key={i} className="mt-3">
            <ErrorMessage error={error} />
          </div>
        ))}
        {editing ? (
          <div className="mt-4 border-t border-gray-200 pt-4">
            <WebhookForm
              editing
              initial={{ kind: ep.kind, url: ep.url, description: ep.description, events: ep.events }}
              submitLabel="Save changes"
              pending={update.isPending}
              error={update.error}
              onSubmit={(values) => update.mutate({ id, url: values.url, description: values.description, events: values.events })}
              onCancel={() => setEditing(false)}
            />
          </div>
        ) : null}
      </section>
      <DeliveryLog endpointId={id} />
    </div>
  );
}

function DeliveryLog({ endpointId }: { endpointId: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const filterId = useId();
  const [status, setStatus] = useState<DeliveryStatus | "">("");
  const log = useInfiniteQuery(
    trpc.webhooks.deliveries.infiniteQueryOptions(
      { endpointId, limit: 25, status: status || undefined },
      {
        getNextPageParam: (page) => page.nextCursor,
        // Keep watching while something is still being attempted.
        refetchInterval: (query) => (query.state.data?.pages.some((p) => p.deliveries.some((d) => d.status === "PENDING")) ? 2000 : false),
      },
    ),
  );
  const redeliver = useMutation(
    trpc.webhooks.redeliver.mutationOptions({ onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.webhooks.deliveries.pathKey() }) }),
  );
  const deliveries = log.data?.pages.flatMap((p) => p.deliveries) ?? [];

  return (
    <section className="rounded-lg border border-gray-200 bg-white shadow-sm" aria-labelledby={`${filterId}-title`}>
      <div className="flex flex-col gap-3 border-b border-gray-200 px-4 py-3 sm:flex-row sm:items-center sm:justify-between">
        <h2 id={`${filterId}-title`} className="text-sm font-semibold text-gray-900">Delivery log</h2>
        <div className="flex items-center gap-2">
          <label htmlFor={filterId} className="text-sm text-gray-700">Status</label>
          <select
            id={filterId}
            value={status}
            onChange={(event) => setStatus(event.target.value as DeliveryStatus | "")}
            className="rounded-md border border-gray-300 bg-white py-1.5 pl-2 pr-8 text-sm focus:border-brand-600 focus:outline-none focus:ring-2 focus:ring-brand-600/30"
          >
            <option value="">All</option>
            <option value="PENDING">Pending</option>
            <option value="SUCCEEDED">Succeeded</option>
            <option value="FAILED">Failed</option>
          </select>
        </div>
      </div>
      <ErrorMessage error={redeliver.error} />
      {log.isPending ? (
        <p className="px-4 py-10 text-center text-sm text-gray-500" role="status">Loading deliveries…</p>
      ) : log.isError ? (
        <p className="px-4 py-10 text-center text-sm text-red-700" role="alert">The log could not be loaded: {log.error.message}</p>
      ) : deliveries.length === 0 ? (
        <p className="px-4 py-10 text-center text-sm text-gray-500">{status ? "No deliveries with this status." : "No deliveries yet. Send a test event to try the endpoint."}</p>
      ) : (
        <ul className="divide-y divide-gray-100" data-testid="delivery-log">
          {deliveries.map((d) => (
            <li key={d.id} className="px-4 py-3" data-testid="delivery" data-status={d.status}>
              <details>
                <summary className="flex cursor-pointer list-none flex-wrap items-center gap-x-3 gap-y-1 text-sm">
                  <StatusBadge tone={d.status === "SUCCEEDED" ? "green" : d.status === "FAILED" ? "red" : "blue"}>{d.status.toLowerCase()}</StatusBadge>
                  <code className="font-mono text-xs text-gray-800">{d.event.name}</code>
                  <span className="text-xs text-gray-500">event {d.event.id}</span>
                  <time className="text-xs text-gray-500" dateTime={d.createdAt.toISOString()}>{dateTime.format(d.createdAt)}</time>
                  <span className="text-xs text-gray-500">
                    {d.attemptCount} attempt{d.attemptCount === 1 ? "" : "s"}
                    {d.lastStatusCode ? ` · HTTP ${d.lastStatusCode}` : d.lastError ? ` · ${d.lastError}` : ""}
                  </span>
                  {d.redeliveryOf ? <span className="text-xs text-gray-500">redelivery</span> : null}
                  {d.status !== "PENDING" ? (
                    <button
                      type="button"
                      className={`${buttonClass} ml-auto`}
                      disabled={redeliver.isPending}
                      onClick={(event) => {
                        event.preventDefault();
                        redeliver.mutate({ deliveryId: d.id });
                      }}
                    >
                      Redeliver
                    </button>
                  ) : (
                    <span className="ml-auto text-xs text-gray-500">next attempt {dateTime.format(d.nextAttemptAt)}</span>
                  )}
                </summary>
                <ol className="mt-3 space-y-2 border-l-2 border-gray-200 pl-4 text-xs">
                  {d.attempts.map((a) => (
                    <li key={a.number}>
                      <p className="text-gray-700">
                        <span className="font-medium">Attempt {a.number}</span> · {dateTime.format(a.startedAt)} · {a.durationMs} ms ·{" "}
                        {a.statusCode !== null ? `HTTP ${a.statusCode}` : (a.error ?? "no response")}
                        {a.succeeded ? " · delivered" : ""}
                      </p>
                      {a.responseExcerpt ? <pre className="mt-1 max-h-32 overflow-auto rounded bg-gray-50 p-2 font-mono text-[11px] text-gray-700">{a.responseExcerpt}</pre> : null}
                    </li>
                  ))}
                </ol>
                <details className="mt-2 text-xs">
                  <summary className="cursor-pointer text-gray-600">Payload</summary>
                  <pre className="mt-1 max-h-64 overflow-auto rounded bg-gray-50 p-2 font-mono text-[11px] text-gray-700">{JSON.stringify(d.event.payload, null, 2)}</pre>
                </details>
              </details>
            </li>
          ))}
        </ul>
      )}
      {log.hasNextPage ? (
        <div className="border-t border-gray-200 px-4 py-3 text-center">
          <button type="button" className={buttonClass} onClick={() => void log.fetchNextPage()} disabled={log.isFetchingNextPage}>
            {log.isFetchingNextPage ? "Loading…" : "Load more"}
          </button>
        </div>
      ) : null}
    </section>
  );
}
