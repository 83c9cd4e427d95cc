/**
 * A bordered white card with a title row (and actions on its right, which wrap under the title on
 * a phone). `padded` gives the body the usual padding and spacing; lists and tables go unpadded,
 * edge to edge.
 */
import { useId, type ReactNode } from "react";

import { cx } from "./cx";

export function Panel({
  title,
  titleId,
  actions,
  padded = false,
  className,
  children,
  ...props
}: {
  title: ReactNode;
  titleId?: string;
  actions?: ReactNode;
  padded?: boolean;
  className?: string;
  children: ReactNode;
  "data-testid"?: string;
}) {
  const generated = useId();
  const id = titleId ?? generated;
  return (
    <section
      aria-labelledby={id}
      className={cx("min-w-0 rounded-lg border border-gray-200 bg-white shadow-sm", className)}
      {...props}
    >
      <div className="flex flex-wrap items-center justify-between gap-x-4 gap-y-2 border-b border-gray-200 px-4 py-3">
        <h2 id={id} className="text-sm font-semibold text-gray-900">
          {title}
        </h2>
        {actions ? <div className="flex max-w-full min-w-0 flex-wrap items-center gap-2">{actions}</div> : null}
      </div>
      {padded ? <div className="space-y-4 px-4 py-4">{children}</div> : children}
    </section>
  );
}

/** The strip under a panel's title where a form to add something opens. */
export function PanelSection({ title, children }: { title?: ReactNode; children: ReactNode }) {
  return (
    <div className="border-b border-gray-200 bg-gray-50 px-4 py-4">
      {title ? <h3 className="mb-3 text-sm font-semibold text-gray-900">{title}</h3> : null}
      {children}
    </div>
  );
}

/**
 * A panel's list, edge to edge, one row per item: what the row renders (its details, then its
 * actions) stacks on a phone and sits side by side, actions on the right, from `md` up.
 */
export function PanelList<T>({
  items,
  itemKey,
  labelledBy,
  rowTestId,
  wide = false,
  children,
}: {
  items: readonly T[];
  itemKey: (item: T) => string | number;
  /** The id of the panel's title (Panel titleId). */
  labelledBy: string;
  rowTestId?: string;
  /** More room between the details and the actions when they stack. */
  wide?: boolean;
  children: (item: T) => ReactNode;
}) {
  return (
    <ul className="divide-y divide-gray-100" aria-labelledby={labelledBy}>
      {items.map((item) => (
        <li
          key={itemKey(item)}
          className={cx(
            "flex flex-col px-4 py-3 md:flex-row md:items-center md:justify-between",
            wide ? "gap-3" : "gap-2",
          )}
          data-testid={rowTestId}
        >
          {children(item)}
        </li>
      ))}
    </ul>
  );
}

/** The row at the bottom of a panel: "Load more", paging. */
export function PanelFooter({ children, className }: { children: ReactNode; className?: string }) {
  return <div className={cx("border-t border-gray-200 px-4 py-3 text-sm text-gray-600", className)}>{children}</div>;
}

/** A padded white card without a title bar: a figure on the overview, the sign-in form. */
export function Card({
  title,
  titleId,
  actions,
  className,
  children,
}: {
  title?: ReactNode;
  titleId?: string;
  actions?: ReactNode;
  className?: string;
  children: ReactNode;
}) {
  const generated = useId();
  const id = titleId ?? generated;
  return (
    <section
      aria-labelledby={title ? id : undefined}
      className={cx("min-w-0 rounded-lg border border-gray-200 bg-white p-5 shadow-sm", className)}
    >
      {title ? (
        <div className="flex items-baseline justify-between gap-4">
          <h2 id={id} className="text-sm font-semibold text-gray-900">
            {title}
          </h2>
          {actions}
        </div>
      ) : null}
      {children}
    </section>
  );
}
