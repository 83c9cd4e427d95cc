"use client";

/**
 * The account's built-in test receiver (server/webhooks/test-receiver.ts): its URL with "Copy" and
 * "Use the test receiver" (the new-webhook form, filled in with it), and what it received, newest
 * first: whether the signature verified and why, the answer it gave, the headers and the body.
 * `TestReceiverReceipts` alone shows on a webhook's page when that webhook points at the receiver.
 */
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";

import { useTRPC } from "@/components/trpc/react";
import { Badge, Button, CodeBlock, DateTime, LoadError, Loading, Panel } from "@/components/ui";
import { TEST_RECEIVER_PATH, type TTestReceiverView } from "@/server/webhooks/test-delivery.schema";

/** How often the list is read again while it is on screen. */
const REFRESH_MS = 5000;

/** The receiver and what it kept, read again every few seconds while the page is shown; `enabled` false: not read. */
function useTestReceiver(enabled = true) {
  const trpc = useTRPC();
  return useQuery(trpc.webhooks.testReceiver.queryOptions(undefined, { refetchInterval: REFRESH_MS, enabled }));
}

function CopyButton({ value }: { value: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <Button
      onClick={() => {
        void navigator.clipboard?.writeText(value).then(() => setCopied(true));
      }}
    >
      {copied ? "Copied" : "Copy URL"}
    </Button>
  );
}

function ReceiptList({ receipts }: { receipts: TTestReceiverView["receipts"] }) {
  if (!receipts.length) {
    return (
      <p className="px-4 py-3 text-sm text-gray-600">
        Nothing received yet. Point a webhook at the URL above and send it a test event.
      </p>
    );
  }
  return (
    <ul className="divide-y divide-gray-100" data-testid="test-receipts">
      {receipts.map((r) => {
        const event = r.headers.find((h) => h.name === "x-masthead-event")?.value;
        return (
          <li key={r.id} className="px-4 py-3" data-testid="test-receipt" data-valid={r.signatureValid}>
            <details className="min-w-0">
              <summary className="flex cursor-pointer list-none flex-wrap items-center gap-x-3 gap-y-1 text-sm">
                <Badge tone={r.signatureValid ? "green" : "red"}>
                  {r.signatureValid ? "Signature valid" : "Signature invalid"}
                </Badge>
                <code className="font-mono text-xs text-gray-800">{event ?? "(no X-Masthead-Event)"}</code>
                <DateTime value={r.receivedAt} className="text-xs text-gray-600" />
                <span className="text-xs text-gray-600">
                  answered {r.statusCode} · {r.bodyBytes} bytes{r.bodyTruncated ? " (shown cut)" : ""}
                </span>
              </summary>
              <div className="mt-3 space-y-2 text-xs">
                <p className="text-gray-700">{r.signatureNote}</p>
                <CodeBlock label="Headers received" className="max-h-40 break-all whitespace-pre-wrap">
                  {r.headers.map((h) => `${h.name}: ${h.value}`).join("\n")}
                </CodeBlock>
                <CodeBlock label="Body received" className="max-h-64 break-all whitespace-pre-wrap">
                  {r.body}
                </CodeBlock>
              </div>
            </details>
          </li>
        );
      })}
    </ul>
  );
}

/** What the receiver got, on its own panel (a webhook's page). */
export function TestReceiverReceipts({ url }: { url: string }) {
  // Only a webhook whose URL has the receiver's path can be pointed at it: no other page reads it.
  const receiver = useTestReceiver(url.includes(TEST_RECEIVER_PATH));
  if (!receiver.data || receiver.data.url !== url) return null;
  return (
    <Panel
      title="Received by the test receiver"
      actions={<Button onClick={() => void receiver.refetch()}>Refresh</Button>}
      data-testid="test-receiver-receipts"
    >
      <ReceiptList receipts={receiver.data.receipts} />
    </Panel>
  );
}

export function TestReceiverPanel({ onUse }: { onUse: (url: string) => void }) {
  const receiver = useTestReceiver();
  const data = receiver.data;
  return (
    <Panel
      title="Test receiver"
      actions={data ? <Button onClick={() => void receiver.refetch()}>Refresh</Button> : null}
      data-testid="test-receiver"
    >
      <div className="space-y-3 px-4 py-4 text-sm text-gray-700">
        <p>
          A receiver built into Masthead, to try webhooks before you have your own: point a webhook at this URL, send it
          a test event, and see below what arrived and whether its signature verified. It keeps the last{" "}
          {data?.kept ?? 50} requests.
        </p>
        {receiver.isPending ? <Loading what="test receiver" className="text-sm text-gray-600" /> : null}
        {receiver.isError ? (
          <LoadError what="test receiver" error={receiver.error} onRetry={receiver.refetch} className="text-sm" />
        ) : null}
        {data ? (
          <div className="flex flex-col gap-2 sm:flex-row sm:items-center">
            <code
              className="min-w-0 rounded bg-gray-50 px-2 py-1 font-mono text-xs break-all text-gray-900 ring-1 ring-gray-200"
              data-testid="test-receiver-url"
            >
              {data.url}
            </code>
            <div className="flex shrink-0 flex-wrap gap-2">
              <CopyButton value={data.url} />
              <Button variant="primary" onClick={() => onUse(data.url)}>
                Use the test receiver
              </Button>
            </div>
          </div>
        ) : null}
      </div>
      {data ? (
        <section aria-label="Requests received" className="border-t border-gray-200">
          <h3 className="px-4 pt-3 text-sm font-semibold text-gray-900">Received (newest first)</h3>
          <ReceiptList receipts={data.receipts} />
        </section>
      ) : null}
    </Panel>
  );
}
