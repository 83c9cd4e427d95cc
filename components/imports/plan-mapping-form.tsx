"use client";

/**
 * The plan mapping of a subscriptions CSV or a Ghost members file (the command line's `--plans`):
 * each old plan (or complimentary tier) the dry run found, with its rows, matched to one of the
 * account's plans or left undecided (its rows are refused). Saving keeps it with the upload and
 * runs the dry run again (tRPC imports.setPlanMapping), so the report the owner imports from is
 * the mapped one.
 */
import { useMutation, useQuery } from "@tanstack/react-query";
import { useState } from "react";

import { useTRPC } from "@/components/trpc/react";
import { Button, ErrorAlert, FormActions, LoadState, Select } from "@/components/ui";
import type { TImportUploadView } from "@/server/imports/dashboard/dashboard.schema";

import { formatCount } from "./import-report";

const UNDECIDED = "";

export function PlanMappingForm({
  upload,
  oldPlans,
  onChanged,
}: {
  upload: TImportUploadView;
  oldPlans: readonly { plan: string; rows: number }[];
  onChanged: () => Promise<void>;
}) {
  const trpc = useTRPC();
  const choices = useQuery(trpc.imports.planChoices.queryOptions());
  const save = useMutation(trpc.imports.setPlanMapping.mutationOptions({ onSuccess: onChanged }));
  const [chosen, setChosen] = useState<ReadonlyMap<string, string>>(
    () => new Map((upload.options.plans ?? []).map((p) => [p.old, p.plan === null ? UNDECIDED : String(p.plan)])),
  );
  const comps = upload.source === "ghost-members";
  const options = (choices.data ?? []).map((c) => ({ value: String(c.id), label: c.label }));

  const submit = () =>
    save.mutate({
      uploadId: upload.id,
      plans: oldPlans.map(({ plan }) => {
        const id = chosen.get(plan) ?? UNDECIDED;
        return { old: plan, plan: id === UNDECIDED ? null : Number(id) };
      }),
    });

  return (
    <section aria-labelledby={`plans-${upload.id}`} className="space-y-3" data-testid="plan-mapping">
      <h3 id={`plans-${upload.id}`} className="text-sm font-semibold text-gray-900">
        {comps ? "Complimentary tiers → your plans" : "Old plans → your plans"}
      </h3>
      <p className="text-sm text-gray-700">
        {comps
          ? "Each tier of the file's complimentary members becomes a free subscription to the plan you choose. Undecided: the plan with the tier's name, if there is one."
          : "Each plan of the old system becomes the plan you choose; rows of an undecided plan are refused. Saving checks the file again with this mapping."}
      </p>
      <LoadState query={choices} what="plans" />
      {choices.data && choices.data.length === 0 ? (
        <p className="text-sm text-gray-700">
          This account has no plans yet: add them under Subscriptions → Plans first.
        </p>
      ) : null}
      <ul className="space-y-3">
        {oldPlans.map(({ plan, rows }, i) => (
          <li key={plan} className="grid gap-1 sm:grid-cols-[minmax(0,1fr)_minmax(0,2fr)] sm:items-center sm:gap-3">
            <label htmlFor={`plan-${upload.id}-${i}`} className="text-sm break-words text-gray-900">
              <span className="font-medium">{plan}</span>{" "}
              <span className="text-gray-600">
                ({formatCount(rows)} row{rows === 1 ? "" : "s"})
              </span>
            </label>
            <Select
              id={`plan-${upload.id}-${i}`}
              value={chosen.get(plan) ?? UNDECIDED}
              onChange={(e) => setChosen(new Map(chosen).set(plan, e.target.value))}
              placeholder="Not decided yet"
              options={options}
            />
          </li>
        ))}
      </ul>
      <ErrorAlert error={save.error} />
      <FormActions>
        <Button onClick={submit} loading={save.isPending} disabled={!choices.data} data-testid="plan-mapping-save">
          Save the mapping and check again
        </Button>
      </FormActions>
    </section>
  );
}
