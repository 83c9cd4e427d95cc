"use client";

/**
 * Settings → Privacy (privacy.settings, privacy.updateSettings; owners): how long IP addresses,
 * delivery logs and deleted comments are kept, what erasure does with an erased reader's comments,
 * and what the retention job last removed. Checked with the server's zod schema before sending.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";

import { useTRPC } from "@/components/trpc/react";
import {
  Alert,
  Button,
  DateTime,
  ErrorAlert,
  FormActions,
  FormField,
  LoadState,
  Panel,
  RadioChoices,
  useSettingsDraft,
  WholeNumberInput,
} from "@/components/ui";
import {
  RETENTION_DAYS_MAX,
  RETENTION_DAYS_MIN,
  ZPrivacySettingsInput,
  type TPrivacySettingsInput,
  type TPrivacySettingsView,
  type TRetentionKind,
} from "@/server/privacy/retention/privacy-settings.schema";

const FIELDS = ["ipRetentionDays", "logRetentionDays", "deletedCommentRetentionDays", "erasedReaderComments"] as const;
type DayField = Exclude<(typeof FIELDS)[number], "erasedReaderComments">;

const PERIODS: { field: DayField; label: string; hint: string }[] = [
  {
    field: "ipRetentionDays",
    label: "IP addresses (days)",
    hint: "Cleared from audit entries and dashboard sessions older than this; the entries stay.",
  },
  {
    field: "logRetentionDays",
    label: "Delivery logs (days)",
    hint: "Webhook deliveries and attempts, sent mails, payment gateways' handled events and ended jobs. Never longer than the server's WEBHOOK_RETENTION_DAYS.",
  },
  {
    field: "deletedCommentRetentionDays",
    label: "Deleted comments (days)",
    hint: "Comments deleted longer ago than this are removed for good (a deleted comment with replies waits for them).",
  },
];

const KIND_LABELS: [TRetentionKind, string][] = [
  ["auditIps", "IP addresses cleared from audit entries"],
  ["sessionIps", "IP addresses cleared from dashboard sessions"],
  ["webhookEvents", "Webhook events (with their deliveries)"],
  ["mails", "Sent mails"],
  ["gatewayEvents", "Payment gateway events"],
  ["jobs", "Ended jobs"],
  ["deletedComments", "Deleted comments"],
];

const ERASED_CHOICES = [
  { value: "keep", label: "Keep them, shown as by a deleted reader (replies keep their thread)" },
  { value: "remove", label: "Remove them" },
] as const;

export function PrivacySettingsForm() {
  const trpc = useTRPC();
  const query = useQuery(trpc.privacy.settings.queryOptions());
  const [saved, setSaved] = useState(false);
  const view = query.data;
  return (
    <div className="space-y-6">
      <LoadState query={query} what="privacy settings" />
      {view ? (
        <>
          <Editor key={JSON.stringify(view.settings)} view={view} saved={saved} setSaved={setSaved} />
          <LastRun view={view} />
        </>
      ) : null}
    </div>
  );
}

type Draft = Omit<TPrivacySettingsInput, DayField> & Record<DayField, string>;

function Editor({
  view,
  saved,
  setSaved,
}: {
  view: TPrivacySettingsView;
  saved: boolean;
  setSaved: (saved: boolean) => void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const save = useMutation(
    trpc.privacy.updateSettings.mutationOptions({
      onSuccess: async () => {
        setSaved(true);
        await queryClient.invalidateQueries({ queryKey: trpc.privacy.pathKey() });
      },
    }),
  );
  const s = view.settings;
  const { draft, set, errors, error, check } = useSettingsDraft<Draft, (typeof FIELDS)[number]>({
    initial: {
      ipRetentionDays: String(s.ipRetentionDays),
      logRetentionDays: String(s.logRetentionDays),
      deletedCommentRetentionDays: String(s.deletedCommentRetentionDays),
      erasedReaderComments: s.erasedReaderComments,
    },
    fields: FIELDS,
    serverError: save.error,
    onEdit: () => setSaved(false),
  });
  return (
    <form
      noValidate
      className="space-y-6"
      data-testid="privacy-settings-form"
      onSubmit={(event) => {
        event.preventDefault();
        const checked = check(ZPrivacySettingsInput, {
          ...draft,
          ipRetentionDays: Number(draft.ipRetentionDays),
          logRetentionDays: Number(draft.logRetentionDays),
          deletedCommentRetentionDays: Number(draft.deletedCommentRetentionDays),
        });
        if (checked !== null) save.mutate(checked);
      }}
    >
      {!view.saved ? (
        <Alert tone="info">
          These are the defaults: IP addresses {view.defaults.ipRetentionDays} days, delivery logs{" "}
          {view.defaults.logRetentionDays} days, deleted comments {view.defaults.deletedCommentRetentionDays} days.
        </Alert>
      ) : null}
      <Panel title="Retention periods" padded>
        <p className="text-sm text-gray-600">
          A job applies them every hour, in batches. Audit entries, invoices, payments and consent records are never
          removed by it. Between {RETENTION_DAYS_MIN} and {RETENTION_DAYS_MAX} days each.
        </p>
        {PERIODS.map(({ field, label, hint }) => (
          <FormField key={field} label={label} hint={hint} error={error(field)}>
            <WholeNumberInput
              min={RETENTION_DAYS_MIN}
              max={RETENTION_DAYS_MAX}
              className="w-32"
              value={draft[field]}
              onChange={(e) => set({ [field]: e.target.value })}
            />
          </FormField>
        ))}
      </Panel>
      <Panel title="An erased reader's comments" padded>
        <fieldset>
          <legend className="mb-2 text-sm text-gray-600">When a reader’s account is erased, their comments are:</legend>
          <RadioChoices
            name="erasedReaderComments"
            value={draft.erasedReaderComments}
            options={ERASED_CHOICES}
            onChange={(value) => set({ erasedReaderComments: value })}
          />
        </fieldset>
      </Panel>
      <ErrorAlert errors={errors} />
      {saved ? <Alert tone="success">Saved: the next run of the retention job uses these periods.</Alert> : null}
      <FormActions>
        <Button type="submit" variant="primary" loading={save.isPending} loadingText="Saving…">
          Save privacy settings
        </Button>
      </FormActions>
    </form>
  );
}

function LastRun({ view }: { view: TPrivacySettingsView }) {
  const run = view.lastRun;
  return (
    <Panel title="Retention job" padded data-testid="retention-last-run">
      {run ? (
        <div className="space-y-3 text-sm">
          <p className="text-gray-700">
            Last ran <DateTime value={new Date(run.finishedAt)} />
            {run.complete ? "." : ", and goes on: more was due than one run removes."}
          </p>
          <dl className="grid grid-cols-[1fr_auto] gap-x-4 gap-y-1">
            {KIND_LABELS.map(([kind, label]) => (
              <div key={kind} className="contents">
                <dt className="text-gray-600">{label}</dt>
                <dd className="text-end tabular-nums">{run.removed[kind]}</dd>
              </div>
            ))}
          </dl>
        </div>
      ) : (
        <p className="text-sm text-gray-600">The retention job has not run in this account yet.</p>
      )}
    </Panel>
  );
}
