/** The title row of a dashboard page: eyebrow, title, description, and actions on the right. */
import type { ReactNode } from "react";

export function PageHeader({
  title,
  description,
  eyebrow,
  actions,
}: {
  title: string;
  description?: ReactNode;
  eyebrow?: string;
  actions?: ReactNode;
}) {
  return (
    <div className="mb-8 flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
      <div className="min-w-0">
        {eyebrow ? <p className="text-sm font-medium text-brand-700">{eyebrow}</p> : null}
        <h1 className="text-2xl font-semibold tracking-tight break-words text-gray-900">{title}</h1>
        {description ? <p className="mt-1 max-w-2xl text-sm text-gray-600">{description}</p> : null}
      </div>
      {actions ? <div className="flex shrink-0 flex-wrap items-center gap-2">{actions}</div> : null}
    </div>
  );
}
