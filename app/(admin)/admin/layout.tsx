import type { Metadata } from "next";
import type { ReactNode } from "react";

import { AdminNav, type AdminNavItem } from "@/components/admin/admin-nav";
import { SignOutButton } from "@/components/admin/sign-out-button";
import { TRPCReactProvider } from "@/components/trpc/react";
import { ConfirmProvider, FormatLocaleProvider, TimeZoneProvider } from "@/components/ui";
import { PageLink } from "@/components/ui/page-link";
import { getAdminSession } from "@/server/auth/next-auth";
import { ROLE_LABELS } from "@/server/auth/roles";
import { getDb } from "@/server/db";
import { accountLocalesFrom } from "@/server/i18n/locale-settings";

import { visibleAreas } from "./_lib/areas";

export const metadata: Metadata = {
  title: { default: "Dashboard", template: "%s · Masthead" },
  robots: { index: false },
};

/**
 * The dashboard's frame. It does not guard anything itself: every page calls requireAdmin() with
 * its own path and roles (a layout does not know the path to come back to after signing in).
 * Signed out, it renders the page bare, and the page redirects.
 */
export default async function AdminLayout({ children }: { children: ReactNode }) {
  const session = await getAdminSession();
  if (!session) return children;
  const { user } = session;
  // Every time in the dashboard is shown in the account's zone (Settings → Site), and its times,
  // days and money are written in its default locale (Settings → Languages).
  const account = await (
    await getDb()
  ).account.findUnique({
    where: { id: user.accountId },
    select: {
      timeZone: true,
      publisherConfig: { select: { languageIetfCode: true, languageIsoCode: true, localesOffered: true } },
    },
  });
  const { defaultLocale } = accountLocalesFrom(account?.publisherConfig ?? null);
  const items: AdminNavItem[] = visibleAreas(user.roles).map((area) => ({
    href: area.entry ?? area.href,
    label: area.label,
    children: area.sections?.map((section) => ({ href: `${area.href}/${section.slug}`, label: section.label })),
  }));

  return (
    <TRPCReactProvider>
      <TimeZoneProvider zone={account?.timeZone ?? "UTC"}>
        <FormatLocaleProvider locale={defaultLocale}>
          <ConfirmProvider>
            <div className="min-h-screen">
              <a
                href="#main"
                className="sr-only rounded bg-white px-3 py-2 text-sm font-medium text-brand-700 focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:z-50 focus:ring-2 focus:ring-brand-600"
              >
                Skip to content
              </a>
              <header className="sticky top-0 z-10 border-b border-gray-200 bg-white">
                <div className="flex h-14 items-center justify-between gap-4 px-4 sm:px-6">
                  <div className="flex min-w-0 items-center gap-3">
                    <PageLink
                      href="/admin"
                      className="rounded text-lg font-bold tracking-tight text-gray-900 focus-visible:ring-2 focus-visible:ring-brand-600 focus-visible:outline-none"
                    >
                      Masthead
                    </PageLink>
                    <span aria-hidden="true" className="text-gray-300">
                      /
                    </span>
                    <span className="truncate text-sm font-medium text-gray-700" data-testid="account-name">
                      {user.accountName}
                    </span>
                  </div>
                  <div className="flex items-center gap-4">
                    <div className="hidden text-right sm:block" data-testid="signed-in-user">
                      <p className="text-sm font-medium text-gray-900">{user.name}</p>
                      <p className="text-xs text-gray-500">
                        {user.email} · {user.roles.map((role) => ROLE_LABELS[role]).join(", ")}
                      </p>
                    </div>
                    <SignOutButton />
                  </div>
                </div>
              </header>
              <div className="flex flex-col lg:flex-row">
                <AdminNav items={items} />
                <main id="main" className="min-w-0 flex-1 px-4 py-8 sm:px-6 lg:px-10">
                  <div className="mx-auto max-w-6xl">{children}</div>
                </main>
              </div>
            </div>
          </ConfirmProvider>
        </FormatLocaleProvider>
      </TimeZoneProvider>
    </TRPCReactProvider>
  );
}
