"use client";

/** The one moment a webhook's signing secret is visible: copy it, then "Done". */
import { ShownOnce } from "@/components/ui";

export function SecretOnce({ secret, onDone }: { secret: string; onDone: () => void }) {
  return (
    <ShownOnce
      title="Copy the signing secret now: it will not be shown again."
      value={secret}
      onDone={onDone}
      testId="secret-once"
      valueTestId="secret-value"
    >
      Receivers verify the X-Qt-Signature header (HMAC-SHA256 of the body) with it. See docs/webhooks.md.
    </ShownOnce>
  );
}
