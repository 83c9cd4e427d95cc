"use client";

import { useLinkStatus } from "next/link";
import { usePathname } from "next/navigation";
import { useId, useState } from "react";

import { PageLink } from "@/components/ui/page-link";

export type AdminNavItem = { href: string; label: string; children?: { href: string; label: string }[] };

function isCurrent(pathname: string, href: string): boolean {
  return href === "/admin" ? pathname === "/admin" : pathname === href || pathname.startsWith(`${href}/`);
}

/**
 * While the page a link opens is on its way (a slow page change), a bar across the top of the
 * window and a status for screen readers. Inside a Link: Next.js tells it the link's navigation is pending.
 */
function PageChangeProgress() {
  const { pending } = useLinkStatus();
  if (!pending) return null;
  return (
    <span
      role="status"
      data-testid="page-change-progress"
      className="fixed inset-x-0 top-0 z-50 h-1 animate-pulse bg-brand-600"
    >
      <span className="sr-only">Opening the page…</span>
    </span>
  );
}

/**
 * The dashboard's side navigation. Gets only the items the user's roles can open (the layout
 * filters them). Below the `lg` breakpoint it folds into a "Menu" button.
 */
export function AdminNav({ items }: { items: AdminNavItem[] }) {
  const pathname = usePathname();
  // Open for the page it was opened on: the new page closes it, so a slow page change shows its bar meanwhile.
  const [openOn, setOpenOn] = useState<string | null>(null);
  const open = openOn === pathname;
  const listId = useId();
  const close = (href: string) => {
    if (href === pathname) setOpenOn(null);
  };

  return (
    <nav
      aria-label="Dashboard"
      className="border-b border-gray-200 bg-white lg:min-h-[calc(100vh-3.5rem)] lg:w-60 lg:shrink-0 lg:border-r lg:border-b-0"
    >
      <button
        type="button"
        aria-expanded={open}
        aria-controls={listId}
        onClick={() => setOpenOn(open ? null : pathname)}
        className="flex w-full items-center justify-between px-4 py-3 text-sm font-medium text-gray-700 focus-visible:ring-2 focus-visible:ring-brand-600 focus-visible:outline-none focus-visible:ring-inset lg:hidden"
      >
        Menu
        <span aria-hidden="true">{open ? "▴" : "▾"}</span>
      </button>
      <ul id={listId} className={`${open ? "block" : "hidden"} space-y-1 px-3 pb-4 lg:block lg:py-6`}>
        {items.map((item) => {
          const current = isCurrent(pathname, item.href);
          return (
            <li key={item.href}>
              <PageLink
                href={item.href}
                onClick={() => close(item.href)}
                aria-current={pathname === item.href ? "page" : undefined}
                className={`block rounded-md px-3 py-2 text-sm font-medium focus-visible:ring-2 focus-visible:ring-brand-600 focus-visible:outline-none ${
                  current ? "bg-brand-50 text-brand-700" : "text-gray-700 hover:bg-gray-100 hover:text-gray-900"
                }`}
              >
                {item.label}
                <PageChangeProgress />
              </PageLink>
              {item.children && item.children.length > 0 ? (
                <ul className="mt-1 mb-2 ml-3 space-y-0.5 border-l border-gray-200 pl-3">
                  {item.children.map((child) => (
                    <li key={child.href}>
                      <PageLink
                        href={child.href}
                        onClick={() => close(item.href)}
                        aria-current={pathname === child.href ? "page" : undefined}
                        className={`block rounded-md px-2 py-1 text-sm focus-visible:ring-2 focus-visible:ring-brand-600 focus-visible:outline-none ${
                          isCurrent(pathname, child.href)
                            ? "font-medium text-brand-700"
                            : "text-gray-600 hover:text-gray-900"
                        }`}
                      >
                        {child.label}
                        <PageChangeProgress />
                      </PageLink>
                    </li>
                  ))}
                </ul>
              ) : null}
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
