"use client";

/**
 * Two states of a story compared field by field (./story-form.ts FIELD_GROUPS), each changed
 * field with a word-level diff: removed words struck through in red, added ones underlined in
 * green. Used by the revision history and by the two-editors view.
 */
import { changedGroups, type FormValues } from "./story-form";
import { wordDiff, type DiffPart } from "./word-diff";

export function WordDiff({ parts }: { parts: readonly DiffPart[] }) {
  return (
    <p className="text-sm break-words whitespace-pre-wrap text-gray-800">
      {parts.map((part, i) =>
        part.kind === "same" ? (
          <span key={i}>{part.text}</span>
        ) : part.kind === "added" ? (
          <ins key={i} className="bg-green-100 text-green-900 underline decoration-green-700">
            {part.text}
          </ins>
        ) : (
          <del key={i} className="bg-red-100 text-red-900 line-through decoration-red-700">
            {part.text}
          </del>
        ),
      )}
    </p>
  );
}

/** Every field that differs from `before` to `after`, with its word diff; a line when none does. */
export function FieldDiff({ before, after, testId }: { before: FormValues; after: FormValues; testId?: string }) {
  const groups = changedGroups(before, after);
  if (!groups.length) return <p className="text-sm text-gray-600">No differences.</p>;
  return (
    <dl className="space-y-3" data-testid={testId}>
      {groups.map((group) => (
        <div key={group.key} className="rounded border border-gray-200 p-2" data-testid={`diff-${group.key}`}>
          <dt className="text-xs font-semibold tracking-wide text-gray-600 uppercase">{group.label}</dt>
          <dd className="mt-1">
            <WordDiff parts={wordDiff(group.text(before), group.text(after))} />
          </dd>
        </div>
      ))}
    </dl>
  );
}
