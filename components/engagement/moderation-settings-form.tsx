"use client";

/**
 * The moderation settings (moderation.settings, moderation.updateSettings): mode, toxicity
 * threshold, banned and suspect words (three pasted lists), links from readers without trust, guest and
 * confidential comments, the rules before publishing, and languages (moderation-languages-panel.tsx). Checked with
 * the same zod schema as the server before sending.
 */
import { useMutation, useQuery } from "@tanstack/react-query";

import { LanguagesPanel } from "@/components/engagement/moderation-languages-panel";
import { useTRPC } from "@/components/trpc/react";
import {
  Checkbox,
  Fieldset,
  FormField,
  numbersAsText,
  NumberSettings,
  numbersFromText,
  Panel,
  RadioChoices,
  savedNote,
  SettingsFormShell,
  SettingsLoader,
  Textarea,
  useOnSaved,
  useSettingsDraft,
  type DraftPanelProps,
  type NumberSetting,
  type SettingsEditorProps,
} from "@/components/ui";
import {
  BANNED_WORDS_MAX,
  pastedListOf,
  wordInTwoLists,
  wordsOfPastedList,
  ZModerationSettings,
  type TBannedWord,
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
  "preModerateUntilApproved",
  "trustRejectionRate",
  "trustWindowDays",
  "trustMinDecisions",
  "repeatedPostWindowMinutes",
  "holdDisposableEmails",
  "editWindowMinutes",
  "unscoredLanguages",
  "languageWordLists",
] as const;

/** Each field as the saved note says it. */
const FIELD_LABELS: Record<(typeof FIELDS)[number], string> = {
  mode: "how comments are published",
  toxicityThreshold: "toxicity threshold",
  bannedWords: "banned and suspect words",
  holdLinksFromNewReaders: "links from readers without trust",
  guestCommentsAllowed: "guest comments",
  confidentialCommentsAllowed: "confidential comments",
  preModerateUntilApproved: "pre-moderation of new readers",
  trustRejectionRate: "rejection rate that loses trust",
  trustWindowDays: "trust window",
  trustMinDecisions: "decisions before trust is judged",
  repeatedPostWindowMinutes: "repeated posts",
  holdDisposableEmails: "disposable e-mail addresses",
  editWindowMinutes: "edit window",
  unscoredLanguages: "comments the built-in scorer does not score",
  languageWordLists: "shipped word lists",
};

/** The whole-number fields, typed as text in the form. */
const NUMBERS = [
  "toxicityThreshold",
  "preModerateUntilApproved",
  "trustRejectionRate",
  "trustWindowDays",
  "trustMinDecisions",
  "repeatedPostWindowMinutes",
  "editWindowMinutes",
] as const;
type NumberField = (typeof NUMBERS)[number];

export function ModerationSettingsForm() {
  const trpc = useTRPC();
  return (
    // Mounted once: remounting on each refetch (keyed by updatedAt) threw away what a moderator
    // typed between a save and the refetch that followed it.
    <SettingsLoader<TModerationSettingsView>
      query={useQuery(trpc.moderation.settings.queryOptions())}
      what="moderation settings"
    >
      {(editor) => <Editor {...editor} />}
    </SettingsLoader>
  );
}

/** The banned and suspect words, edited as three pasted lists (banned-words.ts). */
const WORD_LISTS = [
  {
    action: "reject",
    field: "rejectWords",
    label: "Refuse",
    hint: "The comment is refused; the reader is told it contains language the publication does not accept.",
  },
  { action: "hold", field: "holdWords", label: "Hold", hint: "The comment waits for a moderator." },
  {
    action: "flag",
    field: "flagWords",
    label: "Suspect (flag only)",
    hint: "The comment is published and waits in the Reported tab until a moderator decides.",
  },
] as const satisfies readonly { action: TBannedWord["action"]; field: string; label: string; hint: string }[];
type WordListField = (typeof WORD_LISTS)[number]["field"];

type Draft = Omit<TModerationSettings, NumberField | "bannedWords"> &
  Record<NumberField, string> &
  Record<WordListField, string>;

/** The three pasted lists as the settings' one list of words with their action. */
function bannedWordsOf(draft: Draft): TBannedWord[] {
  return WORD_LISTS.flatMap((list) =>
    wordsOfPastedList(draft[list.field]).map((word) => ({ word, action: list.action })),
  );
}

type Field = (typeof FIELDS)[number];

type PanelProps = DraftPanelProps<Draft, Field>;

function Editor({ view, saved, setSaved }: SettingsEditorProps<TModerationSettingsView>) {
  const trpc = useTRPC();
  const save = useMutation(
    trpc.moderation.updateSettings.mutationOptions({ onSuccess: useOnSaved(setSaved, trpc.moderation.pathKey()) }),
  );
  const { draft, set, errors, error, check } = useSettingsDraft<Draft, Field>({
    initial: {
      mode: view.mode,
      ...numbersAsText(view, NUMBERS),
      rejectWords: pastedListOf(view.bannedWords, "reject"),
      holdWords: pastedListOf(view.bannedWords, "hold"),
      flagWords: pastedListOf(view.bannedWords, "flag"),
      holdLinksFromNewReaders: view.holdLinksFromNewReaders,
      guestCommentsAllowed: view.guestCommentsAllowed,
      confidentialCommentsAllowed: view.confidentialCommentsAllowed,
      holdDisposableEmails: view.holdDisposableEmails,
      unscoredLanguages: view.unscoredLanguages,
      languageWordLists: view.languageWordLists,
    },
    fields: FIELDS,
    serverError: save.error,
    onEdit: () => setSaved(null),
  });

  const bannedWords = bannedWordsOf(draft);
  // Said as soon as it happens, and nothing is sent while it does.
  const clash = wordInTwoLists(WORD_LISTS.map((list) => ({ name: list.label, text: draft[list.field] })));
  const listProblem = clash
    ? `“${clash.word}” is in two lists (${clash.lists[0]} and ${clash.lists[1]}): keep it in one.`
    : error("bannedWords");
  const panel = { draft, set, error };

  return (
    <SettingsFormShell
      onSave={() => {
        if (clash) return;
        const { rejectWords: _r, holdWords: _h, flagWords: _f, ...rest } = draft;
        const input = {
          ...rest,
          ...numbersFromText(draft, NUMBERS),
          bannedWords,
        };
        // A word's problem says which word it is.
        const checked = check(ZModerationSettings, input, (path) =>
          path.length > 1 ? `: “${input.bannedWords[Number(path[1])]?.word ?? ""}”` : "",
        );
        if (checked !== null) save.mutate(checked);
      }}
      errors={errors}
      saving={save.isPending}
      savedNote={saved ? savedNote(saved, FIELD_LABELS) : null}
      saveLabel="Save settings"
    >
      <PublishingPanel {...panel} />
      <RulesPanel {...panel} />
      <LanguagesPanel {...panel} />
      <WordListsPanel draft={draft} set={set} count={bannedWords.length} problem={listProblem} />
    </SettingsFormShell>
  );
}

type CheckboxField =
  "holdLinksFromNewReaders" | "guestCommentsAllowed" | "confidentialCommentsAllowed" | "holdDisposableEmails";

/** Yes-or-no settings, each a checkbox with its label. */
function Checkboxes({
  draft,
  set,
  labels,
}: Omit<PanelProps, "error"> & { labels: readonly (readonly [CheckboxField, string])[] }) {
  return labels.map(([field, label]) => (
    <Checkbox key={field} label={label} checked={draft[field]} onChange={(e) => set({ [field]: e.target.checked })} />
  ));
}

function PublishingPanel({ draft, set, error }: PanelProps) {
  return (
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
      <NumberSettings settings={THRESHOLD} draft={draft} set={set} error={error} />
      <Checkboxes draft={draft} set={set} labels={PUBLISHING_CHECKBOXES} />
    </Panel>
  );
}

const THRESHOLD: readonly NumberSetting<NumberField>[] = [
  {
    field: "toxicityThreshold",
    label: "Toxicity threshold",
    hint: "Comments scoring at least this (1 to 100) wait for a moderator. The default is 70.",
    min: 1,
    max: 100,
  },
];

const PUBLISHING_CHECKBOXES = [
  [
    "holdLinksFromNewReaders",
    "Hold comments with links from readers without trust (new, still awaiting approvals, or often rejected)",
  ],
  ["guestCommentsAllowed", "Allow guest comments (not served yet)"],
  ["confidentialCommentsAllowed", "Allow confidential comments (author not shown)"],
] as const;

/** The rules before publishing, in the panel's order (the two of the trust window side by side). */
const RULES = {
  newReaders: [
    {
      field: "preModerateUntilApproved",
      label: "Pre-moderate new readers until this many of their comments are published",
      hint: "0: off. A reader's comments wait for a moderator until they have this many published comments.",
      min: 0,
      max: 100,
    },
    {
      field: "trustRejectionRate",
      label: "Hold readers whose comments were rejected at least this often (percent)",
      hint: "0: off. Counted over the moderators' decisions on the reader's comments in the window below.",
      min: 0,
      max: 100,
    },
  ],
  trustWindow: [
    { field: "trustWindowDays", label: "Window (days)", hint: "1 to 365.", min: 1, max: 365 },
    {
      field: "trustMinDecisions",
      label: "Only after this many decisions",
      hint: "1 to 1,000.",
      min: 1,
      max: 1000,
    },
  ],
  repeats: [
    {
      field: "repeatedPostWindowMinutes",
      label: "Hold the same text posted on another page within (minutes) as spam",
      hint: "0: off. Compared ignoring case, accents and punctuation; texts under 20 letters are never repeats.",
      min: 0,
      max: 10080,
    },
  ],
  editWindow: [
    {
      field: "editWindowMinutes",
      label: "Readers may edit a comment for (minutes)",
      hint: "0: no limit. The comment widget tells the reader how long is left.",
      min: 0,
      max: 10080,
    },
  ],
} as const satisfies Record<string, readonly NumberSetting<NumberField>[]>;

function RulesPanel({ draft, set, error }: PanelProps) {
  const numbers = { draft, set, error };
  return (
    <Panel title="Rules before publishing" padded>
      <p className="text-sm text-gray-600">
        Each rule holds a comment for a moderator, with its reason. 0 turns a rule off.
      </p>
      <NumberSettings settings={RULES.newReaders} {...numbers} />
      <div className="flex flex-wrap gap-4">
        <NumberSettings settings={RULES.trustWindow} {...numbers} />
      </div>
      <NumberSettings settings={RULES.repeats} {...numbers} />
      <Checkboxes
        draft={draft}
        set={set}
        labels={[["holdDisposableEmails", "Hold comments from readers with a disposable e-mail address"]]}
      />
      <NumberSettings settings={RULES.editWindow} {...numbers} />
    </Panel>
  );
}

function WordListsPanel({
  draft,
  set,
  count,
  problem,
}: Omit<PanelProps, "error"> & { count: number; problem: string | undefined }) {
  return (
    <Panel title={`Banned and suspect words (${count})`} padded>
      <p className="text-sm text-gray-600">
        Paste one word or phrase per line (commas also separate). Matched as whole words in any script and any case,
        with accents (of Latin letters) and look-alike digits read as letters; Arabic words also with the article or
        &ldquo;and&rdquo; written onto them. At most {BANNED_WORDS_MAX} words in all.
      </p>
      {problem ? (
        <p className="text-sm text-red-700" data-testid="field-error" role="alert">
          {problem}
        </p>
      ) : null}
      <div className="grid gap-4 lg:grid-cols-3">
        {WORD_LISTS.map((list) => (
          <FormField
            key={list.action}
            label={`${list.label} (${wordsOfPastedList(draft[list.field]).length})`}
            hint={list.hint}
          >
            <Textarea
              rows={8}
              spellCheck={false}
              value={draft[list.field]}
              onChange={(e) => set({ [list.field]: e.target.value })}
            />
          </FormField>
        ))}
      </div>
    </Panel>
  );
}
