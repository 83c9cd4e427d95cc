/**
 * An inline link in the brand colour (to another page of the dashboard, or out), underlined so
 * that it is told apart from the text around it by more than its colour (WCAG 1.4.1).
 */
import type { ComponentProps } from "react";

import { cx } from "./cx";
import { PageLink } from "./page-link";

export const textLinkClasses =
  "rounded-sm font-medium text-brand-700 underline decoration-brand-700/40 underline-offset-2 hover:decoration-brand-700 focus-visible:ring-2 focus-visible:ring-brand-600 focus-visible:outline-none";

export function TextLink({ className, ...props }: ComponentProps<typeof PageLink>) {
  return <PageLink className={cx(textLinkClasses, className)} {...props} />;
}

/** A card that is one link: a title and a line about where it goes (an area's sections). */
export function LinkCard({ href, title, description }: { href: string; title: string; description: string }) {
  return (
    <PageLink
      href={href}
      className="block h-full rounded-lg border border-gray-200 bg-white p-4 shadow-sm hover:border-brand-600 focus-visible:ring-2 focus-visible:ring-brand-600 focus-visible:outline-none"
    >
      <span className="text-sm font-semibold text-gray-900">{title}</span>
      <span className="mt-1 block text-sm text-gray-600">{description}</span>
    </PageLink>
  );
}

/** A grid of link cards. */
export function LinkCards({ items }: { items: readonly { href: string; title: string; description: string }[] }) {
  return (
    <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
      {items.map((item) => (
        <li key={item.href}>
          <LinkCard {...item} />
        </li>
      ))}
    </ul>
  );
}
