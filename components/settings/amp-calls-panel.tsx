"use client";

/**
 * Settings: who may call AMP's paywall endpoints (server/subscriptions/access/amp-calls.ts). Off: only
 * calls forwarded by the site's first-party endpoint with the server key (X-SUBAUTH). On: also
 * the reader's browser with the client key alone. Saved as it is switched.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";

import { useTRPC } from "@/components/trpc/react";
import { Alert, Checkbox, ErrorAlert, Panel } from "@/components/ui";

export function AmpCallsPanel() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const settings = useQuery(trpc.settings.ampCalls.queryOptions());
  const [saved, setSaved] = useState<string | null>(null);
  const save = useMutation(
    trpc.settings.setAmpCalls.mutationOptions({
      onSuccess: (data) => {
        queryClient.setQueryData(trpc.settings.ampCalls.queryKey(), data);
        setSaved(
          data.ampDirectCalls
            ? "Saved: AMP pages may call Masthead directly with the client key."
            : "Saved: AMP's calls need the server key (X-SUBAUTH), added by your site's first-party endpoint.",
        );
      },
    }),
  );
  const on = save.isPending ? save.variables.ampDirectCalls : settings.data?.ampDirectCalls;
  return (
    <Panel title="AMP paywall calls" padded data-testid="amp-calls">
      {settings.data ? (
        <div className="space-y-4 text-sm">
          <Checkbox
            label="Allow direct AMP calls (without the server key)"
            description="Off: amp-access and amp-pingback answer only calls your site's first-party endpoint forwards with the server key in X-SUBAUTH. On: an AMP page may also call them with the client key alone, so anyone who has the client key can check and count reads."
            checked={on ?? false}
            disabled={save.isPending}
            onChange={(e) => {
              setSaved(null);
              save.mutate({ ampDirectCalls: e.target.checked });
            }}
          />
          {save.error ? <ErrorAlert error={save.error} /> : null}
          {saved ? (
            <Alert tone="success" data-testid="amp-calls-saved">
              {saved}
            </Alert>
          ) : null}
        </div>
      ) : null}
      {settings.error ? <ErrorAlert error={settings.error} /> : null}
    </Panel>
  );
}
