"use client";

/**
 * The member pages' language picker: each offered locale in its own language (LOCALE_NAMES). A
 * choice goes to PUT /api/member/locale (saved on the member record when signed in, in a cookie
 * either way), then the page loads again in it. Until the page's script runs the picker is
 * disabled: a choice made before then would change the box and save nothing.
 */
import { useState } from "react";

import { Select, useInBrowser } from "@/components/ui";
import type { Locale } from "@/i18n/locales";

import { useWords } from "./member-i18n";
import { sendJson } from "./self-service-api";

export function LanguagePicker({ offered }: { offered: { code: Locale; name: string }[] }) {
  const { t, locale } = useWords();
  const [pending, setPending] = useState(false);
  const [failed, setFailed] = useState(false);
  const ready = useInBrowser();

  async function choose(code: string) {
    setPending(true);
    setFailed(false);
    const res = await sendJson("PUT", "/api/member/locale", { locale: code });
    if (res.ok) return window.location.reload(); // stay "pending" while the page loads again
    setPending(false);
    setFailed(true);
  }

  return (
    <div className="flex flex-col items-end gap-1">
      <div className="flex items-center gap-2 text-sm text-gray-700">
        <GlobeIcon />
        <label htmlFor="reader-language">{t("language.label")}</label>
        <Select
          id="reader-language"
          compact
          fit
          value={locale}
          disabled={pending || !ready}
          aria-busy={pending}
          data-testid="language-picker"
          onChange={(event) => void choose(event.target.value)}
        >
          {offered.map((o) => (
            <option key={o.code} value={o.code} lang={o.code}>
              {o.name}
            </option>
          ))}
        </Select>
      </div>
      {failed ? (
        <p role="alert" className="text-xs text-red-700">
          {t("language.failed")}
        </p>
      ) : null}
    </div>
  );
}

/** A globe (the same either way round: not mirrored in right-to-left pages). */
function GlobeIcon() {
  return (
    <svg
      aria-hidden="true"
      viewBox="0 0 20 20"
      className="size-4 shrink-0 text-gray-500"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.5"
    >
      <circle cx="10" cy="10" r="7.5" />
      <path d="M2.5 10h15M10 2.5c2 2.2 3 4.7 3 7.5s-1 5.3-3 7.5c-2-2.2-3-4.7-3-7.5s1-5.3 3-7.5Z" />
    </svg>
  );
}
