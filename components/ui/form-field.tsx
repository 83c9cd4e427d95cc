"use client";

/**
 * A form field: its label, the control, and below it either the field's error or a hint. The
 * controls of this kit (Input, Textarea, Select) inside it take their id, aria-describedby and
 * aria-invalid from the field, so a form says each only once:
 *
 *   <FormField label="Slug" hint="Lower-case words and hyphens." error={errors.fields.slug}>
 *     <Input value={slug} onChange={…} />
 *   </FormField>
 */
import { createContext, use, useId, type ReactNode } from "react";

type FieldControl = { id: string; describedBy: string | undefined; invalid: boolean };

const FieldContext = createContext<FieldControl | null>(null);

/** The id and ARIA attributes a control inside a FormField takes (none outside one). */
export function useFieldControl(): FieldControl | null {
  return use(FieldContext);
}

export function FormField({
  label,
  hint,
  error,
  optional,
  id,
  className,
  children,
}: {
  label: ReactNode;
  hint?: ReactNode;
  /** The field's problem (from the client's own check or the server's `{ field, issue }`). */
  error?: string;
  /** Adds "(optional)" to the label; a text is the marker in the page's own language. */
  optional?: boolean | string;
  /** The control's id; one is made up when not given. */
  id?: string;
  className?: string;
  children: ReactNode;
}) {
  const generated = useId();
  const controlId = id ?? generated;
  const messageId = `${controlId}-message`;
  const message = error ?? hint;
  return (
    <div className={className}>
      <label htmlFor={controlId} className="block text-sm font-medium text-gray-900">
        {label}
        {optional ? (
          <span className="font-normal text-gray-500"> {typeof optional === "string" ? optional : "(optional)"}</span>
        ) : null}
      </label>
      <div className="mt-1">
        <FieldContext value={{ id: controlId, describedBy: message ? messageId : undefined, invalid: Boolean(error) }}>
          {children}
        </FieldContext>
      </div>
      {error ? (
        <p id={messageId} className="mt-1 text-xs text-red-700" data-testid="field-error">
          {error}
        </p>
      ) : hint ? (
        <p id={messageId} className="mt-1 text-xs text-gray-500">
          {hint}
        </p>
      ) : null}
    </div>
  );
}

/** The buttons at the bottom of a form or a dialog: the main action first, then Cancel. */
export function FormActions({ children }: { children: ReactNode }) {
  return <div className="flex flex-wrap gap-2">{children}</div>;
}
