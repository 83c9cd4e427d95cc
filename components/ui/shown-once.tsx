"use client";

/**
 * The one moment a secret is visible (a webhook's signing secret, a new API key): what it is, the
 * value with a Copy button, "Done" to hide it for good, and a note on using it.
 */
import { useState, type ReactNode } from "react";

import { Alert } from "./alert";
import { Button } from "./button";

export function ShownOnce({
  title,
  value,
  onDone,
  children,
  testId,
  valueTestId,
}: {
  title: ReactNode;
  value: string;
  onDone: () => void;
  /** The note under the value. */
  children: ReactNode;
  testId?: string;
  valueTestId?: string;
}) {
  const [copied, setCopied] = useState(false);
  return (
    <Alert tone="warning" role="status" data-testid={testId}>
      <p className="font-semibold">{title}</p>
      <div className="mt-2 flex flex-wrap items-center gap-2">
        <code
          className="rounded bg-white px-2 py-1 font-mono text-xs break-all text-gray-900 ring-1 ring-amber-200"
          data-testid={valueTestId}
        >
          {value}
        </code>
        <Button
          onClick={() => {
            void navigator.clipboard?.writeText(value).then(() => setCopied(true));
          }}
        >
          {copied ? "Copied" : "Copy"}
        </Button>
        <Button onClick={onDone}>Done</Button>
      </div>
      <p className="mt-2">{children}</p>
    </Alert>
  );
}
