"use client";

/**
 * The options of an upload (the command line's flags, docs/migration.md), each shown for the
 * sources that take it (imports.sources `options`): the site the file's ids belong to, whether to
 * announce, the old Ghost site's address, when the file was exported, the newsletter of rows that
 * name none. The plan mapping comes after the dry run (plan-mapping-form.tsx).
 */
import { Checkbox, FormField, Input, useTimeZone } from "@/components/ui";
import { fromZonedInput } from "@/server/dates.schema";
import type { TImportOptions } from "@/server/imports/dashboard/dashboard.schema";

/** The form's values: text as typed ("" = not given). */
export type ImportOptionValues = {
  site: string;
  announce: boolean;
  ghostUrl: string;
  asOf: string;
  newsletter: string;
};

export const NO_OPTIONS: ImportOptionValues = { site: "", announce: false, ghostUrl: "", asOf: "", newsletter: "" };

/** The values the source takes, as the upload's query string (docs/api-reference.md). */
export function optionsQuery(values: ImportOptionValues, takes: readonly string[], zone: string): URLSearchParams {
  const query = new URLSearchParams();
  const given = (name: string, value: string) => takes.includes(name) && value.trim() !== "";
  if (given("site", values.site)) query.set("site", values.site.trim());
  if (takes.includes("announce") && values.announce) query.set("announce", "1");
  if (given("ghost-url", values.ghostUrl)) query.set("ghost-url", values.ghostUrl.trim());
  if (given("as-of", values.asOf)) {
    const at = fromZonedInput(values.asOf, zone);
    // A value the browser's picker would not give: sent as typed, for the server to name.
    query.set("as-of", at ? at.toISOString() : values.asOf);
  }
  if (given("newsletter", values.newsletter)) query.set("newsletter", values.newsletter.trim());
  return query;
}

/** The fields of the options `takes` names. `errors`: the server's problems by field. */
export function ImportOptionFields({
  takes,
  values,
  onChange,
  errors,
}: {
  takes: readonly string[];
  values: ImportOptionValues;
  onChange: (values: ImportOptionValues) => void;
  errors: ReadonlyMap<string, string>;
}) {
  const zone = useTimeZone() ?? "UTC";
  const set = <K extends keyof ImportOptionValues>(key: K, value: ImportOptionValues[K]) =>
    onChange({ ...values, [key]: value });
  return (
    <div className="space-y-4" data-testid="import-options">
      {takes.includes("ghost-url") ? (
        <FormField
          label="Address of the old Ghost site"
          optional
          error={errors.get("ghost-url")}
          hint="What __GHOST_URL__ in the export stands for, e.g. https://old.example.com (and its path when Ghost was in a folder). Without it: this site's URL."
        >
          <Input
            type="url"
            inputMode="url"
            value={values.ghostUrl}
            onChange={(e) => set("ghostUrl", e.target.value)}
            placeholder="https://"
          />
        </FormField>
      ) : null}
      {takes.includes("as-of") ? (
        <FormField
          label={`When the file was exported (${zone})`}
          optional
          error={errors.get("as-of")}
          hint="Statuses and access are taken as they were then: a subscription that ended after the export still counts as active at it. Without it: now."
        >
          <Input type="datetime-local" value={values.asOf} onChange={(e) => set("asOf", e.target.value)} />
        </FormField>
      ) : null}
      {takes.includes("newsletter") ? (
        <FormField
          label="Newsletter of rows that name none"
          optional
          error={errors.get("newsletter")}
          hint="The newsletter's slug, as on the Newsletters page."
        >
          <Input value={values.newsletter} onChange={(e) => set("newsletter", e.target.value)} />
        </FormField>
      ) : null}
      {takes.includes("site") ? (
        <FormField
          label="Site the file's ids belong to"
          optional
          error={errors.get("site")}
          hint="Only when the file's ids may repeat another site's already imported here: a label or the site's URL. Without it: the site the file names."
        >
          <Input value={values.site} onChange={(e) => set("site", e.target.value)} />
        </FormField>
      ) : null}
      {takes.includes("announce") ? (
        <Checkbox
          checked={values.announce}
          onChange={(e) => set("announce", e.target.checked)}
          label="Announce what is imported"
          description="Send the webhooks and e-mails a live write sends (new stories, comment replies). Off: the import is quiet and no reader is mailed."
        />
      ) : null}
    </div>
  );
}

/** The options an upload was given, in words ("" when none). */
export function optionsInWords(options: TImportOptions, formatInstant: (at: Date) => string): string {
  const words = [
    options.site ? `site ${options.site}` : null,
    options.ghostUrl ? `old Ghost site ${options.ghostUrl}` : null,
    options.asOf ? `as of ${formatInstant(new Date(options.asOf))}` : null,
    options.newsletter ? `newsletter ${options.newsletter}` : null,
    options.plans
      ? `${options.plans.filter((p) => p.plan !== null).length} of ${options.plans.length} old plans mapped`
      : null,
    options.announce ? "announced (webhooks and e-mails sent)" : "quiet",
  ];
  return words.filter(Boolean).join(" · ");
}
