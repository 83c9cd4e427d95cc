"use client";

/**
 * When a save meets a newer version saved by someone else: never throw away what this editor
 * wrote. Each field that differs is shown side by side (theirs, the saved version; yours, with the
 * word diff from theirs), with a choice per field. A field only they changed since this editor's
 * version defaults to theirs, one this editor changed to yours: "Keep mine" saves your changes on
 * top of their version without undoing theirs, "Take theirs" loads theirs, and "Save my choices"
 * mixes them field by field as chosen.
 */
import { useState } from "react";

import { Alert, Button, Radio } from "@/components/ui";

import { WordDiff } from "./field-diff";
import { changedGroups, changedOnlyByThem, takeGroups, type FieldGroupKey, type FormValues } from "./story-form";
import { wordDiff } from "./word-diff";

export function ConflictView({
  base,
  mine,
  theirs,
  theirVersion,
  busy,
  onResolve,
}: {
  /** The version this editor's text started from. */
  base: FormValues;
  mine: FormValues;
  theirs: FormValues;
  theirVersion: number;
  busy: boolean;
  /** The values to save on top of their version, or null to take theirs as they are. */
  onResolve: (merged: FormValues | null) => void;
}) {
  const groups = changedGroups(theirs, mine);
  const onlyTheirs = changedOnlyByThem(base, mine, theirs);
  const byDefault = (key: FieldGroupKey) => (onlyTheirs.includes(key) ? "theirs" : "mine");
  const [choice, setChoice] = useState<Record<string, "mine" | "theirs">>({});
  const chosen = (key: FieldGroupKey) => choice[key] ?? byDefault(key);
  const mixed = groups.some((g) => chosen(g.key) !== byDefault(g.key));
  return (
    <Alert tone="warning" data-testid="story-conflict">
      <p className="font-medium">Someone else saved this story (version {theirVersion}) while you were editing.</p>
      <p className="mt-1">
        Nothing you wrote is lost: your version is below, next to theirs. &ldquo;Keep mine&rdquo; keeps your changes and
        theirs to fields you did not touch. Autosave waits until you choose.
      </p>
      {groups.length === 0 ? (
        <p className="mt-2">Their version has the same content as yours.</p>
      ) : (
        <div className="mt-3 space-y-3">
          {groups.map((group) => (
            <fieldset
              key={group.key}
              className="rounded border border-amber-300 bg-white p-2 text-gray-900"
              data-testid={`conflict-${group.key}`}
            >
              <legend className="px-1 text-xs font-semibold tracking-wide text-gray-700 uppercase">
                {group.label}
                {onlyTheirs.includes(group.key) ? (
                  <span className="ml-1 font-normal tracking-normal normal-case">
                    (changed only by them: theirs is kept unless you choose yours)
                  </span>
                ) : null}
              </legend>
              <div className="grid gap-2 md:grid-cols-2">
                <div>
                  <p className="text-xs font-medium text-gray-600">Theirs (saved)</p>
                  <p className="text-sm break-words whitespace-pre-wrap" data-testid="conflict-theirs">
                    {group.text(theirs) || <em className="text-gray-500">empty</em>}
                  </p>
                </div>
                <div>
                  <p className="text-xs font-medium text-gray-600">Yours (changes from theirs marked)</p>
                  <div data-testid="conflict-mine">
                    <WordDiff parts={wordDiff(group.text(theirs), group.text(mine))} />
                  </div>
                </div>
              </div>
              <div className="mt-2 flex flex-wrap gap-4">
                <Radio
                  name={`conflict-${group.key}`}
                  label="Use mine"
                  checked={chosen(group.key) === "mine"}
                  onChange={() => setChoice((c) => ({ ...c, [group.key]: "mine" }))}
                />
                <Radio
                  name={`conflict-${group.key}`}
                  label="Use theirs"
                  checked={chosen(group.key) === "theirs"}
                  onChange={() => setChoice((c) => ({ ...c, [group.key]: "theirs" }))}
                />
              </div>
            </fieldset>
          ))}
        </div>
      )}
      <div className="mt-3 flex flex-wrap gap-2">
        <Button variant="primary" loading={busy} onClick={() => onResolve(takeGroups(mine, theirs, onlyTheirs))}>
          Keep mine
        </Button>
        <Button disabled={busy} onClick={() => onResolve(null)}>
          Take theirs
        </Button>
        {mixed ? (
          <Button
            disabled={busy}
            onClick={() =>
              onResolve(
                takeGroups(
                  mine,
                  theirs,
                  groups.filter((g) => chosen(g.key) === "theirs").map((g) => g.key),
                ),
              )
            }
          >
            Save my choices
          </Button>
        ) : null}
      </div>
    </Alert>
  );
}
