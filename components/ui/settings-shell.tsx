"use client";

/**
 * The frame of a settings form. `SettingsLoader` loads the saved settings and keeps the "Saved"
 * note while the editor inside it remounts (after a save that changes its key); `SettingsFormShell`
 * is the editor's form: its fields, then the save's problems, the note and the save button.
 *
 *   <SettingsLoader query={query} what="paywall meter" editorKey={(view) => view.updatedAt}>
 *     {(editor) => <Editor {...editor} />}
 *   </SettingsLoader>
 */
import { Fragment, useState, type ComponentProps, type Key, type ReactNode } from "react";

import { Alert, ErrorAlert } from "./alert";
import { Button, type ButtonSize } from "./button";
import { FormActions } from "./form-field";
import { LoadState } from "./load-state";
import type { ServerErrors } from "./server-errors";

/**
 * What a settings form's editor is given: the saved view, and the "Saved" note (the fields the
 * save changed, or `true` where the note does not name them), kept by the loader around it.
 */
export type SettingsEditorProps<View, Saved = string[]> = {
  view: View;
  saved: Saved | null;
  setSaved: (saved: Saved | null) => void;
};

export function SettingsLoader<View, Saved = string[]>({
  query,
  what,
  editorKey,
  children,
}: {
  query: { data: View | undefined; isPending: boolean; error: { message: string } | null; refetch?: () => unknown };
  /** "moderation settings": in "Loading moderation settings…". */
  what: string;
  /** The editor is mounted again when this changes (the saved values after a save); none: mounted once. */
  editorKey?: (view: View) => Key;
  children: (editor: SettingsEditorProps<View, Saved>) => ReactNode;
}) {
  const [saved, setSaved] = useState<Saved | null>(null);
  const view = query.data;
  return (
    <div className="space-y-6">
      <LoadState query={query} what={what} />
      {view !== undefined ? <Fragment key={editorKey?.(view)}>{children({ view, saved, setSaved })}</Fragment> : null}
    </div>
  );
}

export function SettingsFormShell({
  onSave,
  errors,
  saving,
  savedNote,
  savedTestId,
  saveLabel,
  saveSize,
  canSave = true,
  className = "space-y-6",
  children,
  ...form
}: Omit<ComponentProps<"form">, "onSubmit"> & {
  /** Runs on submit (the default is prevented): checks the draft and starts the save. */
  onSave: () => void;
  /** The save's problems (useSettingsDraft's `errors`). */
  errors: ServerErrors<string>;
  saving: boolean;
  /** Shown once saved; null: nothing to say. */
  savedNote: ReactNode | null;
  savedTestId?: string;
  /** The save button's text ("Save meter"). */
  saveLabel: ReactNode;
  saveSize?: ButtonSize;
  /** False: no save button (a reader of the settings who may not change them). */
  canSave?: boolean;
  "data-testid"?: string;
}) {
  return (
    <form
      className={className}
      {...form}
      onSubmit={(event) => {
        event.preventDefault();
        onSave();
      }}
    >
      {children}
      <ErrorAlert errors={errors} />
      {savedNote !== null ? (
        <Alert tone="success" data-testid={savedTestId}>
          {savedNote}
        </Alert>
      ) : null}
      {canSave ? (
        <FormActions>
          <Button type="submit" variant="primary" size={saveSize} loading={saving} loadingText="Saving…">
            {saveLabel}
          </Button>
        </FormActions>
      ) : null}
    </form>
  );
}
