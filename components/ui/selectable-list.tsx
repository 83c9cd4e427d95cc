/**
 * A list of results to pick one from (a search's subscribers, a filter's subscriptions): each row a
 * button with a title, a line under it and something on its right; the picked one marked
 * (aria-current) with a bar on its left, on the white every row has, so the grey text of its
 * lines keeps its 4.5:1. Nothing when there are no items.
 */
import type { Key, ReactNode } from "react";

export function SelectableList<T extends { id: Key }>({
  items,
  selected,
  onSelect,
  testId,
  row,
}: {
  items: readonly T[];
  selected: T["id"] | null;
  onSelect: (id: T["id"]) => void;
  testId?: string;
  row: (item: T) => { title: ReactNode; detail: ReactNode; aside: ReactNode };
}) {
  if (items.length === 0) return null;
  return (
    <ul className="divide-y divide-gray-100" data-testid={testId}>
      {items.map((item) => {
        const { title, detail, aside } = row(item);
        return (
          <li key={item.id}>
            <button
              type="button"
              onClick={() => onSelect(item.id)}
              aria-current={selected === item.id ? "true" : undefined}
              className="flex w-full flex-wrap items-baseline justify-between gap-2 px-4 py-3 text-left hover:bg-gray-50 aria-[current=true]:bg-white aria-[current=true]:shadow-[inset_4px_0_0_var(--color-indigo-600)]"
            >
              <span className="min-w-0">
                <span className="block truncate font-medium text-gray-900">{title}</span>
                <span className="block truncate text-sm text-gray-600">{detail}</span>
              </span>
              {aside}
            </button>
          </li>
        );
      })}
    </ul>
  );
}
