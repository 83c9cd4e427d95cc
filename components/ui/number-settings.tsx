"use client";

/**
 * Whole-number settings as a settings form lists them: each a field with its label, hint and
 * bounds, typed as text in the draft (numbersAsText) and changed through the draft's `set`.
 *
 *   <NumberSettings settings={[{ field: "trustWindowDays", label: "Window (days)", min: 1, max: 365 }]}
 *     draft={draft} set={set} error={error} />
 */
import type { ReactNode } from "react";

import { FormField } from "./form-field";
import { WholeNumberInput } from "./input";

export type NumberSetting<F extends string> = {
  field: F;
  label: ReactNode;
  hint?: ReactNode;
  min: number;
  max: number;
};

export function NumberSettings<F extends string>({
  settings,
  draft,
  set,
  error,
  inputClassName,
}: {
  settings: readonly NumberSetting<F>[];
  draft: Readonly<Record<F, string>>;
  set: (patch: Partial<Record<F, string>>) => void;
  error: (field: F) => string | undefined;
  /** The inputs' width (WholeNumberInput's own when not given). */
  inputClassName?: string;
}) {
  return settings.map(({ field, label, hint, min, max }) => (
    <FormField key={field} label={label} hint={hint} error={error(field)}>
      <WholeNumberInput
        min={min}
        max={max}
        className={inputClassName}
        value={draft[field]}
        onChange={(e) => set({ [field]: e.target.value } as Partial<Record<F, string>>)}
      />
    </FormField>
  ));
}
