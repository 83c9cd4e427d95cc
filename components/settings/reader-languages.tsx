"use client";

/**
 * Settings → Languages, the locales: the account's default locale (which also writes its language
 * setting) and the locales offered to readers (tRPC languages.get / languages.update, owners;
 * docs/i18n.md "Choosing the locale").
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";

import { useTRPC } from "@/components/trpc/react";
import {
  Checkbox,
  Fieldset,
  FormField,
  Panel,
  Select,
  serverErrors,
  SettingsFormShell,
  SettingsLoader,
  type SettingsEditorProps,
} from "@/components/ui";
import type { Locale } from "@/i18n/locales";
import type { TLanguagesView } from "@/server/i18n/language-settings.schema";

const FIELDS = ["defaultLocale", "offered"] as const;

export function ReaderLanguages() {
  const trpc = useTRPC();
  return (
    <Panel title="Reader languages" padded>
      {/* Mounted once: a save answers the view as saved, and the form keeps its state and note. */}
      <SettingsLoader<TLanguagesView, string>
        query={useQuery(trpc.languages.get.queryOptions())}
        what="the language settings"
      >
        {(editor) => <ReaderLanguagesForm {...editor} />}
      </SettingsLoader>
    </Panel>
  );
}

function ReaderLanguagesForm({ view, saved, setSaved }: SettingsEditorProps<TLanguagesView, string>) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [defaultLocale, setDefaultLocale] = useState<Locale>(view.defaultLocale);
  const [offered, setOffered] = useState<ReadonlySet<Locale>>(
    new Set(view.offered.length > 0 ? view.offered : view.locales.map((l) => l.locale)),
  );
  const update = useMutation(
    trpc.languages.update.mutationOptions({
      // The answer is the view as saved: the page's other panels follow.
      onSuccess: ({ changed, view: saved }) => {
        setSaved(changed.length > 0 ? `Saved: ${changed.join(", ")}.` : "Nothing had changed.");
        queryClient.setQueryData(trpc.languages.get.queryKey(), saved);
      },
    }),
  );
  const errors = serverErrors(update.error, FIELDS);

  function toggle(locale: Locale, on: boolean) {
    setSaved(null);
    setOffered((current) => {
      const next = new Set(current);
      if (on) next.add(locale);
      else next.delete(locale);
      return next;
    });
  }

  return (
    <SettingsFormShell
      className="space-y-4"
      aria-label="Reader languages"
      onSave={() => {
        // Listed in the catalogue's order; the default is offered whether ticked or not.
        const list = view.locales.map((l) => l.locale).filter((l) => offered.has(l) || l === defaultLocale);
        update.mutate({ defaultLocale, offered: list });
      }}
      errors={errors}
      saving={update.isPending}
      savedNote={saved}
      saveLabel="Save languages"
    >
      <p className="text-sm text-gray-600">
        Widgets, member pages, the paywall and mail speak to each reader in one of these. The default is used when
        neither the page nor the reader names an offered one; it also sets the account&apos;s language (now{" "}
        <code>{view.language.ietfCode}</code>, {view.language.direction === "rtl" ? "right to left" : "left to right"}
        ).
      </p>
      <FormField label="Default locale" error={errors.fields.defaultLocale}>
        <Select
          value={defaultLocale}
          onChange={(event) => {
            setSaved(null);
            setDefaultLocale(event.target.value as Locale);
          }}
          options={view.locales.map((l) => ({ value: l.locale, label: `${l.name} (${l.locale})` }))}
        />
      </FormField>
      <Fieldset legend="Offered to readers" error={errors.fields.offered}>
        <div className="grid gap-2 sm:grid-cols-2 lg:grid-cols-4">
          {view.locales.map((l) => (
            <Checkbox
              key={l.locale}
              label={`${l.name} (${l.locale})`}
              checked={offered.has(l.locale) || l.locale === defaultLocale}
              disabled={l.locale === defaultLocale}
              onChange={(event) => toggle(l.locale, event.target.checked)}
            />
          ))}
        </div>
      </Fieldset>
    </SettingsFormShell>
  );
}
