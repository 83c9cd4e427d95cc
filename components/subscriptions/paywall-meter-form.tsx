"use client";

/**
 * The paywall meter (paywallMeter.get, paywallMeter.update; REVENUE staff): free stories per
 * calendar period (UTC) before the paywall, whether readers without a login are metered, and
 * the registration wall (free sign-up after its own count of free stories). Checked with the server's zod schema before sending.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";

import { useTRPC } from "@/components/trpc/react";
import {
  Alert,
  Button,
  Checkbox,
  ErrorAlert,
  FormActions,
  FormField,
  LoadState,
  Panel,
  Select,
  useSettingsDraft,
  WholeNumberInput,
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
  const query = useQuery(trpc.paywallMeter.get.queryOptions());
  // Kept here: a save refetches the settings and remounts the editor (its key is updatedAt).
  const [saved, setSaved] = useState(false);
  return (
    <div className="space-y-6">
      <LoadState query={query} what="paywall meter" />
      {query.data ? (
        <Editor key={query.data.updatedAt ?? "new"} view={query.data} saved={saved} setSaved={setSaved} />
      ) : null}
    </div>
  );
}

type Draft = Omit<TMeterSettingsInput, "freeStories" | "periodLength" | "registrationFreeStories"> & {
  freeStories: string;
  periodLength: string;
  registrationFreeStories: string;
};

function Editor({
  view,
  saved,
  setSaved,
}: {
  view: TMeterSettingsView;
  saved: boolean;
  setSaved: (saved: boolean) => void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const save = useMutation(
    trpc.paywallMeter.update.mutationOptions({
      onSuccess: async () => {
        setSaved(true);
        await queryClient.invalidateQueries({ queryKey: trpc.paywallMeter.pathKey() });
      },
    }),
  );
  const { draft, set, errors, error, check } = useSettingsDraft<Draft, (typeof FIELDS)[number]>({
    initial: {
      enabled: view.enabled,
      freeStories: String(view.freeStories),
      periodLength: String(view.periodLength),
      periodUnit: view.periodUnit,
      meterAnonymous: view.meterAnonymous,
      registrationWall: view.registrationWall,
      registrationFreeStories: String(view.registrationFreeStories),
    },
    fields: FIELDS,
    serverError: save.error,
    onEdit: () => setSaved(false),
  });

  return (
    <form
      noValidate
      className="space-y-6"
      data-testid="paywall-meter-form"
      onSubmit={(event) => {
        event.preventDefault();
        const checked = check(ZMeterSettingsInput, {
          ...draft,
          freeStories: Number(draft.freeStories),
          periodLength: Number(draft.periodLength),
          registrationFreeStories: Number(draft.registrationFreeStories),
        });
        if (checked !== null) save.mutate(checked);
      }}
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
      <ErrorAlert errors={errors} />
      {saved ? <Alert tone="success">Saved: the next page view uses these settings.</Alert> : null}
      <FormActions>
        <Button type="submit" variant="primary" loading={save.isPending} loadingText="Saving…">
          Save meter
        </Button>
      </FormActions>
    </form>
  );
}
