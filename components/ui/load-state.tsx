"use client";

/**
 * The states of a query before there is something to show: loading, failed (with "Try again"),
 * and empty. Renders nothing once there is data, so a list goes right after it:
 *
 *   <LoadState query={list} what="tags" empty={tags.length === 0} emptyText="No tags yet." />
 *   {tags.length ? <Table … /> : null}
 */
import type { ReactNode } from "react";

import { Button } from "./button";
import { EmptyState } from "./empty-state";
import { PanelFooter } from "./panel";
import { errorReference } from "./server-errors";

type QueryLike = {
  isPending: boolean;
  error: { message: string } | null;
  refetch?: () => unknown;
};

export function Loading({ what, className }: { what: string; className?: string }) {
  return (
    <p className={className ?? "px-4 py-10 text-center text-sm text-gray-500"} role="status">
      Loading {what}…
    </p>
  );
}

export function LoadError({
  what,
  error,
  onRetry,
  className,
}: {
  what: string;
  error: { message: string };
  onRetry?: () => unknown;
  className?: string;
}) {
  return (
    <div className={className ?? "px-4 py-10 text-center text-sm"} role="alert">
      <p className="text-red-700">
        The {what} could not be loaded: {error.message}
      </p>
      <ErrorReference error={error} />
      {onRetry ? (
        <Button className="mt-3" onClick={() => void onRetry()}>
          Try again
        </Button>
      ) : null}
    </div>
  );
}

export function LoadState({
  query,
  what,
  empty = false,
  emptyText,
}: {
  query: QueryLike;
  /** "tags", "audit log": in "Loading tags…", "The audit log could not be loaded". */
  what: string;
  empty?: boolean;
  emptyText?: ReactNode;
}) {
  if (query.isPending) return <Loading what={what} />;
  if (query.error) return <LoadError what={what} error={query.error} onRetry={query.refetch} />;
  if (empty) return <EmptyState>{emptyText ?? `No ${what} yet.`}</EmptyState>;
  return null;
}

/** "Load more" under a cursor-paged list (useInfiniteQuery), while there is more. */
export function LoadMore({
  query,
}: {
  query: { hasNextPage: boolean; isFetchingNextPage: boolean; fetchNextPage: () => Promise<unknown> };
}) {
  if (!query.hasNextPage) return null;
  return (
    <PanelFooter className="text-center">
      <Button onClick={() => void query.fetchNextPage()} loading={query.isFetchingNextPage} loadingText="Loading…">
        Load more
      </Button>
    </PanelFooter>
  );
}

/** "Reference <id>" under a failure on the server's side, for a report that finds it in the log. */
export function ErrorReference({ error }: { error: unknown }) {
  const reference = errorReference(error);
  if (!reference) return null;
  return (
    <p className="mt-1 text-xs break-all text-gray-600" data-testid="error-reference">
      Reference <code className="font-mono">{reference}</code>
    </p>
  );
}
