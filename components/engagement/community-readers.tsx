"use client";

/**
 * The Community page's list (community.readers): any reader of the account, found by name,
 * username, e-mail, an identity or member id, filtered by standing and pending comments, newest
 * first with "Load more"; each row opens the reader's card.
 */
import { useInfiniteQuery } from "@tanstack/react-query";
import { useState } from "react";

import { useTRPC } from "@/components/trpc/react";
import {
  Button,
  Checkbox,
  FilterDisclosure,
  FilterSelect,
  LoadMore,
  LoadState,
  Panel,
  SearchInput,
} from "@/components/ui";
import { READERS_PAGE_SIZE, type TReaderStatusFilter } from "@/server/engagement/community/community.schema";

import { ReaderCardDialog } from "./reader-card";
import { StandingLine } from "./reader-standing";

const STATUS_FILTER_LABELS: Record<TReaderStatusFilter, string> = {
  all: "Everyone",
  banned: "Banned",
  suspended: "Suspended",
  warned: "Warned",
};

/** A member id as the search takes it exactly (`#123`), for opening that reader's card at once. */
const MEMBER_ID = /^#(\d{1,10})$/;

export function CommunityReaders({ initialQuery = "" }: { initialQuery?: string }) {
  const trpc = useTRPC();
  const [draft, setDraft] = useState(initialQuery);
  const [q, setQ] = useState(initialQuery);
  const [status, setStatus] = useState<TReaderStatusFilter>("all");
  const [hasPending, setHasPending] = useState(false);
  // A link naming a reader (`?q=%23123`, from the moderation queue) opens their card.
  const [open, setOpen] = useState<number | null>(() => {
    const id = MEMBER_ID.exec(initialQuery);
    return id ? Number(id[1]) : null;
  });

  const readers = useInfiniteQuery(
    trpc.community.readers.infiniteQueryOptions(
      { q, status, hasPending, limit: READERS_PAGE_SIZE.default },
      { getNextPageParam: (page) => page.nextCursor ?? undefined },
    ),
  );
  const rows = readers.data?.pages.flatMap((page) => page.items) ?? [];
  const filtered = q !== "" || status !== "all" || hasPending;

  return (
    <div className="space-y-4">
      <FilterDisclosure
        className="rounded-lg border border-gray-200 bg-white p-4 shadow-sm"
        active={[q !== "", status !== "all", hasPending].filter(Boolean).length}
      >
        <form
          role="search"
          aria-label="Find readers"
          className="flex flex-col gap-3 md:flex-row md:flex-wrap md:items-center"
          onSubmit={(event) => {
            event.preventDefault();
            setQ(draft.trim());
          }}
        >
          <div className="flex min-w-0 flex-1 gap-2">
            <SearchInput
              aria-label="Find a reader"
              placeholder="Name, username, e-mail or member id"
              value={draft}
              maxLength={200}
              onChange={(event) => setDraft(event.target.value)}
              className="min-w-0 flex-1"
            />
            <Button type="submit">Search</Button>
          </div>
          <div className="flex flex-wrap items-center gap-4">
            <FilterSelect
              label="Standing"
              value={status}
              onChange={(event) => setStatus(event.target.value as TReaderStatusFilter)}
              options={Object.entries(STATUS_FILTER_LABELS).map(([value, label]) => ({ value, label }))}
            />
            <Checkbox
              label="Has pending comments"
              checked={hasPending}
              onChange={(event) => setHasPending(event.target.checked)}
            />
          </div>
        </form>
      </FilterDisclosure>

      <Panel title="Readers" titleId="community-readers">
        <LoadState
          query={readers}
          what="readers"
          empty={rows.length === 0}
          emptyText={filtered ? "No reader matches." : "No readers yet."}
        />
        {rows.length ? (
          <ul className="divide-y divide-gray-100" aria-labelledby="community-readers">
            {rows.map((reader) => (
              <li
                key={reader.memberId}
                data-testid="reader-row"
                className="flex flex-col gap-2 px-4 py-3 md:flex-row md:items-center md:justify-between"
              >
                <div className="min-w-0 space-y-1 text-sm">
                  <p className="font-semibold break-words text-gray-900">
                    {reader.name}{" "}
                    <span className="font-normal text-gray-600">
                      (reader {reader.memberId}
                      {reader.username ? ` · @${reader.username}` : ""})
                    </span>
                  </p>
                  {reader.email ? <p className="break-all text-gray-700">{reader.email}</p> : null}
                  <StandingLine reader={reader} />
                </div>
                <Button size="sm" onClick={() => setOpen(reader.memberId)} aria-label={`Open ${reader.name}`}>
                  Open
                </Button>
              </li>
            ))}
          </ul>
        ) : null}
        <LoadMore query={readers} />
      </Panel>

      <ReaderCardDialog memberId={open} onClose={() => setOpen(null)} />
    </div>
  );
}
