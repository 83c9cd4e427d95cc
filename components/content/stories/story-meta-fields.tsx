"use client";

/**
 * The story's placing in the editor's side column (./story-editor.tsx): sections and authors in
 * order, tags, entities, and publishing (access, template, breaking news).
 */
import { Checkbox, FormField, Input, Panel, Select, useTimeZone } from "@/components/ui";
import { STORY_TEMPLATES } from "@/server/publishing/editorial/stories.schema";

import { EntityPicker } from "./entity-picker";
import type { FormValues } from "./story-form";
import { OrderedPicker, TagPicker } from "./story-pickers";
import type { StoryDraft } from "./use-story-draft";

export function StoryMetaFields({
  draft,
  readOnly,
}: {
  draft: Pick<StoryDraft, "options" | "values" | "set" | "text" | "errors" | "current">;
  readOnly: boolean;
}) {
  const { options, values, set, text, errors, current } = draft;
  const zone = useTimeZone();
  const sections = options?.sections ?? [];
  const authors = options?.authors ?? [];
  const tags = options?.tags ?? [];
  return (
    <fieldset disabled={readOnly} className="min-w-0 space-y-6" data-testid="story-settings">
      {(
        [
          { field: "sections", title: "Sections", label: "Add a section", choices: sections, firstNote: "primary" },
          { field: "authors", title: "Authors", label: "Add an author", choices: authors, firstNote: "byline" },
        ] as const
      ).map(({ field, title, ...picker }) => (
        <Panel key={field} title={title} padded>
          <OrderedPicker {...picker} testId={field} chosen={values[field]} onChange={(chosen) => set(field, chosen)} />
        </Panel>
      ))}
      <Panel title="Tags" padded>
        <TagPicker chosen={values.tags} choices={tags} onChange={(chosen) => set("tags", chosen)} />
      </Panel>
      <Panel title="Entities" padded>
        <EntityPicker chosen={values.entities} onChange={(chosen) => set("entities", chosen)} />
      </Panel>

      <Panel title="Publishing" padded>
        <FormField
          error={errors.fields.access}
          label="Access"
          hint={
            values.access === "public"
              ? undefined
              : "Readers without access see the story down to the paywall divider in Cards."
          }
        >
          <Select value={values.access} onChange={(e) => set("access", e.target.value as FormValues["access"])}>
            <option value="public">Public: anyone</option>
            <option value="login">Login: signed-in members</option>
            <option value="subscription">Subscription: subscribers</option>
          </Select>
        </FormField>
        <FormField error={errors.fields.storyTemplate} label="Story template">
          <Select {...text("storyTemplate")}>
            <option value="">Default</option>
            {[...new Set([...STORY_TEMPLATES, ...(values.storyTemplate ? [values.storyTemplate] : [])])].map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </Select>
        </FormField>
        <Checkbox
          label="Breaking news"
          checked={values.isBreakingNews}
          onChange={(e) => set("isBreakingNews", e.target.checked)}
        />
        {values.isBreakingNews ? (
          <>
            <FormField
              error={errors.fields.breakingNewsExpiresAt}
              label="Breaking news until"
              hint={`In ${zone ?? "UTC"}.`}
              optional
            >
              <Input type="datetime-local" {...text("breakingNewsExpiresAt")} />
            </FormField>
            <FormField
              error={errors.fields.breakingNewsLinkedStoryId}
              label="Linked story id"
              optional
              hint="The story the breaking-news item links to (for example this one, or a fuller story)."
            >
              <Input
                {...text("breakingNewsLinkedStoryId")}
                placeholder={current?.id ?? "story id"}
                className="font-mono text-xs"
              />
            </FormField>
          </>
        ) : null}
      </Panel>
    </fieldset>
  );
}
