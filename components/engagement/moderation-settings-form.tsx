"use client";

/**
 * The moderation settings (moderation.settings, moderation.updateSettings): mode, toxicity
 * threshold, banned words with their action, links from new readers, guest and confidential
 * comments. Checked with the same zod schema as the server before sending.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";

import { useTRPC } from "@/components/trpc/react";
import {
  Alert,
  Button,
  Checkbox,
  ErrorAlert,
  Fieldset,
  FormActions,
  FormField,
  Input,
  LoadState,
  Panel,
  RadioChoices,
  Select,
  useSettingsDraft,
  WholeNumberInput,
} from "@/components/ui";
import {
  BANNED_WORDS_MAX,
  ZModerationSettings,
  type TModerationSettings,
  type TModerationSettingsView,
} from "@/server/engagement/moderation/settings.schema";

const FIELDS = [
  "mode",
  "toxicityThreshold",
  "bannedWords",
  "holdLinksFromNewReaders",
  "guestCommentsAllowed",
  "confidentialCommentsAllowed",
] as const;

export function ModerationSettingsForm() {
  const trpc = useTRPC();
  const query = useQuery(trpc.moderation.settings.queryOptions());
  const [saved, setSaved] = useState<string[] | null>(null);
  return (
    <div className="space-y-6">
      <LoadState query={query} what="moderation settings" />
      {query.data ? (
        // Mounted once: remounting on each refetch (keyed by updatedAt) threw away what a moderator
        // typed between a save and the refetch that followed it.
        <Editor view={query.data} saved={saved} setSaved={setSaved} />
      ) : null}
    </div>
  );
}

type Draft = Omit<TModerationSettings, "toxicityThreshold"> & { toxicityThreshold: string };

function Editor({
  view,
  saved,
  setSaved,
}: {
  view: TModerationSettingsView;
  saved: string[] | null;
  setSaved: (changed: string[] | null) => void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const save = useMutation(
    trpc.moderation.updateSettings.mutationOptions({
      onSuccess: async (result) => {
        setSaved(result.changed);
        await queryClient.invalidateQueries({ queryKey: trpc.moderation.pathKey() });
      },
    }),
  );
  const { draft, set, errors, error, check } = useSettingsDraft<Draft, (typeof FIELDS)[number]>({
    initial: {
      mode: view.mode,
      toxicityThreshold: String(view.toxicityThreshold),
      bannedWords: view.bannedWords,
      holdLinksFromNewReaders: view.holdLinksFromNewReaders,
      guestCommentsAllowed: view.guestCommentsAllowed,
      confidentialCommentsAllowed: view.confidentialCommentsAllowed,
    },
    fields: FIELDS,
    serverError: save.error,
    onEdit: () => setSaved(null),
  });

  return (
    <form
      className="space-y-6"
      onSubmit={(event) => {
        event.preventDefault();
        const input = { ...draft, toxicityThreshold: Number(draft.toxicityThreshold) };
        // A banned word's problem says which word it is.
        const checked = check(ZModerationSettings, input, (path) =>
          path.length > 1 ? ` (word ${Number(path[1]) + 1})` : "",
        );
        if (checked !== null) save.mutate(checked);
      }}
    >
      <Panel title="How comments are published" padded>
        <Fieldset legend="Mode" error={error("mode")}>
          <RadioChoices
            value={draft.mode}
            options={[
              { value: "post_moderation", label: "Publish at once unless moderation holds them" },
              { value: "pre_moderation", label: "Hold every comment for a moderator" },
            ]}
            onChange={(mode) => set({ mode })}
          />
        </Fieldset>
        <FormField
          label="Toxicity threshold"
          hint="Comments scoring at least this (1 to 100) wait for a moderator. The default is 70."
          error={error("toxicityThreshold")}
        >
          <WholeNumberInput
            min={1}
            max={100}
            value={draft.toxicityThreshold}
            onChange={(e) => set({ toxicityThreshold: e.target.value })}
          />
        </FormField>
        <Checkbox
          label="Hold comments with links from new readers"
          checked={draft.holdLinksFromNewReaders}
          onChange={(e) => set({ holdLinksFromNewReaders: e.target.checked })}
        />
        <Checkbox
          label="Allow guest comments (not served yet)"
          checked={draft.guestCommentsAllowed}
          onChange={(e) => set({ guestCommentsAllowed: e.target.checked })}
        />
        <Checkbox
          label="Allow confidential comments (author not shown)"
          checked={draft.confidentialCommentsAllowed}
          onChange={(e) => set({ confidentialCommentsAllowed: e.target.checked })}
        />
      </Panel>

      <Panel
        title={`Banned words (${draft.bannedWords.length})`}
        padded
        actions={
          <Button
            size="sm"
            disabled={draft.bannedWords.length >= BANNED_WORDS_MAX}
            onClick={() => set({ bannedWords: [...draft.bannedWords, { word: "", action: "hold" }] })}
          >
            Add a word
          </Button>
        }
      >
        <p className="text-sm text-gray-600">
          Matched as whole words, in any case, with accents and look-alike digits read as letters. “Reject” refuses the
          comment (the reader is told it contains language the publication does not accept); “hold” keeps it for a
          moderator.
        </p>
        {error("bannedWords") ? (
          <p className="text-xs text-red-700" data-testid="field-error">
            {error("bannedWords")}
          </p>
        ) : null}
        {draft.bannedWords.length ? (
          <ul className="space-y-2">
            {draft.bannedWords.map((entry, index) => (
              <li key={index} className="flex flex-wrap items-end gap-2">
                <div className="min-w-40 flex-1">
                  <label className="sr-only" htmlFor={`banned-word-${index}`}>
                    Banned word {index + 1}
                  </label>
                  <Input
                    id={`banned-word-${index}`}
                    compact
                    value={entry.word}
                    maxLength={100}
                    onChange={(e) =>
                      set({
                        bannedWords: draft.bannedWords.map((w, i) =>
                          i === index ? { ...w, word: e.target.value } : w,
                        ),
                      })
                    }
                  />
                </div>
                <label className="sr-only" htmlFor={`banned-action-${index}`}>
                  Action for banned word {index + 1}
                </label>
                <Select
                  id={`banned-action-${index}`}
                  compact
                  fit
                  value={entry.action}
                  onChange={(e) =>
                    set({
                      bannedWords: draft.bannedWords.map((w, i) =>
                        i === index ? { ...w, action: e.target.value === "reject" ? "reject" : "hold" } : w,
                      ),
                    })
                  }
                >
                  <option value="hold">Hold</option>
                  <option value="reject">Reject</option>
                </Select>
                <Button
                  size="sm"
                  variant="danger"
                  aria-label={`Remove banned word ${index + 1}`}
                  onClick={() => set({ bannedWords: draft.bannedWords.filter((_, i) => i !== index) })}
                >
                  Remove
                </Button>
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-sm text-gray-600">No banned words.</p>
        )}
      </Panel>

      <ErrorAlert errors={errors} />
      {saved ? <Alert tone="success">{saved.length ? `Saved: ${saved.join(", ")}.` : "Nothing changed."}</Alert> : null}
      <FormActions>
        <Button type="submit" variant="primary" loading={save.isPending} loadingText="Saving…">
          Save settings
        </Button>
      </FormActions>
    </form>
  );
}
