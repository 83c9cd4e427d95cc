"use client";

/** An automated collection's rules: sections, authors, tag slugs, story templates and the sort. */
import { useMutation, useQuery } from "@tanstack/react-query";
import { useState } from "react";

import { useTRPC } from "@/components/trpc/react";
import type { RouterOutputs } from "@/components/trpc/types";
import { Button, Checkbox, ErrorAlert, Fieldset, FormField, Input, Select } from "@/components/ui";
import { type COLLECTION_SORTS, type TCollectionRules } from "@/server/publishing/editorial/organise.schema";

type Detail = RouterOutputs["organise"]["collections"]["get"];

function splitList(text: string): string[] {
  return text
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
}

/** Checkboxes for several ids out of a list. */
function IdChoices({
  legend,
  choices,
  chosen,
  onChange,
}: {
  legend: string;
  choices: readonly { id: number; label: string }[];
  chosen: number[];
  onChange: (chosen: number[]) => void;
}) {
  return (
    <Fieldset legend={legend}>
      <div className="grid max-h-48 gap-1 overflow-y-auto sm:grid-cols-2">
        {choices.map((choice) => (
          <Checkbox
            key={choice.id}
            label={choice.label}
            checked={chosen.includes(choice.id)}
            onChange={(e) =>
              onChange(e.target.checked ? [...chosen, choice.id] : chosen.filter((id) => id !== choice.id))
            }
          />
        ))}
      </div>
    </Fieldset>
  );
}

export function RulesEditor({ collection, onSaved }: { collection: Detail; onSaved: () => Promise<unknown> }) {
  const trpc = useTRPC();
  const sections = useQuery(trpc.organise.sections.list.queryOptions());
  const authors = useQuery(trpc.organise.authors.list.queryOptions({ limit: 200 }));
  const rules = collection.rules;
  const [sectionIds, setSectionIds] = useState<number[]>(rules["section-ids"] ?? []);
  const [authorIds, setAuthorIds] = useState<number[]>(rules["author-ids"] ?? []);
  const [tagSlugs, setTagSlugs] = useState((rules["tag-slugs"] ?? []).join(", "));
  const [templates, setTemplates] = useState((rules["story-templates"] ?? []).join(", "));
  const [sort, setSort] = useState<(typeof COLLECTION_SORTS)[number]>(rules.sort ?? "published-at");
  const update = useMutation(trpc.organise.collections.update.mutationOptions({ onSuccess: onSaved }));

  return (
    <form
      className="space-y-4 px-4 py-4"
      onSubmit={(event) => {
        event.preventDefault();
        const next: TCollectionRules = { sort };
        if (sectionIds.length) next["section-ids"] = sectionIds;
        if (authorIds.length) next["author-ids"] = authorIds;
        if (splitList(tagSlugs).length) next["tag-slugs"] = splitList(tagSlugs);
        if (splitList(templates).length) next["story-templates"] = splitList(templates);
        update.mutate({ id: collection.id, automated: true, rules: next });
      }}
    >
      <p className="text-sm text-gray-600">
        Published stories that match every rule you fill in (any of the values within a rule), newest first.
      </p>
      <IdChoices
        legend="Sections"
        chosen={sectionIds}
        onChange={setSectionIds}
        choices={(sections.data ?? []).map((s) => ({ id: s.id, label: `${"— ".repeat(s.depth)}${s.displayName}` }))}
      />
      <IdChoices
        legend="Authors"
        chosen={authorIds}
        onChange={setAuthorIds}
        choices={(authors.data?.authors ?? []).map((a) => ({ id: a.id, label: a.name }))}
      />
      <div className="grid gap-4 sm:grid-cols-3">
        <FormField label="Tag slugs" hint="Comma-separated, e.g. cricket, ipl">
          <Input value={tagSlugs} onChange={(e) => setTagSlugs(e.target.value)} className="font-mono" />
        </FormField>
        <FormField label="Story templates" hint="Comma-separated, e.g. video, live-blog">
          <Input value={templates} onChange={(e) => setTemplates(e.target.value)} />
        </FormField>
        <FormField label="Sort by">
          <Select
            value={sort}
            onChange={(e) => setSort(e.target.value as (typeof COLLECTION_SORTS)[number])}
            options={[
              { value: "published-at", label: "First published" },
              { value: "last-published-at", label: "Last published" },
            ]}
          />
        </FormField>
      </div>
      <ErrorAlert error={update.error} />
      <Button type="submit" variant="primary" loading={update.isPending} loadingText="Saving…">
        Save rules
      </Button>
    </form>
  );
}
