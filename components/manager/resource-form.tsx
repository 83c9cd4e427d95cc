"use client";

/**
 * The add/edit form of a ResourceManager, drawn from the kind's field specs. Before it submits, it
 * runs the kind's own checks and the procedure's zod schema (the one the server parses with), so
 * most problems show at once, next to their field; what the server still refuses (a slug in use)
 * lands there too.
 */
import { useMutation } from "@tanstack/react-query";
import type { DecorateMutationProcedure, ResolverDef } from "@trpc/tanstack-react-query";
import { useState, type ReactNode } from "react";
import type { ZodType } from "zod";

import {
  Checkbox,
  Fieldset,
  FormEnd,
  FormField,
  Input,
  RadioChoices,
  Select,
  serverErrors,
  Textarea,
  type FieldIssue,
  type ServerErrors,
} from "@/components/ui";
import { nullPrototypeRecord } from "@/server/own-keys";

import type { FieldSpec, FormContext, FormValues } from "./config";

/** The first problem of each field, from a zod schema's issues (keyed by the first path segment). */
function schemaProblems(schema: ZodType, input: unknown): Record<string, string> {
  const result = schema.safeParse(input);
  const out = nullPrototypeRecord<string>();
  if (!result.success) for (const issue of result.error.issues) out[String(issue.path[0] ?? "")] ??= issue.message;
  return out;
}

export function ResourceForm<Row, Values extends FormValues, TDef extends ResolverDef>({
  procedure,
  fields,
  initial,
  context,
  validate,
  schema,
  toInput,
  submitLabel,
  onSaved,
  onCancel,
}: {
  /** The mutation the form submits to (create or update). */
  procedure: DecorateMutationProcedure<TDef>;
  fields: readonly FieldSpec<Row, Values>[];
  initial: Values;
  context: Omit<FormContext<Row, Values>, "values">;
  validate?: (values: Values) => Partial<Record<string, string>>;
  schema: ZodType;
  toInput: (values: Values) => TDef["input"];
  submitLabel: string;
  onSaved: (output: TDef["output"]) => Promise<unknown>;
  onCancel: () => void;
}) {
  const mutation = useMutation(procedure.mutationOptions({ onSuccess: onSaved }));
  const [values, setValues] = useState<Values>(initial);
  const [problems, setProblems] = useState<ServerErrors<string> | null>(null);
  const full: FormContext<Row, Values> = { ...context, values };
  const set = (name: keyof Values & string, value: string) => setValues((v) => ({ ...v, [name]: value }));
  const shown = fields.filter(
    (f) => (!f.only || f.only === (context.editing ? "update" : "create")) && (!f.when || f.when(values)),
  );
  // Problems of fields not on screen go to the alert, never silently nowhere.
  const names = shown.map((f) => f.name);
  const errors = problems ?? serverErrors(mutation.error, names);

  return (
    <form
      className="space-y-4"
      onSubmit={(event) => {
        event.preventDefault();
        const own = validate?.(values) ?? {};
        const found = Object.keys(own).length ? own : schemaProblems(schema, toInput(values));
        if (Object.keys(found).length) {
          const fieldsFound = nullPrototypeRecord<string>();
          const others: FieldIssue[] = [];
          for (const [field, issue = ""] of Object.entries(found)) {
            if (names.includes(field)) fieldsFound[field] = issue;
            else others.push({ field, issue });
          }
          setProblems({ message: "Please correct the highlighted fields.", fields: fieldsFound, others });
          return;
        }
        setProblems(null);
        mutation.mutate(toInput(values));
      }}
    >
      {/* minmax(0, 1fr) columns and min-w-0 fields: a long value (a headline) cannot widen the form past a phone. */}
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
        {shown.map((field) => {
          const hint = typeof field.hint === "function" ? field.hint(full) : field.hint;
          const error = errors.fields[field.name];
          const value = values[field.name] ?? "";
          const className = field.wide ? "min-w-0 sm:col-span-2" : "min-w-0";
          if (field.kind === "checkboxes") {
            return (
              <CheckboxesField
                key={field.name}
                field={field}
                context={full}
                value={value}
                error={error}
                hint={hint}
                className={className}
                onChange={(next) => set(field.name, next)}
              />
            );
          }
          if (field.kind === "radio") {
            return (
              <Fieldset key={field.name} legend={field.label} error={error} className={className}>
                <RadioChoices
                  name={field.name}
                  value={value}
                  options={field.options}
                  onChange={(next) => set(field.name, next)}
                />
              </Fieldset>
            );
          }
          return (
            <FormField
              key={field.name}
              label={field.label}
              hint={hint}
              error={error}
              optional={field.optional}
              className={className}
            >
              {field.kind === "text" || field.kind === "textarea" ? (
                <TextControl field={field} value={value} onChange={(next) => set(field.name, next)} />
              ) : field.kind === "select" ? (
                <Select
                  value={value}
                  placeholder={field.emptyLabel}
                  options={field.options(full)}
                  onChange={(e) => set(field.name, e.target.value)}
                />
              ) : (
                field.render({ value, values, onChange: (next) => set(field.name, next) })
              )}
            </FormField>
          );
        })}
      </div>
      <FormEnd
        errors={errors}
        label={submitLabel}
        pending={mutation.isPending}
        pendingText="Saving…"
        onCancel={onCancel}
      />
    </form>
  );
}

/** A text field's input, or its textarea. */
function TextControl<Row, Values extends FormValues>({
  field,
  value,
  onChange,
}: {
  field: Extract<FieldSpec<Row, Values>, { kind: "text" | "textarea" }>;
  value: string;
  onChange: (value: string) => void;
}) {
  const props = {
    required: field.required,
    maxLength: field.maxLength,
    value,
    className: field.mono ? "font-mono" : undefined,
  };
  return field.kind === "text" ? (
    <Input
      {...props}
      type={field.type ?? "text"}
      placeholder={field.placeholder}
      onChange={(e) => onChange(e.target.value)}
    />
  ) : (
    <Textarea {...props} rows={field.rows ?? 3} onChange={(e) => onChange(e.target.value)} />
  );
}

/** Several choices under one legend; the value is the chosen options' values joined by commas. */
function CheckboxesField<Row, Values extends FormValues>({
  field,
  context,
  value,
  error,
  hint,
  className,
  onChange,
}: {
  field: Extract<FieldSpec<Row, Values>, { kind: "checkboxes" }>;
  context: FormContext<Row, Values>;
  value: string;
  error?: string;
  hint?: ReactNode;
  className?: string;
  onChange: (value: string) => void;
}) {
  const choices = field.useOptions(context);
  const chosen = new Set(value.split(",").filter(Boolean));
  const toggle = (option: string, on: boolean) => {
    const next = new Set(chosen);
    if (on) next.add(option);
    else next.delete(option);
    onChange([...next].join(","));
  };
  return (
    <Fieldset legend={field.label} error={error} className={className}>
      {choices.length ? (
        <div className="flex max-h-40 flex-col gap-2 overflow-y-auto">
          {choices.map((option) => (
            <Checkbox
              key={option.value}
              label={option.label}
              checked={chosen.has(String(option.value))}
              onChange={(e) => toggle(String(option.value), e.target.checked)}
            />
          ))}
        </div>
      ) : (
        <p className="text-sm text-gray-500">{field.emptyText ?? "Nothing to choose yet."}</p>
      )}
      {hint && !error ? <p className="mt-1 text-xs text-gray-500">{hint}</p> : null}
    </Fieldset>
  );
}
