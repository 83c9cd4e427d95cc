"use client";

/**
 * A report's range of days: "From" and "To" date inputs and "Show", checked with the report's own
 * schema before `onChange` gets the range; each date's problem shows on its field.
 */
import { useState, type FormEvent } from "react";
import type { ZodType } from "zod";

import { Button } from "./button";
import { FormField } from "./form-field";
import { Input } from "./input";

type DayRange = { from: string; to: string };

export function DayRangeForm<T extends DayRange>({
  range,
  onChange,
  schema,
  label,
  fromLabel,
  toLabel,
  hint,
}: {
  range: T;
  onChange: (range: T) => void;
  schema: ZodType<T>;
  /** Names the form ("Report range"). */
  label: string;
  fromLabel: string;
  toLabel: string;
  /** Under "To": the days' time zone and the longest range. */
  hint: string;
}) {
  const [from, setFrom] = useState(range.from);
  const [to, setTo] = useState(range.to);
  const [problem, setProblem] = useState<{ from?: string; to?: string }>({});
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const parsed = schema.safeParse({ from, to });
    if (!parsed.success) {
      const out: { from?: string; to?: string } = {};
      for (const issue of parsed.error.issues) out[issue.path[0] === "from" ? "from" : "to"] ??= issue.message;
      return setProblem(out);
    }
    setProblem({});
    onChange(parsed.data);
  };
  return (
    <form className="flex flex-wrap items-end gap-3" onSubmit={onSubmit} aria-label={label} noValidate>
      <FormField label={fromLabel} error={problem.from}>
        <Input type="date" name="from" value={from} onChange={(e) => setFrom(e.target.value)} fit />
      </FormField>
      <FormField label={toLabel} error={problem.to} hint={hint}>
        <Input type="date" name="to" value={to} onChange={(e) => setTo(e.target.value)} fit />
      </FormField>
      <Button type="submit" variant="secondary">
        Show
      </Button>
    </form>
  );
}
