"use client";

/**
 * The moderation page's search and filters: words of the comment, page or story, reader, reason,
 * and a range of days of the account's zone. Checked with the same zod schema tRPC uses before they are applied, so a
 * mistake is named beside its field and never reaches the server.
 */
import { useState, type FormEvent } from "react";

import { Button, FormField, Input, Select, useTimeZone } from "@/components/ui";
import {
  FILTER_LIMITS,
  hasFilters,
  ZQueueFilters,
  type FILTER_KEYS,
  type TQueueFilters,
} from "@/server/engagement/moderation/queue/queue-filters.schema";

type Draft = Record<(typeof FILTER_KEYS)[number], string>;

const draftOf = (filters: TQueueFilters): Draft => ({
  q: filters.q ?? "",
  page: filters.page ?? "",
  reader: filters.reader ?? "",
  reason: filters.reason ?? "",
  from: filters.from ?? "",
  to: filters.to ?? "",
});

export function ModerationFilters({
  filters,
  reasons,
  decidedView,
  onApply,
}: {
  filters: TQueueFilters;
  /** The reason codes a moderator may filter by, with their wording. */
  reasons: readonly { code: string; text: string }[];
  /** Dates are the decision's in a decided view, the comment's otherwise. */
  decidedView: boolean;
  onApply: (filters: TQueueFilters) => void;
}) {
  const [draft, setDraft] = useState<Draft>(() => draftOf(filters));
  const [errors, setErrors] = useState<Partial<Record<keyof Draft, string>>>({});
  const [applied, setApplied] = useState(filters);
  // The applied filters changed from outside (a view's link, Clear): the form follows them.
  if (applied !== filters) {
    setApplied(filters);
    setDraft(draftOf(filters));
    setErrors({});
  }

  const set = (key: keyof Draft) => (event: { target: { value: string } }) =>
    setDraft((d) => ({ ...d, [key]: event.target.value }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = ZQueueFilters.safeParse(draft);
    if (!parsed.success) {
      const next = Object.create(null) as Partial<Record<keyof Draft, string>>;
      for (const issue of parsed.error.issues) next[String(issue.path[0]) as keyof Draft] ??= issue.message;
      setErrors(next);
      return;
    }
    setErrors({});
    onApply(parsed.data);
  };

  const dates = decidedView ? "decision" : "comment";
  const zone = useTimeZone() ?? "UTC";
  return (
    <form role="search" aria-label="Search and filter comments" onSubmit={submit} className="space-y-3" noValidate>
      {/* min-w-0: a grid item is otherwise as wide as its longest reason's wording. */}
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-3">
        <FormField className="min-w-0" label="Search comments" hint="Words of the comment's text." error={errors.q}>
          <Input type="search" value={draft.q} onChange={set("q")} maxLength={FILTER_LIMITS.text} />
        </FormField>
        <FormField
          className="min-w-0"
          label="Page or story"
          hint="Part of its URL or headline, or its story's headline."
          error={errors.page}
        >
          <Input type="search" value={draft.page} onChange={set("page")} maxLength={FILTER_LIMITS.page} />
        </FormField>
        <FormField className="min-w-0" label="Reader" hint="Name, e-mail or member id." error={errors.reader}>
          <Input type="search" value={draft.reader} onChange={set("reader")} maxLength={FILTER_LIMITS.reader} />
        </FormField>
        <FormField className="min-w-0" label="Reason" error={errors.reason}>
          <Select value={draft.reason} onChange={set("reason")} className="max-w-full min-w-0 truncate">
            <option value="">Any reason</option>
            {reasons.map((r) => (
              <option key={r.code} value={r.code}>
                {r.text}
              </option>
            ))}
            {draft.reason && !reasons.some((r) => r.code === draft.reason) ? (
              <option value={draft.reason}>{draft.reason}</option>
            ) : null}
          </Select>
        </FormField>
        <FormField
          className="min-w-0"
          label="From"
          hint={`Day of the ${dates} in ${zone}, included.`}
          error={errors.from}
        >
          <Input type="date" value={draft.from} onChange={set("from")} />
        </FormField>
        <FormField className="min-w-0" label="To" hint={`Day of the ${dates} in ${zone}, included.`} error={errors.to}>
          <Input type="date" value={draft.to} onChange={set("to")} />
        </FormField>
      </div>
      <div className="flex flex-wrap gap-2">
        <Button type="submit" variant="primary" size="sm">
          Search
        </Button>
        {hasFilters(filters) ? (
          <Button size="sm" onClick={() => onApply({})}>
            Clear filters
          </Button>
        ) : null}
      </div>
    </form>
  );
}
