"use client";

/**
 * Shifts, surges and the queue-age alert (moderationSurges.settings, .updateSettings,
 * .setAlertSubscription; docs/engagement.md "Shifts and surges"): the week's shifts in the
 * account's time zone, what a surge does and when, the alert's age, and the signed-in moderator's
 * own choice to receive it. Checked with the server's zod schema before sending.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";

import { useTRPC } from "@/components/trpc/react";
import {
  Button,
  Checkbox,
  ErrorAlert,
  Fieldset,
  FormField,
  Input,
  numbersAsText,
  NumberSettings,
  numbersFromText,
  Panel,
  RadioChoices,
  savedNote,
  Select,
  SettingsFormShell,
  SettingsLoader,
  useOnSaved,
  useSettingsDraft,
  type DraftPanelProps,
  type NumberSetting,
  type SettingsEditorProps,
} from "@/components/ui";
import {
  ZSurgeSettings,
  type TShift,
  type TSurgeAction,
  type TSurgeSettingsView,
} from "@/server/engagement/moderation/surges/surge-settings.schema";

const FIELDS = [
  "timeZone",
  "shifts",
  "surgeAction",
  "surgeSlowModeSeconds",
  "surgePendingMin",
  "surgeArrivalRatio",
  "surgeWindowMinutes",
  "surgeCalmMinutes",
  "alertAfterMinutes",
] as const;
/** Each field as the saved note says it. */
const FIELD_LABELS: Record<(typeof FIELDS)[number], string> = {
  timeZone: "time zone",
  shifts: "shifts",
  surgeAction: "what a surge does",
  surgeSlowModeSeconds: "slow mode during a surge",
  surgePendingMin: "pending comments that start a surge",
  surgeArrivalRatio: "arrivals per decision",
  surgeWindowMinutes: "surge window",
  surgeCalmMinutes: "minutes before a surge ends",
  alertAfterMinutes: "queue-age e-mail",
};
const NUMBERS = [
  "surgeSlowModeSeconds",
  "surgePendingMin",
  "surgeArrivalRatio",
  "surgeWindowMinutes",
  "surgeCalmMinutes",
] as const;
type NumberField = (typeof NUMBERS)[number];

const WEEKDAY_NAMES = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"];

type Draft = {
  timeZone: string;
  shifts: TShift[];
  surgeAction: TSurgeAction;
  /** Empty: off. */
  alertAfterMinutes: string;
} & Record<NumberField, string>;

/** The zones the runtime knows, for the time zone's suggestions. */
function timeZones(): string[] {
  try {
    return (Intl as unknown as { supportedValuesOf?: (key: string) => string[] }).supportedValuesOf?.("timeZone") ?? [];
  } catch {
    return [];
  }
}

export function ShiftsSurgesForm() {
  const trpc = useTRPC();
  return (
    <SettingsLoader<TSurgeSettingsView>
      query={useQuery(trpc.moderationSurges.settings.queryOptions())}
      what="shifts and surges"
    >
      {(editor) => (
        <>
          <Editor {...editor} />
          <AlertSubscription subscribed={editor.view.alertSubscribed} />
        </>
      )}
    </SettingsLoader>
  );
}

type Field = (typeof FIELDS)[number];

type PanelProps = DraftPanelProps<Draft, Field>;

function Editor({ view, saved, setSaved }: SettingsEditorProps<TSurgeSettingsView>) {
  const trpc = useTRPC();
  const save = useMutation(
    trpc.moderationSurges.updateSettings.mutationOptions({
      onSuccess: useOnSaved(setSaved, trpc.moderationSurges.pathKey()),
    }),
  );
  const { draft, set, errors, error, check } = useSettingsDraft<Draft, Field>({
    initial: {
      timeZone: view.timeZone,
      shifts: view.shifts,
      surgeAction: view.surgeAction,
      ...numbersAsText(view, NUMBERS),
      alertAfterMinutes: view.alertAfterMinutes === null ? "" : String(view.alertAfterMinutes),
    },
    fields: FIELDS,
    serverError: save.error,
    onEdit: () => setSaved(null),
  });
  const panel = { draft, set, error };

  return (
    <SettingsFormShell
      aria-label="Shifts and surges"
      onSave={() => {
        const input = {
          ...draft,
          ...numbersFromText(draft, NUMBERS),
          alertAfterMinutes: draft.alertAfterMinutes.trim() === "" ? null : Number(draft.alertAfterMinutes),
        };
        const checked = check(ZSurgeSettings, input, (path) =>
          path[0] === "shifts" && path.length > 1 ? ` (shift ${Number(path[1]) + 1})` : "",
        );
        if (checked !== null) save.mutate(checked);
      }}
      errors={errors}
      saving={save.isPending}
      savedNote={saved ? savedNote(saved, FIELD_LABELS) : null}
      saveLabel="Save shifts and surges"
    >
      <ShiftsPanel {...panel} />
      <SurgesPanel {...panel} />
      <Panel title="Queue-age alert" padded>
        <NumberSettings settings={ALERT} {...panel} />
      </Panel>
    </SettingsFormShell>
  );
}

function ShiftsPanel({ draft, set, error }: PanelProps) {
  const setShift = (index: number, patch: Partial<TShift>) =>
    set({ shifts: draft.shifts.map((shift, i) => (i === index ? { ...shift, ...patch } : shift)) });
  return (
    <Panel title="Moderation shifts" padded>
      <p className="text-sm text-gray-600">
        When moderators are on duty, each week, in the time zone below. No shift at all: always staffed. A shift ending
        before it starts runs past midnight (22:00 to 06:00); 24:00 ends a shift at midnight.
      </p>
      <FormField label="Time zone" hint="An IANA name such as Europe/Madrid, or UTC." error={error("timeZone")}>
        <Input
          list="moderation-time-zones"
          value={draft.timeZone}
          maxLength={64}
          onChange={(e) => set({ timeZone: e.target.value })}
        />
      </FormField>
      <datalist id="moderation-time-zones">
        {timeZones().map((zone) => (
          <option key={zone} value={zone} />
        ))}
      </datalist>
      {error("shifts") ? (
        <p className="text-xs text-red-700" data-testid="field-error">
          Shifts: {error("shifts")}
        </p>
      ) : null}
      {draft.shifts.length === 0 ? <p className="text-sm text-gray-600">No shifts: always staffed.</p> : null}
      <ul className="space-y-2" aria-label="Shifts">
        {draft.shifts.map((shift, index) => (
          <ShiftRow
            key={index}
            shift={shift}
            index={index}
            onChange={(patch) => setShift(index, patch)}
            onRemove={() => set({ shifts: draft.shifts.filter((_, i) => i !== index) })}
          />
        ))}
      </ul>
      <Button
        size="sm"
        onClick={() => {
          const last = draft.shifts.at(-1);
          set({
            shifts: [
              ...draft.shifts,
              last ? { ...last, day: (last.day % 7) + 1 } : { day: 1, from: "09:00", to: "17:00" },
            ],
          });
        }}
      >
        Add a shift
      </Button>
    </Panel>
  );
}

function ShiftRow({
  shift,
  index,
  onChange,
  onRemove,
}: {
  shift: TShift;
  index: number;
  onChange: (patch: Partial<TShift>) => void;
  onRemove: () => void;
}) {
  return (
    <li className="flex flex-wrap items-end gap-3" data-testid="shift">
      <FormField label={`Shift ${index + 1}: day`}>
        <Select fit value={String(shift.day)} onChange={(e) => onChange({ day: Number(e.target.value) })}>
          {WEEKDAY_NAMES.map((name, i) => (
            <option key={name} value={String(i + 1)}>
              {name}
            </option>
          ))}
        </Select>
      </FormField>
      {SHIFT_ENDS.map(({ end, text, placeholder }) => (
        <FormField key={end} label={<ShiftLabel index={index} text={text} />}>
          <Input
            fit
            className="w-24"
            value={shift[end]}
            placeholder={placeholder}
            maxLength={5}
            onChange={(e) => onChange({ [end]: e.target.value })}
          />
        </FormField>
      ))}
      <Button size="sm" variant="ghost" aria-label={`Remove shift ${index + 1}`} onClick={onRemove}>
        Remove
      </Button>
    </li>
  );
}

/** A shift's start and end, as its row shows them. */
const SHIFT_ENDS = [
  { end: "from", text: "From", placeholder: "09:00" },
  { end: "to", text: "To", placeholder: "17:00" },
] as const;

const SURGE_NUMBERS: readonly NumberSetting<NumberField>[] = [
  { field: "surgeSlowModeSeconds", label: "Slow mode (seconds)", hint: "5 to 3,600.", min: 5, max: 3600 },
  { field: "surgePendingMin", label: "Pending comments on a page", hint: "At least this many.", min: 1, max: 10000 },
  {
    field: "surgeArrivalRatio",
    label: "Arrivals per decision",
    hint: "At least this many new comments per decision in the window.",
    min: 1,
    max: 100,
  },
  { field: "surgeWindowMinutes", label: "Window (minutes)", hint: "1 to 120.", min: 1, max: 120 },
  {
    field: "surgeCalmMinutes",
    label: "Ends after (minutes)",
    hint: "Of the page's queue under the threshold.",
    min: 1,
    max: 240,
  },
];

const ALERT: readonly NumberSetting<"alertAfterMinutes">[] = [
  {
    field: "alertAfterMinutes",
    label: "E-mail moderators when a comment has waited longer than (minutes)",
    hint: "Empty: off. One e-mail each time the queue waits too long, to the moderators who asked for it below; the next only once the queue was cleared below this age.",
    min: 1,
    max: 10080,
  },
];

function SurgesPanel({ draft, set, error }: PanelProps) {
  return (
    <Panel title="Surges" padded>
      <p className="text-sm text-gray-600">
        A page surges when its comments arrive faster than moderators clear them, and every page does while nobody is on
        shift. The surge holds or slows new comments on top of the page&apos;s own rules (the stricter applies; page
        rules are never changed) and ends by itself once the queue stayed cleared, or a shift starts. The comment widget
        tells readers, and every switch is in the audit log.
      </p>
      <Fieldset legend="During a surge" error={error("surgeAction")}>
        <RadioChoices
          value={draft.surgeAction}
          options={[
            { value: "off", label: "Do nothing (surges off)" },
            { value: "pre_moderation", label: "Hold every new comment for a moderator" },
            { value: "slow_mode", label: "Slow mode" },
          ]}
          onChange={(surgeAction) => set({ surgeAction })}
        />
      </Fieldset>
      <div className="flex flex-wrap gap-4">
        <NumberSettings settings={SURGE_NUMBERS} draft={draft} set={set} error={error} />
      </div>
    </Panel>
  );
}

/** "From" or "To", named with its shift for screen readers ("Shift 2 from"). */
function ShiftLabel({ index, text }: { index: number; text: string }) {
  return (
    <>
      <span className="sr-only">Shift {index + 1} </span>
      {text}
    </>
  );
}

/** The signed-in moderator's own choice to receive the queue-age e-mail (saved at once, audited). */
function AlertSubscription({ subscribed }: { subscribed: boolean }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const toggle = useMutation(
    trpc.moderationSurges.setAlertSubscription.mutationOptions({
      onSuccess: async () => {
        await queryClient.invalidateQueries({ queryKey: trpc.moderationSurges.pathKey() });
      },
    }),
  );
  return (
    <Panel title="My queue-age e-mails" padded>
      <Checkbox
        label="Send me the queue-age e-mail of this publication"
        checked={subscribed}
        disabled={toggle.isPending}
        onChange={(e) => toggle.mutate({ subscribed: e.target.checked })}
      />
      <ErrorAlert error={toggle.error} />
    </Panel>
  );
}
