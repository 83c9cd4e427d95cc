"use client";

/**
 * The media library's grid, shared by the library page and the "Choose from library" dialog:
 * search (file name, alt text, key), the "Unused" filter, pages of MEDIA_PAGE_SIZE, and a grid of
 * thumbnails that the keyboard moves through (arrow keys, Home, End; Enter or Space picks).
 */
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useDeferredValue, useRef, useState, type KeyboardEvent } from "react";

import { useTRPC } from "@/components/trpc/react";
import { Button, FilterSelect, FormField, LoadState, SearchInput } from "@/components/ui";
import { ownValue } from "@/server/own-keys";
import { MEDIA_PAGE_SIZE, type TMediaItem } from "@/server/publishing/editorial/media.schema";

type MediaFilter = "all" | "unused";

/** A byte count as people read it: "840 B", "12.5 KB", "3.2 MB". */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** What a tile is called: the file's name, else its alt text, else its key. */
export const mediaLabel = (item: TMediaItem) => item.fileName || item.alt || item.key;

/** The query behind a browser: its search, filter and page, and the page it answers. */
export function useMediaQuery({ initialFilter = "all" }: { initialFilter?: MediaFilter } = {}) {
  const trpc = useTRPC();
  const [search, setSearch] = useState("");
  const [filter, setFilter] = useState<MediaFilter>(initialFilter);
  const [offset, setOffset] = useState(0);
  const deferredSearch = useDeferredValue(search.trim());
  const query = useQuery({
    ...trpc.media.list.queryOptions({
      search: deferredSearch || undefined,
      filter,
      offset,
      limit: MEDIA_PAGE_SIZE,
    }),
    placeholderData: keepPreviousData,
  });
  return {
    query,
    search,
    setSearch: (value: string) => {
      setSearch(value);
      setOffset(0);
    },
    filter,
    setFilter: (value: MediaFilter) => {
      setFilter(value);
      setOffset(0);
    },
    offset,
    setOffset,
  };
}

type MediaQuery = ReturnType<typeof useMediaQuery>;

export function MediaFilters({ media }: { media: MediaQuery }) {
  return (
    <div className="flex w-full flex-col gap-2 sm:w-auto sm:flex-row sm:items-end">
      <FormField label="Search images" hint="File name, alt text or key.">
        <SearchInput
          placeholder=""
          value={media.search}
          maxLength={200}
          onChange={(event) => media.setSearch(event.target.value)}
          className="sm:w-56"
          data-autofocus
        />
      </FormField>
      <FilterSelect
        label="Show"
        value={media.filter}
        onChange={(event) => media.setFilter(event.target.value === "unused" ? "unused" : "all")}
        options={[
          { value: "all", label: "All images" },
          { value: "unused", label: "Unused" },
        ]}
      />
    </div>
  );
}

/** "1–24 of 30", Previous and Next. */
export function MediaPager({ media }: { media: MediaQuery }) {
  const data = media.query.data;
  if (!data || data.total <= data.limit) return null;
  const last = Math.min(data.offset + data.items.length, data.total);
  return (
    <nav aria-label="Pages of images" className="flex flex-wrap items-center justify-between gap-2 pt-3 text-sm">
      <span className="text-gray-600" aria-live="polite">
        {data.offset + 1}–{last} of {data.total}
      </span>
      <span className="flex gap-2">
        <Button
          size="sm"
          disabled={data.offset === 0}
          onClick={() => media.setOffset(Math.max(0, data.offset - data.limit))}
        >
          Previous
        </Button>
        <Button size="sm" disabled={last >= data.total} onClick={() => media.setOffset(data.offset + data.limit)}>
          Next
        </Button>
      </span>
    </nav>
  );
}

/**
 * The grid: one button per image (its thumbnail, name, size, "Unused"); one tab stop, the arrow
 * keys move between tiles, Enter or Space (or a click) picks one.
 */
export function MediaGrid({
  media,
  selectedKey,
  onPick,
  emptyText,
  label,
}: {
  media: MediaQuery;
  selectedKey: string | null;
  onPick: (item: TMediaItem) => void;
  emptyText: string;
  label: string;
}) {
  const items = media.query.data?.items ?? [];
  const [focused, setFocused] = useState(0);
  const grid = useRef<HTMLUListElement>(null);
  const current = Math.min(focused, Math.max(items.length - 1, 0));

  if (!media.query.data || items.length === 0)
    return <LoadState query={media.query} what="images" empty={items.length === 0} emptyText={emptyText} />;

  const move = (to: number) => {
    const next = Math.max(0, Math.min(items.length - 1, to));
    setFocused(next);
    grid.current?.querySelectorAll<HTMLButtonElement>("button[data-tile]")[next]?.focus();
  };
  const columns = () => {
    const tiles = grid.current?.querySelectorAll<HTMLElement>("button[data-tile]");
    if (!tiles?.length) return 1;
    const top = tiles[0]!.offsetTop;
    let count = 0;
    for (const tile of tiles) if (tile.offsetTop === top) count += 1;
    return Math.max(count, 1);
  };
  const onKeyDown = (event: KeyboardEvent, index: number) => {
    const step: Record<string, number> = {
      ArrowRight: 1,
      ArrowLeft: -1,
      ArrowDown: columns(),
      ArrowUp: -columns(),
    };
    const by = ownValue(step, event.key);
    if (by !== undefined) move(index + by);
    else if (event.key === "Home") move(0);
    else if (event.key === "End") move(items.length - 1);
    else return;
    event.preventDefault();
  };

  return (
    <ul
      ref={grid}
      aria-label={label}
      className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-4"
      data-testid="media-grid"
      aria-busy={media.query.isFetching || undefined}
    >
      {items.map((item, index) => (
        <li key={item.key}>
          <button
            type="button"
            data-tile
            data-key={item.key}
            tabIndex={index === current ? 0 : -1}
            aria-pressed={selectedKey === item.key}
            onFocus={() => setFocused(index)}
            onKeyDown={(event) => onKeyDown(event, index)}
            onClick={() => onPick(item)}
            className="group block w-full overflow-hidden rounded-md border border-gray-200 bg-white text-left focus-visible:ring-2 focus-visible:ring-brand-600 focus-visible:outline-none aria-pressed:border-brand-600 aria-pressed:ring-2 aria-pressed:ring-brand-600"
          >
            <span className="flex aspect-[4/3] items-center justify-center bg-gray-100">
              {/* eslint-disable-next-line @next/next/no-img-element -- an uploaded file's thumbnail, served by /images */}
              <img
                src={item.thumbUrl}
                alt={item.alt}
                loading="lazy"
                className="max-h-full max-w-full object-contain"
                data-thumbnail={item.hasThumbnail ? "webp" : "original"}
              />
            </span>
            <span className="block px-2 py-1.5">
              <span className="block truncate text-xs font-medium text-gray-900">{mediaLabel(item)}</span>
              <span className="flex flex-wrap items-center gap-x-2 text-xs text-gray-600">
                <span>
                  {item.width && item.height ? `${item.width}×${item.height}` : "size unknown"} ·{" "}
                  {formatBytes(item.bytes)}
                </span>
                {item.usedIn.length === 0 ? <span className="font-medium text-amber-800">Unused</span> : null}
              </span>
            </span>
          </button>
        </li>
      ))}
    </ul>
  );
}
