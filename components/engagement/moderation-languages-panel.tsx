"use client";

/**
 * The Languages panel of the moderation settings (docs/moderation.md "Languages"): says plainly,
 * per language, whether the built-in scorer scores its comments and whether a word list ships for
 * it, and lets the account choose what happens to comments it does not score and what a word of a
 * shipped list does. Part of the moderation settings form (moderation-settings-form.tsx).
 */
import { useQuery } from "@tanstack/react-query";

import { useTRPC } from "@/components/trpc/react";
import { Fieldset, Panel, RadioChoices } from "@/components/ui";
import {
  COMMENT_LANGUAGES,
  LANGUAGE_NAMES,
  SCORED_LANGUAGES,
  SHIPPED_LIST_LANGUAGES,
  type CommentLanguage,
} from "@/server/engagement/moderation/language/languages.schema";
import type { TModerationSettings } from "@/server/engagement/moderation/settings.schema";

type LanguageChoices = Pick<TModerationSettings, "unscoredLanguages" | "languageWordLists">;

const name = (language: CommentLanguage) => LANGUAGE_NAMES.get(language) ?? language;

/** What ships for a language's comments, in words. */
function wordList(language: CommentLanguage): string {
  if (language === "en") return "The scorer's own lists";
  if (language === "hi") return "Shipped, in Latin letters (romanised Hindi); none in Devanagari";
  return SHIPPED_LIST_LANGUAGES.has(language) ? "Shipped" : "None: add your own words below";
}

function CoverageTable() {
  return (
    <div
      role="region"
      aria-label="What moderation reads in each language"
      tabIndex={0}
      className="overflow-x-auto focus-visible:ring-2 focus-visible:ring-brand-600 focus-visible:outline-none"
    >
      <table className="min-w-full text-left text-sm" aria-label="What moderation reads in each language">
        <thead className="text-gray-600">
          <tr>
            <th scope="col" className="py-1 pr-4 font-medium">
              Language
            </th>
            <th scope="col" className="py-1 pr-4 font-medium">
              Toxicity scored by the built-in scorer
            </th>
            <th scope="col" className="py-1 pr-4 font-medium">
              Suspect word list
            </th>
          </tr>
        </thead>
        <tbody>
          {COMMENT_LANGUAGES.map((language) => (
            <tr key={language} className="border-t border-gray-100">
              <th scope="row" className="py-1 pr-4 font-normal">
                {language === "other" ? "Other scripts (Cyrillic, Chinese…)" : name(language)}
              </th>
              <td className="py-1 pr-4">{SCORED_LANGUAGES.has(language) ? "Yes" : "No"}</td>
              <td className="py-1 pr-4">{wordList(language)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function LanguagesPanel({
  draft,
  set,
  error,
}: {
  draft: LanguageChoices;
  set: (patch: Partial<LanguageChoices>) => void;
  error: (field: keyof LanguageChoices) => string | undefined;
}) {
  const trpc = useTRPC();
  // Whether the operator configured an external scorer (the Scoring page says the same).
  const overview = useQuery(trpc.scoring.overview.queryOptions());
  const host = overview.data?.settings.externalScorerHost ?? null;
  const unscored = COMMENT_LANGUAGES.filter((l) => !SCORED_LANGUAGES.has(l) && l !== "other").map(name);
  return (
    <Panel title="Languages" padded>
      <p className="text-sm text-gray-600">
        The built-in scorer reads English only. Comments in {unscored.join(", ")} or another script are not scored for
        toxicity by it: what it finds in them (a few common insults and spam signs) still counts, but a low score there
        means nothing. Links, phone numbers, repeated text and your own banned words work in every language.
      </p>
      <CoverageTable />
      <Fieldset legend="Comments in a language the built-in scorer does not score" error={error("unscoredLanguages")}>
        <RadioChoices
          value={draft.unscoredLanguages}
          options={[
            { value: "publish", label: "Publish them unscored" },
            { value: "pre_moderate", label: "Hold them for a moderator" },
            {
              value: "external",
              label: host
                ? `Score them with the external scorer (${host}); hold them when it cannot answer`
                : "Score them with the external scorer (none is configured on this server)",
            },
          ]}
          onChange={(unscoredLanguages) => set({ unscoredLanguages })}
        />
      </Fieldset>
      <Fieldset
        legend="A word of the shipped list of the comment's language (Spanish, French, German, Portuguese, Arabic, romanised Hindi)"
        error={error("languageWordLists")}
      >
        <RadioChoices
          value={draft.languageWordLists}
          options={[
            { value: "flag", label: "Publish and put it in the Reported tab" },
            { value: "hold", label: "Hold it for a moderator" },
            { value: "off", label: "Do nothing" },
          ]}
          onChange={(languageWordLists) => set({ languageWordLists })}
        />
      </Fieldset>
    </Panel>
  );
}
