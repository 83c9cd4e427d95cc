/**
 * A page that stands for an HTTP status (404, 403): the code, what it means, why, and the way back
 * to the dashboard's overview.
 */
import type { ReactNode } from "react";

import { ButtonLink } from "./button";
import { cx } from "./cx";

export function StatusMessage({
  status,
  title,
  children,
  className,
  testId,
}: {
  status: number;
  title: ReactNode;
  /** Why the visitor is here, in a sentence or two. */
  children: ReactNode;
  className?: string;
  testId?: string;
}) {
  return (
    <div className={cx("text-center", className)} data-testid={testId}>
      <p className="text-sm font-semibold text-brand-700">{status}</p>
      <h1 className="mt-2 text-2xl font-semibold tracking-tight text-gray-900">{title}</h1>
      <p className="mx-auto mt-3 max-w-md text-sm text-gray-600">{children}</p>
      <div className="mt-6 flex justify-center">
        <ButtonLink href="/admin" variant="primary" size="lg">
          Back to the overview
        </ButtonLink>
      </div>
    </div>
  );
}
