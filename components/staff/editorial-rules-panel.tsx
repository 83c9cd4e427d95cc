"use client";

/**
 * The Users & keys page's editorial settings (owners): "Editors may not approve or publish a story
 * they wrote" (server/publishing/editorial/authorship.ts, saved as it is switched) and the front
 * end's preview page (server/publishing/editorial/preview.ts), saved with its button.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";

import { useTRPC } from "@/components/trpc/react";
import { Alert, Button, Checkbox, ErrorAlert, FormField, Input, Panel, serverErrors } from "@/components/ui";
import type { TEditorialRules } from "@/server/publishing/editorial/authorship.schema";

export function EditorialRulesPanel() {
  const trpc = useTRPC();
  const rules = useQuery(trpc.staff.editorialRules.queryOptions());
  return (
    <Panel title="Editorial settings" padded data-testid="editorial-rules">
      {rules.data ? <EditorialRulesForm rules={rules.data} /> : null}
      {rules.error ? <ErrorAlert error={rules.error} /> : null}
    </Panel>
  );
}

function EditorialRulesForm({ rules }: { rules: TEditorialRules }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [previewUrl, setPreviewUrl] = useState(rules.previewUrl ?? "");
  const [saved, setSaved] = useState<string | null>(null);
  const save = useMutation(
    trpc.staff.setEditorialRules.mutationOptions({
      onSuccess: (data) => queryClient.setQueryData(trpc.staff.editorialRules.queryKey(), data),
    }),
  );
  const errors = serverErrors(save.error, ["previewUrl"]);
  const on =
    save.isPending && save.variables?.noSelfApproval !== undefined
      ? save.variables.noSelfApproval
      : rules.noSelfApproval;

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    setSaved(null);
    save.mutate(
      { previewUrl },
      {
        onSuccess: (data) =>
          setSaved(
            data.previewUrl
              ? "Saved: Preview opens your site's preview page."
              : "Saved: Preview opens Masthead's preview page.",
          ),
      },
    );
  }

  return (
    <div className="space-y-4 text-sm">
      <Checkbox
        label="Editors may not approve or publish a story they wrote"
        description="Owners included: another editor approves, publishes or schedules it. Contributors never can."
        checked={on}
        disabled={save.isPending}
        onChange={(e) => {
          setSaved(null);
          save.mutate(
            { noSelfApproval: e.target.checked },
            {
              onSuccess: (data) =>
                setSaved(
                  data.noSelfApproval
                    ? "Saved: nobody approves or publishes a story they wrote."
                    : "Saved: editors may approve and publish their own stories.",
                ),
            },
          );
        }}
      />
      <form className="space-y-2" onSubmit={onSubmit} noValidate>
        <FormField
          label="Preview URL"
          optional
          hint="Your site's preview page, with {token} where the preview token goes (and {slug} if you like), e.g. https://news.example.com/preview?token={token}. Your site reads the draft with GET /api/v1/preview/<token>. Empty: Masthead's own preview page."
          error={errors.fields.previewUrl}
        >
          <Input
            type="url"
            inputMode="url"
            value={previewUrl}
            placeholder="https://news.example.com/preview?token={token}"
            onChange={(e) => setPreviewUrl(e.target.value)}
          />
        </FormField>
        <Button type="submit" size="sm" loading={save.isPending} loadingText="Saving…">
          Save preview URL
        </Button>
      </form>
      <ErrorAlert errors={errors} />
      {saved ? (
        <Alert tone="success" data-testid="editorial-rules-saved">
          {saved}
        </Alert>
      ) : null}
    </div>
  );
}
