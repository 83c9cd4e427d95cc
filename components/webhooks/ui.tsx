"use client";
/** Small pieces shared by the webhook screens. */
import { TRPCClientError } from "@trpc/client";
import { useState, type ReactNode } from "react";

export const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "medium" });

export const buttonClass =
  "inline-flex items-center justify-center rounded-md border border-gray-300 bg-white px-3 py-1.5 text-sm font-medium text-gray-700 shadow-sm hover:bg-gray-50 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-600 focus-visible:ring-offset-2 disabled:cursor-not-allowed disabled:opacity-60";
export const primaryButtonClass =
  "inline-flex items-center justify-center rounded-md bg-brand-600 px-3 py-1.5 text-sm font-semibold text-white shadow-sm hover:bg-brand-700 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-600 focus-visible:ring-offset-2 disabled:cursor-not-allowed disabled:opacity-60";
export const dangerButtonClass =
  "inline-flex items-center justify-center rounded-md border border-red-300 bg-white px-3 py-1.5 text-sm font-medium text-red-700 shadow-sm hover:bg-red-50 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-red-600 focus-visible:ring-offset-2 disabled:cursor-not-allowed disabled:opacity-60";
export const inputClass =
  "block w-full rounded-md border border-gray-300 px-3 py-2 text-sm shadow-sm focus:border-brand-600 focus:outline-none focus:ring-2 focus:ring-brand-600/30";

/** A mutation's error as a sentence, with the field problems the server named. */
export function ErrorMessage({ error }: { error: unknown }) {
  if (!error) return null;
  let message = error instanceof Error ? error.message : "Something went wrong.";
  let details: { field: string; issue: string }[] = [];
  if (error instanceof TRPCClientError) {
    const data = error.data as { appError?: { details?: { field: string; issue: string }[] } | null } | undefined;
    details = data?.appError?.details ?? [];
  }
  if (details.length && message === "The input is not valid.") message = "Please correct the following:";
  return (
    <div role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
      <p>{message}</p>
      {details.length ? (
        <ul className="mt-1 list-disc pl-5">
          {details.map((d) => (
            <li key={`${d.field}:${d.issue}`}>
              <span className="font-medium">{d.field}</span>: {d.issue}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

export function StatusBadge({ tone, children }: { tone: "green" | "red" | "amber" | "gray" | "blue"; children: ReactNode }) {
  const tones = {
    green: "bg-green-50 text-green-800 ring-green-600/20",
    red: "bg-red-50 text-red-800 ring-red-600/20",
    amber: "bg-amber-50 text-amber-800 ring-amber-600/20",
    gray: "bg-gray-100 text-gray-700 ring-gray-500/20",
    blue: "bg-blue-50 text-blue-800 ring-blue-600/20",
  };
  return <span className={`inline-flex items-center rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${tones[tone]}`}>{children}</span>;
}

export function EndpointStatus({ active, disabledReason }: { active: boolean; disabledReason: string | null }) {
  if (active) return <StatusBadge tone="green">Active</StatusBadge>;
  return <StatusBadge tone={disabledReason === "failing" ? "red" : "gray"}>{disabledReason === "failing" ? "Disabled: failing" : "Disabled"}</StatusBadge>;
}

/** The one moment a secret is visible. */
export function SecretOnce({ secret, onDone }: { secret: string; onDone: () => void }) {
  const [copied, setCopied] = useState(false);
  return (
    <div role="status" className="rounded-md border border-amber-300 bg-amber-50 p-4 text-sm" data-testid="secret-once">
      <p className="font-semibold text-amber-900">Copy the signing secret now: it will not be shown again.</p>
      <div className="mt-2 flex flex-wrap items-center gap-2">
        <code className="break-all rounded bg-white px-2 py-1 font-mono text-xs text-gray-900 ring-1 ring-amber-200" data-testid="secret-value">
          {secret}
        </code>
        <button
          type="button"
          className={buttonClass}
          onClick={() => {
            void navigator.clipboard?.writeText(secret).then(() => setCopied(true));
          }}
        >
          {copied ? "Copied" : "Copy"}
        </button>
        <button type="button" className={buttonClass} onClick={onDone}>
          Done
        </button>
      </div>
      <p className="mt-2 text-amber-900">Receivers verify the X-Qt-Signature header (HMAC-SHA256 of the body) with it. See docs/webhooks.md.</p>
    </div>
  );
}
