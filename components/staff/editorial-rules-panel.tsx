"use client";

/**
 * The Users & keys page's editorial rules (owners): "Editors may not approve or publish a story
 * they wrote" (server/publishing/editorial/authorship.ts). Saved as it is switched.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";

import { useTRPC } from "@/components/trpc/react";
import { Alert, Checkbox, ErrorAlert, Panel } from "@/components/ui";

export function EditorialRulesPanel() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const rules = useQuery(trpc.staff.editorialRules.queryOptions());
  const save = useMutation(
    trpc.staff.setEditorialRules.mutationOptions({
      onSuccess: (data) => queryClient.setQueryData(trpc.staff.editorialRules.queryKey(), data),
    }),
  );
  const on = save.isPending ? (save.variables?.noSelfApproval ?? false) : (rules.data?.noSelfApproval ?? false);
  return (
    <Panel title="Editorial rules" padded data-testid="editorial-rules">
      <div className="space-y-3 text-sm">
        <Checkbox
          label="Editors may not approve or publish a story they wrote"
          description="Owners included: another editor approves, publishes or schedules it. Contributors never can."
          checked={on}
          disabled={!rules.data || save.isPending}
          onChange={(e) => save.mutate({ noSelfApproval: e.target.checked })}
        />
        {rules.error ? <ErrorAlert error={rules.error} /> : null}
        {save.error ? <ErrorAlert error={save.error} /> : null}
        {save.isSuccess ? (
          <Alert tone="success" data-testid="editorial-rules-saved">
            {save.data.noSelfApproval
              ? "Saved: nobody approves or publishes a story they wrote."
              : "Saved: editors may approve and publish their own stories."}
          </Alert>
        ) : null}
      </div>
    </Panel>
  );
}
