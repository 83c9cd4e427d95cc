/** Checkboxes and radio buttons with their label to the right, and the fieldset that groups them. */
import { useId, type ComponentProps, type ReactNode } from "react";

import { cx } from "./cx";

type ChoiceProps = Omit<ComponentProps<"input">, "type"> & {
  label: ReactNode;
  /** A line under the label, read as the choice's description (not part of its name). */
  description?: ReactNode;
};

function Choice({ type, label, description, className, ...props }: ChoiceProps & { type: "checkbox" | "radio" }) {
  const id = useId();
  if (description !== undefined) {
    return (
      <div className={cx("flex items-start gap-2 text-sm text-gray-700", className)}>
        <input
          id={`${id}-input`}
          type={type}
          aria-describedby={`${id}-description`}
          className={cx(type === "checkbox" && "rounded", "mt-0.5 text-brand-600 focus:ring-brand-600")}
          {...props}
        />
        <span className="min-w-0">
          <label htmlFor={`${id}-input`}>{label}</label>
          <span id={`${id}-description`} className="block text-xs text-gray-600">
            {description}
          </span>
        </span>
      </div>
    );
  }
  return (
    <label className={cx("flex items-center gap-2 text-sm text-gray-700", className)}>
      <input
        type={type}
        className={cx(type === "checkbox" && "rounded", "text-brand-600 focus:ring-brand-600")}
        {...props}
      />
      {label}
    </label>
  );
}

export const Checkbox = (props: ChoiceProps) => <Choice type="checkbox" {...props} />;

export const Radio = (props: ChoiceProps) => <Choice type="radio" {...props} />;

/** Radio buttons for one value: one option per choice, in a row that wraps. */
export function RadioChoices<V extends string | boolean>({
  name,
  value,
  options,
  onChange,
}: {
  /** The radio group's name; one is made up when not given. */
  name?: string;
  value: V;
  options: readonly { value: V; label: ReactNode }[];
  onChange: (value: V) => void;
}) {
  const generated = useId();
  return (
    <div className="flex flex-wrap gap-x-4 gap-y-2">
      {options.map((option) => (
        <Radio
          key={String(option.value)}
          name={name ?? generated}
          value={String(option.value)}
          label={option.label}
          checked={value === option.value}
          onChange={() => onChange(option.value)}
        />
      ))}
    </div>
  );
}

/** A group of checkboxes or radio buttons under one legend. */
export function Fieldset({
  legend,
  hideLegend,
  error,
  className,
  children,
}: {
  legend: ReactNode;
  /** Keeps the legend for screen readers only. */
  hideLegend?: boolean;
  /** The group's problem, e.g. "choose at least one event". */
  error?: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <fieldset className={className}>
      <legend className={hideLegend ? "sr-only" : "text-sm font-medium text-gray-900"}>{legend}</legend>
      <div className={hideLegend ? undefined : "mt-2"}>{children}</div>
      {error ? (
        <p className="mt-1 text-xs text-red-700" data-testid="field-error">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}
