"use client";

/**
 * Add a webhook, or edit one: URL, description, events (from the server's catalog, each with the
 * one line that says when it is sent, and "Select all" / "Clear").
 */
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";

import { useTRPC } from "@/components/trpc/react";
import { Button, Checkbox, Fieldset, FormEnd, FormField, Input, RadioChoices, serverErrors } from "@/components/ui";
import { webhookEventDescription, type TWebhookKind } from "@/server/webhooks/events.schema";

type WebhookFormValues = {
  kind: TWebhookKind;
  url: string;
  description: string;
  events: string[];
  withSecret: boolean;
};

const KINDS = [
  { value: "CONTENT", label: "Content workflow" },
  { value: "SUBSCRIPTION", label: "Subscriptions" },
  { value: "ENGAGEMENT", label: "Comments (engagement)" },
] as const;

export function WebhookForm({
  initial,
  editing,
  submitLabel,
  pending,
  error,
  onSubmit,
  onCancel,
}: {
  initial?: Partial<WebhookFormValues>;
  editing?: boolean;
  submitLabel: string;
  pending: boolean;
  error: unknown;
  onSubmit: (values: WebhookFormValues) => void;
  onCancel?: () => void;
}) {
  const trpc = useTRPC();
  const catalog = useQuery(trpc.webhooks.catalog.queryOptions());
  const [values, setValues] = useState<WebhookFormValues>({
    kind: initial?.kind ?? "CONTENT",
    url: initial?.url ?? "",
    description: initial?.description ?? "",
    events: initial?.events ?? [],
    withSecret: initial?.withSecret ?? true,
  });
  const events = catalog.data?.[values.kind] ?? [];
  const errors = serverErrors(error, ["kind", "url", "description", "events"]);

  return (
    <form
      className="space-y-4"
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit(values);
      }}
    >
      {!editing ? (
        <Fieldset legend="Kind">
          <RadioChoices
            value={values.kind}
            options={KINDS}
            onChange={(kind) => setValues({ ...values, kind, events: [] })}
          />
        </Fieldset>
      ) : null}
      <FormField
        label="Endpoint URL"
        hint="http or https, at most 255 characters. Private and loopback addresses are refused, except this install's test receiver (below the list of webhooks)."
        error={errors.fields.url}
      >
        <Input
          type="url"
          required
          maxLength={255}
          placeholder="https://example.com/masthead-webhooks"
          value={values.url}
          onChange={(event) => setValues({ ...values, url: event.target.value })}
        />
      </FormField>
      <FormField label="Description" optional error={errors.fields.description}>
        <Input
          value={values.description}
          maxLength={500}
          onChange={(event) => setValues({ ...values, description: event.target.value })}
        />
      </FormField>
      <Fieldset legend="Events" error={errors.fields.events}>
        {catalog.isPending ? (
          <p className="text-sm text-gray-500">Loading events…</p>
        ) : (
          <>
            <div className="mb-3 flex flex-wrap gap-2">
              <Button
                size="sm"
                onClick={() => setValues({ ...values, events: [...events] })}
                disabled={events.length > 0 && events.every((name) => values.events.includes(name))}
              >
                Select all
              </Button>
              <Button
                size="sm"
                onClick={() => setValues({ ...values, events: [] })}
                disabled={values.events.length === 0}
              >
                Clear
              </Button>
            </div>
            <div className="grid gap-3 sm:grid-cols-2">
              {events.map((name) => (
                <Checkbox
                  key={name}
                  label={<code className="font-mono text-xs break-all">{name}</code>}
                  description={webhookEventDescription(name)}
                  checked={values.events.includes(name)}
                  onChange={(event) =>
                    setValues({
                      ...values,
                      events: event.target.checked ? [...values.events, name] : values.events.filter((e) => e !== name),
                    })
                  }
                />
              ))}
            </div>
          </>
        )}
      </Fieldset>
      {!editing ? (
        <Checkbox
          label="Sign deliveries with a secret (recommended)"
          checked={values.withSecret}
          onChange={(event) => setValues({ ...values, withSecret: event.target.checked })}
        />
      ) : null}
      <FormEnd errors={errors} label={submitLabel} pending={pending} pendingText="Saving…" onCancel={onCancel} />
    </form>
  );
}
