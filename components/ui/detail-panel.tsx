/**
 * The detail of one thing, opened beside a list: a panel titled with what it is and a "Close"
 * button, the query's state (loading, failed) and, once loaded, the body `children` renders from
 * its data. Its parts: `DetailFacts` (label and value rows), `DetailSection` (a titled part) and
 * `DetailList` (a titled list of lines, "None." when empty).
 */
import { Fragment, type ReactNode } from "react";

import { Button } from "./button";
import { LoadState } from "./load-state";
import { Panel } from "./panel";

export function DetailPanel<T>({
  title,
  testId,
  onClose,
  query,
  what,
  children,
}: {
  title: ReactNode;
  testId?: string;
  onClose: () => void;
  query: { isPending: boolean; error: { message: string } | null; refetch?: () => unknown; data: T | undefined };
  /** "subscriber": in "Loading subscriber…", "The subscriber could not be loaded". */
  what: string;
  children: (data: T) => ReactNode;
}) {
  return (
    <Panel
      title={title}
      data-testid={testId}
      actions={
        <Button variant="secondary" size="sm" onClick={onClose}>
          Close
        </Button>
      }
      padded
    >
      <LoadState query={query} what={what} />
      {query.data ? <div className="space-y-5 text-sm">{children(query.data)}</div> : null}
    </Panel>
  );
}

/** One row of `DetailFacts`; `false` or `null` leaves it out. */
type DetailFact = { label: ReactNode; value: ReactNode; testId?: string } | false | null;

/** Label and value rows, the labels in a column of their own. */
export function DetailFacts({ facts, testId }: { facts: readonly DetailFact[]; testId?: string }) {
  return (
    <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-1" data-testid={testId}>
      {facts.map((fact, i) =>
        fact ? (
          <Fragment key={i}>
            <dt className="text-gray-600">{fact.label}</dt>
            <dd className="min-w-0 [overflow-wrap:anywhere]" data-testid={fact.testId}>
              {fact.value}
            </dd>
          </Fragment>
        ) : null,
      )}
    </dl>
  );
}

/** A titled part of a detail; with `id`, the section is named by its title. */
export function DetailSection({ title, id, children }: { title: ReactNode; id?: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id}>
      <h3 id={id} className="mb-2 font-semibold text-gray-900">
        {title}
      </h3>
      {children}
    </section>
  );
}

/** A titled list of lines, its count in the title; `none` ("None.") where there is no line. */
export function DetailList<T>({
  title,
  id,
  items,
  itemKey,
  none = "None.",
  children,
}: {
  title: ReactNode;
  id: string;
  items: readonly T[];
  itemKey: (item: T, index: number) => string | number;
  none?: ReactNode;
  children: (item: T) => ReactNode;
}) {
  return (
    <DetailSection
      id={id}
      title={
        <>
          {title} ({items.length})
        </>
      }
    >
      {items.length ? (
        <ul className="list-inside list-disc text-gray-700">
          {items.map((item, i) => (
            <li key={itemKey(item, i)} className="break-words">
              {children(item)}
            </li>
          ))}
        </ul>
      ) : (
        <p className="text-gray-600">{none}</p>
      )}
    </DetailSection>
  );
}
