/**
 * A data table from columns and rows. On a narrow screen it scrolls sideways inside its own
 * region (focusable, so keyboard users can scroll it too), never the page.
 *
 *   <Table label="Tags" rows={tags} rowKey={(t) => t.id}
 *     columns={[{ header: "Name", cell: (t) => t.name }, { header: "Stories", cell: (t) => t.storyCount }]} />
 */
import type { ComponentProps, ReactNode } from "react";

import { cx } from "./cx";
import { LoadState } from "./load-state";

export type Column<Row> = {
  header: ReactNode;
  cell: (row: Row) => ReactNode;
  /** Classes of this column's cells (width, alignment, wrapping). */
  className?: string;
  /** Hide the header text (an actions column), keeping it for screen readers. */
  hideHeader?: boolean;
};

export function Table<Row>({
  label,
  columns,
  rows,
  rowKey,
  rowProps,
  renderRow,
  className,
}: {
  /** Names the scrolling region, e.g. the panel's title. */
  label: string;
  columns: readonly Column<Row>[];
  rows: readonly Row[];
  rowKey: (row: Row) => string | number;
  /** Attributes of a row's <tr>: data-testid, a highlight class. */
  rowProps?: (row: Row) => { className?: string; "data-testid"?: string } & Record<`data-${string}`, string>;
  /** Replaces a row's cells, e.g. with a form spanning the columns (`<td colSpan={columns.length}>`). */
  renderRow?: (row: Row) => ReactNode | undefined;
  className?: string;
}) {
  return (
    <div
      role="region"
      aria-label={label}
      tabIndex={0}
      className={cx(
        // relative: what is positioned inside (sr-only text) scrolls and clips with the table, never widens the page.
        "relative overflow-x-auto focus-visible:ring-2 focus-visible:ring-brand-600 focus-visible:outline-none focus-visible:ring-inset",
        className,
      )}
    >
      <table className="min-w-full divide-y divide-gray-200 text-left text-sm">
        <thead className="bg-gray-50 text-xs font-medium tracking-wide text-gray-500 uppercase">
          <tr>
            {columns.map((column, index) => (
              <th key={index} scope="col" className="px-4 py-2 whitespace-nowrap">
                {column.hideHeader ? <span className="sr-only">{column.header}</span> : column.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-gray-100">
          {rows.map((row) => {
            const { className: rowClass, ...attributes } = rowProps?.(row) ?? {};
            const custom = renderRow?.(row);
            return (
              <tr key={rowKey(row)} className={cx("align-top", rowClass)} {...attributes}>
                {custom ??
                  columns.map((column, index) => (
                    <td key={index} className={cx("px-4 py-3", column.className)}>
                      {column.cell(row)}
                    </td>
                  ))}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

/**
 * A query's rows as a table: the query's state first (loading, failed, `emptyText` when it has no
 * rows), then the table once there are rows.
 */
export function QueryTable<Row>({
  query,
  what,
  emptyText,
  ...table
}: ComponentProps<typeof Table<Row>> & {
  query: ComponentProps<typeof LoadState>["query"];
  /** "sends": in "Loading sends…", "The sends could not be loaded". */
  what: string;
  emptyText: ReactNode;
}) {
  return (
    <>
      <LoadState query={query} what={what} empty={table.rows.length === 0} emptyText={emptyText} />
      {table.rows.length ? <Table {...table} /> : null}
    </>
  );
}
