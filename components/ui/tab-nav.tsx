/** Tabs between sibling pages (links, the current one marked). Scrolls sideways on a phone rather than the page. */

import { cx } from "./cx";
import { PageLink } from "./page-link";

export function TabNav({
  label,
  items,
  current,
}: {
  label: string;
  items: readonly { href: string; label: string; key: string }[];
  current: string;
}) {
  return (
    <nav aria-label={label} className="-mt-4 mb-6 overflow-x-auto border-b border-gray-200">
      <div className="flex gap-1">
        {items.map((item) => (
          <PageLink
            key={item.key}
            href={item.href}
            aria-current={item.key === current ? "page" : undefined}
            className={cx(
              "-mb-px shrink-0 border-b-2 px-3 py-2 text-sm font-medium focus-visible:ring-2 focus-visible:ring-brand-600 focus-visible:outline-none focus-visible:ring-inset",
              item.key === current
                ? "border-brand-600 text-brand-700"
                : "border-transparent text-gray-600 hover:border-gray-300 hover:text-gray-900",
            )}
          >
            {item.label}
          </PageLink>
        ))}
      </div>
    </nav>
  );
}
