"use client";

/**
 * Text inputs, text areas and selects. Inside a FormField they are labelled by it; elsewhere give
 * them an `aria-label` (a toolbar's search box) or a `<label htmlFor>`. `compact` is the smaller
 * size for controls inside dense rows (a collection item's layout) and filter bars.
 */
import { useId, type ComponentProps } from "react";

import { cx } from "./cx";
import { useFieldControl } from "./form-field";

const CONTROL =
  "block rounded-md border border-gray-300 bg-white text-gray-900 shadow-sm placeholder:text-gray-400 focus:border-brand-600 focus:ring-2 focus:ring-brand-600/30 focus:outline-none disabled:bg-gray-50 disabled:text-gray-500 aria-invalid:border-red-400";
const SIZE = { normal: "px-3 py-2 text-sm", compact: "px-2 py-1.5 text-sm" };

type Compact = {
  /** The smaller size, for filter bars and dense rows. */
  compact?: boolean;
  /** As wide as its content, or as a width class in className says, rather than the whole line. */
  fit?: boolean;
};

const controlClasses = ({ compact, fit }: Compact, className?: string) =>
  cx(CONTROL, compact ? SIZE.compact : SIZE.normal, !fit && "w-full", className);

type AriaInvalid = ComponentProps<"input">["aria-invalid"];

/** id, aria-describedby and aria-invalid from the surrounding FormField, unless given. */
function useControlProps(props: { id?: string; "aria-describedby"?: string; "aria-invalid"?: AriaInvalid }) {
  const field = useFieldControl();
  return {
    id: props.id ?? field?.id,
    "aria-describedby": props["aria-describedby"] ?? field?.describedBy,
    "aria-invalid": props["aria-invalid"] ?? (field?.invalid || undefined),
  };
}

export function Input({ compact, fit, className, ...props }: ComponentProps<"input"> & Compact) {
  const control = useControlProps(props);
  return <input {...props} {...control} className={controlClasses({ compact, fit }, className)} />;
}

/**
 * A whole number between `min` and `max`: the numeric keypad on a phone, steps of one, as wide as
 * its width class (w-28 unless given). The value stays the text typed; the form's zod schema
 * decides whether it is a number in range.
 */
export function WholeNumberInput({
  className = "w-28",
  ...props
}: Omit<ComponentProps<"input">, "type" | "inputMode" | "step"> & { min: number; max: number } & Compact) {
  return <Input type="number" inputMode="numeric" step={1} fit className={className} {...props} />;
}

/** A search box: type=search, the usual placeholder; give it an aria-label. */
export function SearchInput({ placeholder = "Search…", ...props }: ComponentProps<"input"> & Compact) {
  return <Input type="search" placeholder={placeholder} {...props} />;
}

export function Textarea({ compact, fit, className, ...props }: ComponentProps<"textarea"> & Compact) {
  const control = useControlProps(props);
  return <textarea {...props} {...control} className={controlClasses({ compact, fit }, className)} />;
}

export type SelectOption = { value: string | number; label: string };

/** A select; its options as children, or as `options` (after an optional `placeholder` option with value ""). */
export function Select({
  compact,
  fit,
  className,
  options,
  placeholder,
  children,
  ...props
}: ComponentProps<"select"> & Compact & { options?: readonly SelectOption[]; placeholder?: string }) {
  const control = useControlProps(props);
  return (
    <select {...props} {...control} className={controlClasses({ compact, fit }, cx(compact && "pe-8", className))}>
      {placeholder !== undefined ? <option value="">{placeholder}</option> : null}
      {options?.map((option) => (
        <option key={option.value} value={option.value}>
          {option.label}
        </option>
      ))}
      {children}
    </select>
  );
}

/** A filter above a list: a small label and a compact select side by side (a panel's actions). */
export function FilterSelect({ label, id, className, ...props }: ComponentProps<typeof Select> & { label: string }) {
  const generated = useId();
  const selectId = id ?? generated;
  // As wide as its longest option, but shrinking (min-w-0) to the row it is in (long names on phones);
  // a caller's max-w-* class still bounds it.
  return (
    <span className="flex max-w-full min-w-0 items-center gap-2">
      <label htmlFor={selectId} className="text-sm whitespace-nowrap text-gray-700">
        {label}
      </label>
      <Select compact fit id={selectId} className={cx("min-w-0", className)} {...props} />
    </span>
  );
}

/** A "Status" filter above a list: All, or one status by its label (with its count, given `counts`). */
export function StatusFilter<S extends string>({
  value,
  onChange,
  labels,
  counts,
}: {
  value: S | "";
  onChange: (status: S | "") => void;
  labels: Record<S, string>;
  counts?: Record<S, number>;
}) {
  return (
    <FilterSelect
      label="Status"
      value={value}
      onChange={(event) => onChange(event.target.value as S | "")}
      placeholder="All"
      options={(Object.keys(labels) as S[]).map((s) => ({
        value: s,
        label: `${labels[s]}${counts ? ` (${counts[s]})` : ""}`,
      }))}
    />
  );
}
