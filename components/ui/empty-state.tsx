/** What a list shows when it has nothing in it: a sentence, and perhaps what to do about it. */
import type { ReactNode } from "react";

import { cx } from "./cx";

export function EmptyState({
  children,
  action,
  dashed = false,
  className,
}: {
  children: ReactNode;
  action?: ReactNode;
  /** A dashed box of its own, for an empty area outside a panel. */
  dashed?: boolean;
  className?: string;
}) {
  return (
    <div
      className={cx(
        "px-4 text-center text-sm text-gray-500",
        dashed ? "rounded-lg border border-dashed border-gray-300 py-6" : "py-10",
        className,
      )}
    >
      <p>{children}</p>
      {action ? <div className="mt-3">{action}</div> : null}
    </div>
  );
}
