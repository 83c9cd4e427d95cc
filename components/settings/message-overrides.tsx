"use client";

/**
 * Settings → Languages, the newsroom's own words: every reader-facing message of a surface in one
 * locale beside English, the account's overrides marked, one opened at a time in the editor
 * (./override-editor.tsx); and the overrides an upgrade left unused, with their reason
 * (tRPC languages.messages / languages.overrides; docs/i18n.md "The newsroom's own words").
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";

import { useTRPC } from "@/components/trpc/react";
import {
  Badge,
  Button,
  EmptyState,
  ErrorAlert,
  FilterSelect,
  LoadState,
  Panel,
  SearchInput,
  useConfirm,
} from "@/components/ui";
import { LOCALE_NAMES, LOCALES, type Locale } from "@/i18n/locales";
import type { TMessageRow, TOverrideRow } from "@/server/i18n/language-settings.schema";

import { OverrideEditor, sourceDirection } from "./override-editor";

const SURFACE_NAMES: ReadonlyMap<string, string> = new Map([
  ["widgets", "Widgets"],
  ["member", "Member pages"],
  ["paywall", "Paywall"],
  ["mail", "Mail"],
]);

function matches(row: TMessageRow, search: string): boolean {
  if (!search) return true;
  const needle = search.toLocaleLowerCase();
  return [row.key, row.english, row.catalogue, row.override ?? ""].some((text) =>
    text.toLocaleLowerCase().includes(needle),
  );
}

export function MessageOverrides({ surfaces, defaultLocale }: { surfaces: readonly string[]; defaultLocale: Locale }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [surface, setSurface] = useState(surfaces[0] ?? "widgets");
  const [locale, setLocale] = useState<Locale>(defaultLocale);
  const [search, setSearch] = useState("");
  const [open, setOpen] = useState<string | null>(null);
  const messages = useQuery(trpc.languages.messages.queryOptions({ surface: surface as never, locale }));
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: trpc.languages.messages.queryKey() }),
      queryClient.invalidateQueries({ queryKey: trpc.languages.overrides.queryKey() }),
    ]);
  const rows = (messages.data?.messages ?? []).filter((row) => matches(row, search.trim()));
  const direction = messages.data?.direction ?? "ltr";

  return (
    <Panel
      title="Messages"
      actions={
        <>
          <FilterSelect
            label="Surface"
            value={surface}
            onChange={(event) => {
              setSurface(event.target.value);
              setOpen(null);
            }}
            options={surfaces.map((s) => ({ value: s, label: SURFACE_NAMES.get(s) ?? s }))}
          />
          <FilterSelect
            label="Locale"
            value={locale}
            onChange={(event) => {
              setLocale(event.target.value as Locale);
              setOpen(null);
            }}
            options={LOCALES.map((l) => ({ value: l, label: LOCALE_NAMES.get(l) ?? l }))}
          />
        </>
      }
    >
      <div className="space-y-3 p-4">
        <p className="text-sm text-gray-600">
          Your own words for any message readers see, per locale: the paywall&apos;s offer, the comment guidelines, a
          mail&apos;s greeting. An override is plain text and keeps the message&apos;s arguments; it is used from the
          moment it is saved, and kept when Masthead is upgraded.
        </p>
        <SearchInput
          aria-label="Find a message"
          placeholder="Find a message by its key or words…"
          value={search}
          onChange={(event) => setSearch(event.target.value)}
        />
        <LoadState query={messages} what="the messages" />
      </div>
      {messages.data && rows.length === 0 ? <EmptyState>No message matches “{search}”.</EmptyState> : null}
      <ul className="divide-y divide-gray-200" aria-label={`Messages of ${SURFACE_NAMES.get(surface) ?? surface}`}>
        {rows.map((row) => (
          <li key={row.key} className="space-y-2 px-4 py-3" data-testid={`message-${row.key}`}>
            <div className="flex flex-wrap items-start justify-between gap-2">
              <div className="min-w-0 space-y-1">
                <p className="flex flex-wrap items-center gap-2">
                  <code className="text-xs break-all text-gray-700">{row.key}</code>
                  {row.override !== null ? <Badge tone={row.stale ? "amber" : "blue"}>your words</Badge> : null}
                  {row.stale ? <Badge tone="amber">not used</Badge> : null}
                </p>
                <p lang={locale} dir={sourceDirection(row, direction)} className="text-sm break-words text-gray-900">
                  {row.override ?? row.catalogue}
                </p>
                {row.stale ? <p className="text-xs text-amber-800">{row.stale}</p> : null}
              </div>
              {open !== row.key ? (
                <Button size="sm" onClick={() => setOpen(row.key)} aria-label={`Edit ${row.key}`}>
                  Edit
                </Button>
              ) : null}
            </div>
            {open === row.key ? (
              <OverrideEditor
                target={{ surface, locale, direction }}
                row={row}
                onDone={async (changed) => {
                  setOpen(null);
                  if (changed) await refresh();
                }}
              />
            ) : null}
          </li>
        ))}
      </ul>
    </Panel>
  );
}

/** The overrides an upgrade left unused (their key is gone or their arguments changed), to edit or remove. */
export function StaleOverrides() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const confirm = useConfirm();
  const overrides = useQuery(trpc.languages.overrides.queryOptions());
  const remove = useMutation(
    trpc.languages.removeOverride.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.languages.overrides.queryKey() }),
    }),
  );
  const stale = (overrides.data ?? []).filter((o): o is TOverrideRow & { stale: string } => o.stale !== null);
  if (stale.length === 0) return null;
  return (
    <Panel title="Overrides not in use" padded>
      <p className="text-sm text-gray-600">
        An upgrade removed these messages or changed what they are given. Readers get the catalogue&apos;s words until
        you edit or remove them.
      </p>
      <ErrorAlert error={remove.error} />
      <ul className="mt-3 divide-y divide-gray-200">
        {stale.map((o) => (
          <li
            key={`${o.surface}/${o.locale}/${o.key}`}
            className="flex flex-wrap items-start justify-between gap-2 py-2"
          >
            <div className="min-w-0 text-sm">
              <code className="text-xs break-all">
                {o.surface} · {o.locale} · {o.key}
              </code>
              <p lang={o.locale} className="break-words text-gray-900">
                {o.message}
              </p>
              <p className="text-xs text-amber-800">{o.stale}</p>
            </div>
            <Button
              size="sm"
              variant="danger"
              onClick={async () => {
                const ok = await confirm({
                  title: `Remove your words for ${o.key} (${o.locale})?`,
                  confirmLabel: "Remove",
                });
                if (ok) remove.mutate({ surface: o.surface as never, locale: o.locale, key: o.key });
              }}
            >
              Remove
            </Button>
          </li>
        ))}
      </ul>
    </Panel>
  );
}
