"use client";

/** The one moment a webhook's signing secret is visible: copy it, then "Done". */
import { useState } from "react";

import { Alert, Button } from "@/components/ui";

export function SecretOnce({ secret, onDone }: { secret: string; onDone: () => void }) {
  const [copied, setCopied] = useState(false);
  return (
    <Alert tone="warning" role="status" data-testid="secret-once">
      <p className="font-semibold">Copy the signing secret now: it will not be shown again.</p>
      <div className="mt-2 flex flex-wrap items-center gap-2">
        <code
          className="rounded bg-white px-2 py-1 font-mono text-xs break-all text-gray-900 ring-1 ring-amber-200"
          data-testid="secret-value"
        >
          {secret}
        </code>
        <Button
          onClick={() => {
            void navigator.clipboard?.writeText(secret).then(() => setCopied(true));
          }}
        >
          {copied ? "Copied" : "Copy"}
        </Button>
        <Button onClick={onDone}>Done</Button>
      </div>
      <p className="mt-2">
        Receivers verify the X-Qt-Signature header (HMAC-SHA256 of the body) with it. See docs/webhooks.md.
      </p>
    </Alert>
  );
}
