"use client";

/**
 * The entities a story is about (people, teams, places…): search the account's entities as you
 * type, add one with a click or Enter; the chosen ones show as chips with a remove button. They are
 * saved with the story (entityIds) and served by the content API as the story's `entities`.
 */
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useEffect, useId, useState } from "react";

import { useTRPC } from "@/components/trpc/react";
import { Button, SearchInput } from "@/components/ui";

import type { EntityChoice } from "./story-form";

export function EntityPicker({
  chosen,
  onChange,
}: {
  chosen: EntityChoice[];
  onChange: (next: EntityChoice[]) => void;
}) {
  const trpc = useTRPC();
  const [text, setText] = useState("");
  const [search, setSearch] = useState("");
  const listId = useId();
  useEffect(() => {
    const timer = setTimeout(() => setSearch(text.trim()), 250);
    return () => clearTimeout(timer);
  }, [text]);
  const found = useQuery({
    ...trpc.stories.entities.queryOptions({ search, limit: 10 }),
    enabled: search.length > 0,
    placeholderData: keepPreviousData,
  });
  const open = (found.data ?? []).filter((e) => !chosen.some((c) => c.id === e.id));
  const add = (entity: EntityChoice) => {
    onChange([...chosen, entity]);
    setText("");
    setSearch("");
  };
  return (
    <div className="space-y-2" data-testid="entities">
      {chosen.length === 0 ? <p className="text-xs text-gray-500">None yet.</p> : null}
      <ul className="flex flex-wrap gap-1">
        {chosen.map((entity) => (
          <li
            key={entity.id}
            className="inline-flex items-center gap-1 rounded-full bg-gray-100 px-2 py-0.5 text-xs text-gray-800"
          >
            {entity.name}
            <span className="text-gray-600">({entity.type})</span>
            <Button
              variant="ghost"
              size="xs"
              onClick={() => onChange(chosen.filter((x) => x.id !== entity.id))}
              aria-label={`Remove entity ${entity.name}`}
            >
              ×
            </Button>
          </li>
        ))}
      </ul>
      <SearchInput
        aria-label="Find an entity"
        aria-controls={listId}
        placeholder="Find an entity…"
        value={text}
        maxLength={200}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === "Enter") {
            e.preventDefault();
            if (open[0] && search === text.trim()) add(open[0]);
          }
        }}
      />
      <ul id={listId} aria-label="Matching entities" className="space-y-1" aria-live="polite">
        {search && found.isSuccess && open.length === 0 ? (
          <li className="text-xs text-gray-500">No entity matches “{search}”.</li>
        ) : null}
        {search
          ? open.map((entity) => (
              <li key={entity.id}>
                <Button size="xs" variant="secondary" onClick={() => add(entity)}>
                  Add {entity.name} <span className="text-gray-600">({entity.type})</span>
                </Button>
              </li>
            ))
          : null}
      </ul>
    </div>
  );
}
