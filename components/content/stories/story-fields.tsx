"use client";

/**
 * The story's own fields in the editor (./story-editor.tsx): headline, subheadline, slug and
 * summary; the cards with the paywall divider; the hero image; SEO. Read-only stories show them
 * disabled (./read-only.ts).
 */
import { useMemo } from "react";

import { FormField, Input, Panel, Textarea } from "@/components/ui";

import { CardEditor } from "./card-editor";
import { HeroImagePanel } from "./hero-image-panel";
import { adjustPaywallAt } from "./paywall-divider";
import { paywallProps } from "./paywall-divider-control";
import { StoryReadOnly } from "./read-only";
import { SeoPanel } from "./seo-panel";
import { lengthText, storyLength } from "./story-aids";
import type { StoryDraft } from "./use-story-draft";

export function StoryFields({
  draft,
  readOnly,
}: {
  draft: Pick<StoryDraft, "options" | "values" | "setValues" | "set" | "text" | "errors" | "cardIssues">;
  readOnly: boolean;
}) {
  const { options, values, setValues, set, text, errors, cardIssues } = draft;
  const length = useMemo(() => storyLength(values.cards), [values.cards]);
  const paywallDefault = options?.paywallDefaultElements ?? 1;
  return (
    <StoryReadOnly value={readOnly}>
      <fieldset disabled={readOnly} className="min-w-0 space-y-6" data-testid="story-fields">
        <Panel title="Story" padded>
          <FormField error={errors.fields.headline} label="Headline">
            <Input required maxLength={500} {...text("headline")} />
          </FormField>
          <FormField error={errors.fields.subheadline} label="Subheadline" optional>
            <Input maxLength={1000} {...text("subheadline")} />
          </FormField>
          <FormField
            error={errors.fields.slug}
            label="Slug"
            hint="Lower-case words and hyphens; left empty, it is made from the headline. Unique across the publication."
          >
            <Input maxLength={200} {...text("slug")} className="font-mono" />
          </FormField>
          <FormField error={errors.fields.summary} label="Summary" optional>
            <Textarea rows={2} maxLength={2000} {...text("summary")} />
          </FormField>
        </Panel>

        <Panel title="Cards" padded>
          <CardEditor
            cards={values.cards}
            issues={cardIssues}
            paywall={paywallProps(values, paywallDefault, (at) => set("paywallAt", at))}
            // The divider stays where the editor sees it as elements come, go and move (./paywall-divider.ts).
            onChange={(cards) =>
              setValues((v) => ({ ...v, cards, paywallAt: adjustPaywallAt(v.cards, cards, v.paywallAt) }))
            }
          />
          {errors.fields.paywallAt ? (
            <p className="mt-2 text-xs text-red-700" data-testid="paywall-error">
              Paywall divider: {errors.fields.paywallAt}
            </p>
          ) : null}
          <p className="mt-3 text-xs text-gray-600" data-testid="story-length" aria-live="off">
            {lengthText(length)}
          </p>
        </Panel>

        <Panel title="Hero image" padded>
          <HeroImagePanel values={values} setValues={setValues} text={text} />
        </Panel>

        <Panel title="SEO" padded>
          <SeoPanel values={values} siteUrl={options?.siteUrl ?? null} onChange={(key, value) => set(key, value)} />
        </Panel>
      </fieldset>
    </StoryReadOnly>
  );
}
