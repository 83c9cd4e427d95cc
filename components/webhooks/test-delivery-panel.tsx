"use client";

/**
 * "Send a test event" on a webhook's page: the owner picks an event and sees the exact request
 * Masthead would send (headers with the signatures, the body) and how a receiver checks the
 * signatures, without the secret. It is sent too when the address is allowed; the answer, or why
 * nothing was sent (a private address, a disabled webhook), is shown beside it, and the test is in
 * the delivery log (marked "Test").
 */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";

import { useTRPC } from "@/components/trpc/react";
import { Alert, Button, Code, CodeBlock, ErrorAlert, FormField, Panel, Select } from "@/components/ui";
import {
  EVENTS_BY_KIND,
  TEST_EVENT,
  webhookEventDescription,
  type TWebhookKind,
} from "@/server/webhooks/events.schema";
import type { TTestDeliveryView } from "@/server/webhooks/test-delivery.schema";

function Outcome({ result }: { result: TTestDeliveryView["result"] }) {
  if (result.outcome === "answered") {
    const ok = result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300;
    return (
      <Alert tone={ok ? "success" : "warning"}>
        Sent: the receiver answered {result.statusCode} in {result.durationMs} ms
        {ok ? "." : " (only a 2xx counts as delivered)."}
        {result.responseExcerpt ? (
          <CodeBlock label="The receiver's answer" className="mt-2 max-h-32 whitespace-pre-wrap">
            {result.responseExcerpt}
          </CodeBlock>
        ) : null}
      </Alert>
    );
  }
  if (result.outcome === "no_response")
    return (
      <Alert tone="warning">
        Sent, but no answer came ({result.error}) after {result.durationMs} ms.
      </Alert>
    );
  return <Alert tone="info">Not sent: {result.error} The request below is what would be sent.</Alert>;
}

export function TestDeliveryPanel({
  id,
  kind,
  subscribed,
  active,
}: {
  id: string;
  kind: TWebhookKind;
  subscribed: string[];
  active: boolean;
}) {
  const trpc = useTRPC();
  const events = [TEST_EVENT, ...EVENTS_BY_KIND[kind]];
  const [event, setEvent] = useState<string>(subscribed[0] ?? TEST_EVENT);
  const queryClient = useQueryClient();
  // The test is in the delivery log (and, at the test receiver, in what it received): read them again.
  const preview = useMutation(
    trpc.webhooks.testPreview.mutationOptions({
      onSettled: async () => {
        await queryClient.invalidateQueries({ queryKey: trpc.webhooks.deliveries.pathKey() });
        await queryClient.invalidateQueries({ queryKey: trpc.webhooks.testReceiver.queryKey() });
      },
    }),
  );
  const view = preview.data;

  return (
    <Panel title="Send a test event" padded data-testid="test-delivery">
      <p className="text-sm text-gray-600">
        Builds the exact request this webhook would get for an event, signed with its secret, and shows it here. It is
        sent too when the URL is a public address or Masthead&apos;s test receiver
        {active ? "" : ", and the webhook is enabled"}; its data says <Code>&quot;test&quot;: true</Code>. Either way it
        goes into the delivery log below, marked &quot;Test&quot;.
      </p>
      <form
        className="flex flex-col gap-3 sm:flex-row sm:items-end"
        onSubmit={(e) => {
          e.preventDefault();
          preview.mutate({ id, event });
        }}
      >
        <FormField label="Event" hint={webhookEventDescription(event)} className="min-w-0 sm:w-96">
          <Select value={event} onChange={(e) => setEvent(e.target.value)}>
            {events.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </Select>
        </FormField>
        <Button type="submit" variant="primary" loading={preview.isPending} loadingText="Sending…">
          Send a test event
        </Button>
      </form>
      {preview.error ? <ErrorAlert error={preview.error} /> : null}
      {view ? (
        <div className="space-y-4" data-testid="test-delivery-result">
          <Outcome result={view.result} />
          <div>
            <h3 className="text-sm font-medium text-gray-900">Request</h3>
            <CodeBlock label="Request line and headers" className="mt-1 break-all whitespace-pre-wrap">
              {`POST ${view.request.url}\n`}
              {view.request.headers.map((h) => `${h.name}: ${h.value}`).join("\n")}
            </CodeBlock>
            <CodeBlock label="Request body" className="mt-2 max-h-64 break-all whitespace-pre-wrap">
              {view.request.body}
            </CodeBlock>
          </div>
          <div className="text-sm text-gray-700" data-testid="test-delivery-verify">
            <h3 className="font-medium text-gray-900">Verifying the signature</h3>
            {view.signing.signed ? (
              <ol className="mt-1 list-decimal space-y-1 pl-5">
                <li>
                  <Code>X-Qt-Signature</Code> is the hex HMAC-SHA256 of the body exactly as received, keyed with the
                  whole secret (<Code>whsec_…</Code>) you copied when the webhook was made or its secret rotated.
                </li>
                <li>
                  <Code>webhook-signature</Code> (Standard Webhooks) is <Code>v1,</Code> + the base64 HMAC-SHA256 of{" "}
                  <Code>webhook-id.webhook-timestamp.body</Code>, keyed with the secret&apos;s base64 part decoded; any
                  Standard Webhooks library does it with <Code>new Webhook(secret).verify(body, headers)</Code>.
                  {view.signing.standardSignatureCount > 1
                    ? " It holds one entry per live secret: the previous one still signs for a day after a rotation."
                    : null}
                </li>
                <li>Compare in constant time, and refuse a timestamp more than 5 minutes away from now.</li>
              </ol>
            ) : (
              <p className="mt-1">
                This webhook has no secret: <Code>X-Qt-Signature</Code> is empty and there is no{" "}
                <Code>webhook-signature</Code>. Add a secret to sign deliveries.
              </p>
            )}
            {view.signing.signed ? (
              <CodeBlock label="What webhook-signature signs" className="mt-2 max-h-40 break-all whitespace-pre-wrap">
                {view.signing.standardSignedContent}
              </CodeBlock>
            ) : null}
          </div>
        </div>
      ) : null}
    </Panel>
  );
}
