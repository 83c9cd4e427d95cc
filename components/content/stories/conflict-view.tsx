"use client";

/**
 * When a save meets a newer version saved by someone else: never throw away what this editor
 * wrote. Each field that differs is shown side by side (theirs, the saved version; yours, with the
 * word diff from theirs), with a choice per field; "Keep mine" saves all of yours on top of their
 * version, "Take theirs" loads theirs, and "Save my choices" mixes them field by field.
 */
import { useState } from "react";

import { Alert, Button, Radio } from "@/components/ui";

import { WordDiff } from "./field-diff";
import { changedGroups, takeGroups, type FieldGroupKey, type FormValues } from "./story-form";
import { wordDiff } from "./word-diff";

export function ConflictView({
  mine,
  theirs,
  theirVersion,
  busy,
  onResolve,
}: {
  mine: FormValues;
  theirs: FormValues;
  theirVersion: number;
  busy: boolean;
  /** The values to save on top of their version, or null to take theirs as they are. */
  onResolve: (merged: FormValues | null) => void;
}) {
  const groups = changedGroups(theirs, mine);
  const [choice, setChoice] = useState<Record<string, "mine" | "theirs">>({});
  const chosen = (key: FieldGroupKey) => choice[key] ?? "mine";
  const mixed = groups.some((g) => chosen(g.key) === "theirs");
  return (
    <Alert tone="warning" data-testid="story-conflict">
      <p className="font-medium">Someone else saved this story (version {theirVersion}) while you were editing.</p>
      <p className="mt-1">
        Nothing you wrote is lost: your version is below, next to theirs. Autosave waits until you choose.
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
        <Button variant="primary" loading={busy} onClick={() => onResolve(mine)}>
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
