"use client";

/** Settings → Languages: the locales readers are offered and the newsroom's own words (docs/i18n.md). */
import { useQuery } from "@tanstack/react-query";

import { useTRPC } from "@/components/trpc/react";

import { MessageOverrides, StaleOverrides } from "./message-overrides";
import { ReaderLanguages } from "./reader-languages";

export function LanguagesSettings() {
  const trpc = useTRPC();
  const view = useQuery(trpc.languages.get.queryOptions());
  return (
    <div className="space-y-6">
      <ReaderLanguages />
      <StaleOverrides />
      {view.data ? <MessageOverrides surfaces={view.data.surfaces} defaultLocale={view.data.defaultLocale} /> : null}
    </div>
  );
}
