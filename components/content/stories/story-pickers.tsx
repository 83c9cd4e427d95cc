"use client";

/** The story editor's pickers: sections and authors in order, and tags (existing or new by name). */
import { useState } from "react";

import { Button, Input, Select } from "@/components/ui";

import type { Named, TagChoice } from "./story-form";

/** Pick several of `choices` in order; the first is special (primary section, byline). */
export function OrderedPicker({
  label,
  testId,
  chosen,
  choices,
  onChange,
  firstNote,
}: {
  label: string;
  testId: string;
  chosen: Named[];
  choices: Named[];
  onChange: (chosen: Named[]) => void;
  firstNote: string;
}) {
  const open = choices.filter((c) => !chosen.some((x) => x.id === c.id));
  const swap = (i: number, j: number) => {
    const copy = [...chosen];
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
    onChange(copy);
  };
  return (
    <div className="space-y-2" data-testid={testId}>
      {chosen.length === 0 ? <p className="text-xs text-gray-500">None yet.</p> : null}
      <ol className="space-y-1">
        {chosen.map((item, i) => (
          <li key={item.id} className="flex items-center justify-between gap-2 rounded bg-gray-50 px-2 py-1 text-sm">
            <span className="truncate">
              {item.name}
              {i === 0 ? <span className="ml-1 text-xs text-gray-500">({firstNote})</span> : null}
            </span>
            <span className="flex shrink-0 gap-1">
              <Button size="xs" disabled={i === 0} onClick={() => swap(i, i - 1)} aria-label={`Move ${item.name} up`}>
                ↑
              </Button>
              <Button
                size="xs"
                onClick={() => onChange(chosen.filter((x) => x.id !== item.id))}
                aria-label={`Remove ${item.name}`}
              >
                ×
              </Button>
            </span>
          </li>
        ))}
      </ol>
      <AddChoice label={label} open={open} onPick={(picked) => onChange([...chosen, picked])} />
    </div>
  );
}

/** A select of the `open` choices that adds the one picked (its placeholder: the label, and "…"). */
function AddChoice({ label, open, onPick }: { label: string; open: Named[]; onPick: (picked: Named) => void }) {
  return (
    <Select
      aria-label={label}
      value=""
      onChange={(e) => {
        const picked = open.find((c) => String(c.id) === e.target.value);
        if (picked) onPick({ id: picked.id, name: picked.name });
      }}
      placeholder={`${label}…`}
      options={open.map((c) => ({ value: c.id, label: c.name }))}
    />
  );
}

/** Existing tags from a list, or new ones by name (created when the story is saved). */
export function TagPicker({
  chosen,
  choices,
  onChange,
}: {
  chosen: TagChoice[];
  choices: { id: number; name: string }[];
  onChange: (chosen: TagChoice[]) => void;
}) {
  const [name, setName] = useState("");
  const open = choices.filter((c) => !chosen.some((x) => x.id === c.id));
  const addByName = () => {
    const clean = name.trim();
    if (!clean) return;
    const existing = choices.find((c) => c.name.toLowerCase() === clean.toLowerCase());
    const tag: TagChoice = existing ? { id: existing.id, name: existing.name } : { name: clean };
    if (!chosen.some((x) => x.name.toLowerCase() === tag.name.toLowerCase())) onChange([...chosen, tag]);
    setName("");
  };
  return (
    <div className="space-y-2" data-testid="tags">
      <ul className="flex flex-wrap gap-1">
        {chosen.map((tag) => (
          <li
            key={tag.id ?? `new:${tag.name}`}
            className="inline-flex items-center gap-1 rounded-full bg-gray-100 px-2 py-0.5 text-xs text-gray-800"
          >
            {tag.name}
            {tag.id === undefined ? <span className="text-gray-500">(new)</span> : null}
            <Button
              variant="ghost"
              size="xs"
              onClick={() => onChange(chosen.filter((x) => x !== tag))}
              aria-label={`Remove tag ${tag.name}`}
            >
              ×
            </Button>
          </li>
        ))}
      </ul>
      <AddChoice label="Add an existing tag" open={open} onPick={(picked) => onChange([...chosen, picked])} />
      <div className="flex gap-2">
        <Input
          aria-label="New tag"
          value={name}
          maxLength={100}
          placeholder="New tag"
          onChange={(e) => setName(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === "Enter") {
              e.preventDefault();
              addByName();
            }
          }}
        />
        <Button onClick={addByName}>Add tag</Button>
      </div>
    </div>
  );
}
