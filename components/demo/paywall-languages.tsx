/**
 * The demo paywall's language links (docs/subscriptions.md, "Demo paywalled story"): each locale the
 * demo publisher offers, named in its own language, linking the same page with `?locale=`.
 */
import Link from "next/link";

import { LOCALE_NAMES, type Locale } from "@/i18n/locales";

export function PaywallLanguages({
  label,
  offered,
  current,
  path,
}: {
  label: string;
  offered: readonly Locale[];
  current: Locale;
  path: string;
}) {
  return (
    <nav aria-label={label}>
      <ul className="flex flex-wrap gap-x-3 gap-y-1 text-sm">
        {offered.map((locale) => (
          <li key={locale}>
            <Link
              href={`${path}?locale=${encodeURIComponent(locale)}`}
              lang={locale}
              hrefLang={locale}
              aria-current={locale === current ? "page" : undefined}
              className="inline-block py-1 text-brand-700 underline aria-[current=page]:font-semibold aria-[current=page]:no-underline"
            >
              {LOCALE_NAMES.get(locale)}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
