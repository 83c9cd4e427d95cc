"use client";

/**
 * Settings → Privacy (privacy.settings, privacy.updateSettings; owners): how long IP addresses,
 * delivery logs and deleted comments are kept, what erasure does with an erased reader's comments,
 * and what the retention job last removed. Checked with the server's zod schema before sending.
 */
import { useMutation, useQuery } from "@tanstack/react-query";

import { useTRPC } from "@/components/trpc/react";
import {
  Alert,
  DateTime,
  numbersAsText,
  NumberSettings,
  numbersFromText,
  Panel,
  RadioChoices,
  SettingsFormShell,
  SettingsLoader,
  useSettingsDraft,
  useThenRefetch,
  type NumberSetting,
  type SettingsEditorProps,
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
const DAY_FIELDS = ["ipRetentionDays", "logRetentionDays", "deletedCommentRetentionDays"] as const;
type DayField = (typeof DAY_FIELDS)[number];

const PERIODS: NumberSetting<DayField>[] = [
  {
    field: "ipRetentionDays",
    label: "IP addresses (days)",
    hint: "Cleared from audit entries and dashboard sessions older than this; the entries stay.",
    min: RETENTION_DAYS_MIN,
    max: RETENTION_DAYS_MAX,
  },
  {
    field: "logRetentionDays",
    label: "Delivery logs (days)",
    hint: "Webhook deliveries and attempts, sent mails, payment gateways' handled events and ended jobs. Never longer than the server's WEBHOOK_RETENTION_DAYS.",
    min: RETENTION_DAYS_MIN,
    max: RETENTION_DAYS_MAX,
  },
  {
    field: "deletedCommentRetentionDays",
    label: "Deleted comments (days)",
    hint: "Comments deleted longer ago than this are removed for good (a deleted comment with replies waits for them).",
    min: RETENTION_DAYS_MIN,
    max: RETENTION_DAYS_MAX,
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
  return (
    <SettingsLoader<TPrivacySettingsView, true>
      query={useQuery(trpc.privacy.settings.queryOptions())}
      what="privacy settings"
      editorKey={(view) => JSON.stringify(view.settings)}
    >
      {(editor) => (
        <>
          <Editor {...editor} />
          <LastRun view={editor.view} />
        </>
      )}
    </SettingsLoader>
  );
}

type Draft = Omit<TPrivacySettingsInput, DayField> & Record<DayField, string>;

function Editor({ view, saved, setSaved }: SettingsEditorProps<TPrivacySettingsView, true>) {
  const trpc = useTRPC();
  const save = useMutation(
    trpc.privacy.updateSettings.mutationOptions({
      onSuccess: useThenRefetch(() => setSaved(true), trpc.privacy.pathKey()),
    }),
  );
  const { draft, set, errors, error, check } = useSettingsDraft<Draft, (typeof FIELDS)[number]>({
    initial: {
      ...numbersAsText(view.settings, DAY_FIELDS),
      erasedReaderComments: view.settings.erasedReaderComments,
    },
    fields: FIELDS,
    serverError: save.error,
    onEdit: () => setSaved(null),
  });
  return (
    <SettingsFormShell
      noValidate
      data-testid="privacy-settings-form"
      onSave={() => {
        const checked = check(ZPrivacySettingsInput, { ...draft, ...numbersFromText(draft, DAY_FIELDS) });
        if (checked !== null) save.mutate(checked);
      }}
      errors={errors}
      saving={save.isPending}
      savedNote={saved ? "Saved: the next run of the retention job uses these periods." : null}
      saveLabel="Save privacy settings"
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
        <NumberSettings settings={PERIODS} draft={draft} set={set} error={error} inputClassName="w-32" />
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
    </SettingsFormShell>
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
