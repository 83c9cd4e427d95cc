"use client";

/**
 * The paywall meter (paywallMeter.get, paywallMeter.update; REVENUE staff): free stories per
 * calendar period (UTC) before the paywall, whether readers without a login are metered, and
 * the registration wall (free sign-up after its own count of free stories). Checked with the server's zod schema before sending.
 */
import { useMutation, useQuery } from "@tanstack/react-query";

import { useTRPC } from "@/components/trpc/react";
import {
  Alert,
  Checkbox,
  FormField,
  numbersAsText,
  numbersFromText,
  Panel,
  Select,
  SettingsFormShell,
  SettingsLoader,
  useSettingsDraft,
  useThenRefetch,
  WholeNumberInput,
  type SettingsEditorProps,
} from "@/components/ui";
import {
  ZMeterSettingsInput,
  type TMeterSettingsInput,
  type TMeterSettingsView,
} from "@/server/subscriptions/access/access.schema";

const FIELDS = [
  "enabled",
  "freeStories",
  "periodLength",
  "periodUnit",
  "meterAnonymous",
  "registrationWall",
  "registrationFreeStories",
] as const;

export function PaywallMeterForm() {
  const trpc = useTRPC();
  // A save refetches the settings and remounts the editor (its key is updatedAt).
  return (
    <SettingsLoader<TMeterSettingsView, true>
      query={useQuery(trpc.paywallMeter.get.queryOptions())}
      what="paywall meter"
      editorKey={(view) => view.updatedAt ?? "new"}
    >
      {(editor) => <Editor {...editor} />}
    </SettingsLoader>
  );
}

/** The whole-number fields, typed as text in the form. */
const NUMBERS = ["freeStories", "periodLength", "registrationFreeStories"] as const;
type Draft = Omit<TMeterSettingsInput, (typeof NUMBERS)[number]> & Record<(typeof NUMBERS)[number], string>;

function Editor({ view, saved, setSaved }: SettingsEditorProps<TMeterSettingsView, true>) {
  const trpc = useTRPC();
  const save = useMutation(
    trpc.paywallMeter.update.mutationOptions({
      onSuccess: useThenRefetch(() => setSaved(true), trpc.paywallMeter.pathKey()),
    }),
  );
  const { draft, set, errors, error, check } = useSettingsDraft<Draft, (typeof FIELDS)[number]>({
    initial: {
      enabled: view.enabled,
      periodUnit: view.periodUnit,
      meterAnonymous: view.meterAnonymous,
      registrationWall: view.registrationWall,
      ...numbersAsText(view, NUMBERS),
    },
    fields: FIELDS,
    serverError: save.error,
    onEdit: () => setSaved(null),
  });

  return (
    <SettingsFormShell
      noValidate
      data-testid="paywall-meter-form"
      onSave={() => {
        const checked = check(ZMeterSettingsInput, { ...draft, ...numbersFromText(draft, NUMBERS) });
        if (checked !== null) save.mutate(checked);
      }}
      errors={errors}
      saving={save.isPending}
      savedNote={saved ? "Saved: the next page view uses these settings." : null}
      saveLabel="Save meter"
    >
      {!view.configured ? (
        <Alert tone="info">
          Metering is off until these settings are saved: readers without a subscription see the paywall on every
          subscription story.
        </Alert>
      ) : null}
      <Panel title="Free stories" padded>
        <Checkbox
          label="Meter the paywall (readers get free stories before it)"
          checked={draft.enabled}
          onChange={(e) => set({ enabled: e.target.checked })}
        />
        <FormField
          label="Free stories per period"
          hint="Each story counts once per period, however often it is read. 0: the paywall at once."
          error={error("freeStories")}
        >
          <WholeNumberInput
            min={0}
            max={1000}
            value={draft.freeStories}
            onChange={(e) => set({ freeStories: e.target.value })}
          />
        </FormField>
        <div className="flex flex-wrap items-end gap-3">
          <FormField
            label="Period"
            hint="Calendar periods in UTC: a month starts on the 1st, a week on Monday."
            error={error("periodLength")}
          >
            <WholeNumberInput
              min={1}
              max={366}
              className="w-24"
              value={draft.periodLength}
              onChange={(e) => set({ periodLength: e.target.value })}
            />
          </FormField>
          <FormField label="Unit" error={error("periodUnit")}>
            <Select
              fit
              value={draft.periodUnit}
              onChange={(e) => set({ periodUnit: e.target.value as Draft["periodUnit"] })}
            >
              <option value="days">days</option>
              <option value="weeks">weeks</option>
              <option value="months">months</option>
              <option value="years">years</option>
            </Select>
          </FormField>
        </div>
        <Checkbox
          label="Meter readers who are not logged in (by the reader id their browser or AMP sends)"
          checked={draft.meterAnonymous}
          onChange={(e) => set({ meterAnonymous: e.target.checked })}
        />
        <p className="text-sm text-gray-600">
          Logged-in readers are metered by their account, on every device and on AMP. Stories the front end marks
          hard-paywalled (disable-meter) are never metered: only subscribers read them.
        </p>
      </Panel>
      <Panel title="Registration wall" padded>
        <Checkbox
          label="Ask readers who are not logged in to sign up, free, before the paid wall"
          checked={draft.registrationWall}
          onChange={(e) => set({ registrationWall: e.target.checked })}
        />
        <FormField
          label="Free stories before signing up, per period"
          hint="Counted on its own meter, in the periods above. After signing up, readers get the free stories of the paid meter."
          error={error("registrationFreeStories")}
        >
          <WholeNumberInput
            min={0}
            max={1000}
            value={draft.registrationFreeStories}
            onChange={(e) => set({ registrationFreeStories: e.target.value })}
          />
        </FormField>
        <p className="text-sm text-gray-600">
          The wall offers e-mail sign-up, the social logins and your own login; readers join the newsletter only when
          they tick its box. Subscribers, public and login stories are not affected.
        </p>
      </Panel>
    </SettingsFormShell>
  );
}
