"use client";
/** Add a webhook, or edit one: URL, description, events (from the server's catalog). */
import { useQuery } from "@tanstack/react-query";
import { useId, useState } from "react";

import { useTRPC } from "@/components/trpc/react";
import type { TWebhookKind } from "@/server/webhooks/events.schema";

import { buttonClass, ErrorMessage, inputClass, primaryButtonClass } from "./ui";

export type WebhookFormValues = { kind: TWebhookKind; url: string; description: string; events: string[]; withSecret: boolean };

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
  const id = useId();
  const catalog = useQuery(trpc.webhooks.catalog.queryOptions());
  const [values, setValues] = useState<WebhookFormValues>({
    kind: initial?.kind ?? "CONTENT",
    url: initial?.url ?? "",
    description: initial?.description ?? "",
    events: initial?.events ?? [],
    withSecret: initial?.withSecret ?? true,
  });
  const events = catalog.data?.[values.kind] ?? [];

  return (
    <form
      className="space-y-4"
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit(values);
      }}
    >
      {!editing ? (
        <fieldset>
          <legend className="text-sm font-medium text-gray-900">Kind</legend>
          <div className="mt-2 flex gap-4">
            {(["CONTENT", "SUBSCRIPTION"] as const).map((kind) => (
              <label key={kind} className="flex items-center gap-2 text-sm text-gray-700">
                <input
                  type="radio"
                  name={`${id}-kind`}
                  value={kind}
                  checked={values.kind === kind}
                  onChange={() => setValues({ ...values, kind, events: [] })}
                  className="text-brand-600 focus:ring-brand-600"
                />
                {kind === "CONTENT" ? "Content workflow" : "Subscriptions"}
              </label>
            ))}
          </div>
        </fieldset>
      ) : null}
      <div>
        <label htmlFor={`${id}-url`} className="block text-sm font-medium text-gray-900">
          Endpoint URL
        </label>
        <input
          id={`${id}-url`}
          type="url"
          required
          maxLength={255}
          placeholder="https://example.com/masthead-webhooks"
          value={values.url}
          onChange={(event) => setValues({ ...values, url: event.target.value })}
          className={`mt-1 ${inputClass}`}
        />
        <p className="mt-1 text-xs text-gray-500">http or https, at most 255 characters. Private and loopback addresses are refused.</p>
      </div>
      <div>
        <label htmlFor={`${id}-description`} className="block text-sm font-medium text-gray-900">
          Description <span className="font-normal text-gray-500">(optional)</span>
        </label>
        <input
          id={`${id}-description`}
          value={values.description}
          maxLength={500}
          onChange={(event) => setValues({ ...values, description: event.target.value })}
          className={`mt-1 ${inputClass}`}
        />
      </div>
      <fieldset>
        <legend className="text-sm font-medium text-gray-900">Events</legend>
        {catalog.isPending ? (
          <p className="mt-2 text-sm text-gray-500">Loading events…</p>
        ) : (
          <div className="mt-2 grid gap-2 sm:grid-cols-2">
            {events.map((name) => (
              <label key={name} className="flex items-center gap-2 text-sm text-gray-700">
                <input
                  type="checkbox"
                  checked={values.events.includes(name)}
                  onChange={(event) =>
                    setValues({ ...values, events: event.target.checked ? [...values.events, name] : values.events.filter((e) => e !== name) })
                  }
                  className="rounded text-brand-600 focus:ring-brand-600"
                />
                <code className="font-mono text-xs">{name}</code>
              </label>
            ))}
          </div>
        )}
      </fieldset>
      {!editing ? (
        <label className="flex items-center gap-2 text-sm text-gray-700">
          <input
            type="checkbox"
            checked={values.withSecret}
            onChange={(event) => setValues({ ...values, withSecret: event.target.checked })}
            className="rounded text-brand-600 focus:ring-brand-600"
          />
          Sign deliveries with a secret (recommended)
        </label>
      ) : null}
      <ErrorMessage error={error} />
      <div className="flex gap-2">
        <button type="submit" disabled={pending} className={primaryButtonClass}>
          {pending ? "Saving…" : submitLabel}
        </button>
        {onCancel ? (
          <button type="button" className={buttonClass} onClick={onCancel}>
            Cancel
          </button>
        ) : null}
      </div>
    </form>
  );
}
