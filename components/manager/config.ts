/**
 * What a screen that lists, searches, adds, edits and deletes one kind of thing (tags, authors,
 * plans, coupons …) tells the generic ResourceManager. One object per kind, written once at module
 * level with defineManager(), which checks every part against the kind's tRPC procedures:
 *
 *   const tags = defineManager({
 *     procedures: (trpc) => crud(trpc.organise.tags), // or ({ list: trpc.….list, create: trpc.….create })
 *     listInput: searchInput, // or ({ search, filter }) => ({ q: search || undefined, type: filter || undefined })
 *     rows: (data) => ({ rows: data.tags, total: data.total }),
 *   }).with<TagValues>({ noun: { one: "tag", many: "tags" }, columns: […], fields: […], … });
 *   export const TagManager = () => <ResourceManager config={tags} />;
 *
 * Form values are strings, one per field, named like the procedure's input fields, so problems
 * the schema (client side) or the server name by field land next to the right field.
 */
import type { DecorateMutationProcedure, DecorateQueryProcedure, ResolverDef } from "@trpc/tanstack-react-query";
import type { ReactNode } from "react";
import type { ZodType } from "zod";

import type { useTRPC } from "@/components/trpc/react";
import type { Column, SelectOption } from "@/components/ui";

type TRPC = ReturnType<typeof useTRPC>;

/** A form's values: one string per field (selects and radios too; the kind converts them). */
export type FormValues = Record<string, string>;

/** What a field's options, hint or initial values may depend on. */
export type FormContext<Row, Values extends FormValues> = {
  values: Values;
  /** The rows on screen (a section's possible parents). */
  rows: readonly Row[];
  /** The row being edited; null when adding. */
  editing: Row | null;
};

type FieldBase<Row, Values extends FormValues> = {
  name: keyof Values & string;
  label: string;
  hint?: ReactNode | ((context: FormContext<Row, Values>) => ReactNode);
  optional?: boolean;
  /** Spans the whole width of the form rather than one column. */
  wide?: boolean;
  /** Shown only when adding, or only when editing. */
  only?: "create" | "update";
  /** Shown only while this holds for the form's values (a fixed coupon's amount); hidden values are kept. */
  when?: (values: Values) => boolean;
};

export type FieldSpec<Row, Values extends FormValues> = FieldBase<Row, Values> &
  (
    | {
        kind: "text";
        type?: "text" | "email" | "url" | "date";
        required?: boolean;
        maxLength?: number;
        placeholder?: string;
        mono?: boolean;
      }
    | { kind: "textarea"; rows?: number; required?: boolean; maxLength?: number; mono?: boolean }
    | {
        kind: "select";
        options: (context: FormContext<Row, Values>) => readonly SelectOption[];
        /** The label of the empty choice (value ""). */
        emptyLabel?: string;
      }
    | { kind: "radio"; options: readonly { value: string; label: string }[] }
    | {
        /** Several of a list (assets, plans): the value is the chosen options' values joined by commas. */
        kind: "checkboxes";
        /** A hook (it may query): the options, called while the field is on screen. */
        useOptions: (context: FormContext<Row, Values>) => readonly SelectOption[];
        /** Shown instead of the boxes when there is nothing to choose. */
        emptyText?: string;
      }
    | {
        /** Any control; inside the field, it takes its id from useFieldControl(). */
        kind: "custom";
        render: (props: { value: string; onChange: (value: string) => void; values: Values }) => ReactNode;
      }
  );

export type Procedures<
  TList extends ResolverDef,
  TCreate extends ResolverDef,
  TUpdate extends ResolverDef,
  TDelete extends ResolverDef,
> = {
  list: DecorateQueryProcedure<TList>;
  create: DecorateMutationProcedure<TCreate>;
  /** Without it, rows have no Edit button. */
  update?: DecorateMutationProcedure<TUpdate>;
  /** Without it, rows have no Delete button. */
  delete?: DecorateMutationProcedure<TDelete>;
};

export type ManagerConfig<
  Row,
  Values extends FormValues,
  TList extends ResolverDef,
  TCreate extends ResolverDef,
  TUpdate extends ResolverDef,
  TDelete extends ResolverDef,
> = {
  /** The kind's procedures: list, create and, when rows can be changed here, update and delete. */
  procedures: (trpc: TRPC) => Procedures<TList, TCreate, TUpdate, TDelete>;
  /** Further queries a change makes stale (an entity's detail). The list is always refreshed. */
  alsoInvalidate?: (trpc: TRPC) => readonly { pathKey: () => readonly unknown[] }[];

  /** "tag" / "tags": in "Add tag", "Search tags", "No tags yet.". */
  noun: { one: string; many: string };
  /** The panel's title; "Tags" (noun.many, capitalised) when not given. */
  title?: string;

  /** Search box and filter; what the list procedure gets for them. */
  search?: boolean;
  filter?: { label: string; allLabel: string; options: (data: TList["output"]) => readonly string[] };
  listInput: (query: { search: string; filter: string }) => TList["input"];
  rows: (data: TList["output"]) => { rows: Row[]; total?: number };
  emptyText?: string;

  rowId: (row: Row) => number;
  /** Names a row in the buttons' accessible names ("Delete Politics") and in messages. */
  rowLabel: (row: Row) => string;
  /** data-testid of each row, for the browser tests; "tag-row" (noun.one + "-row") when not given. */
  rowTestId?: string;
  columns: readonly Column<Row>[];

  /** The form, for adding and editing. */
  fields: readonly FieldSpec<Row, Values>[];
  emptyValues: (query: { filter: string }) => Values;
  /** Checks zod cannot make (text that must parse as JSON); problems by field. */
  validate?: (values: Values) => Partial<Record<keyof Values & string, string>>;
  /** Adding: the procedure's input schema (checked before sending) and the input from the form. */
  create: {
    schema: ZodType<unknown, TCreate["input"]>;
    toInput: (values: Values) => TCreate["input"];
    /** After the create: e.g. open the new row's own page. */
    onCreated?: (output: TCreate["output"], navigate: (href: string) => void) => void;
  };
  /** Editing, with procedures.update: the row as form values, and back. */
  update?: {
    schema: ZodType<unknown, TUpdate["input"]>;
    toValues: (row: Row) => Values;
    toInput: (values: Values, row: Row) => TUpdate["input"];
    /** The Edit button's label ("Rename" for tags). */
    label?: string;
  };
  /** Deleting, with procedures.delete: the input, and what the confirm dialog says. */
  remove?: {
    toInput: (row: Row) => TDelete["input"];
    confirm?: (row: Row) => { title: string; body?: ReactNode };
  };

  /** A panel beside the list for the selected row (an entity's relationships); the first column selects. */
  detail?: { render: (row: Row, rows: readonly Row[]) => ReactNode; placeholder: string };
};

/** Where a kind's rows come from: its procedures, the list's input, and the rows in the list's output. */
type ManagerSource<
  Row,
  TList extends ResolverDef,
  TCreate extends ResolverDef,
  TUpdate extends ResolverDef,
  TDelete extends ResolverDef,
> = Pick<ManagerConfig<Row, FormValues, TList, TCreate, TUpdate, TDelete>, "procedures" | "listInput" | "rows">;

/**
 * Declares a kind in two steps, so TypeScript learns its types before checking the rest: first
 * the source, which fixes the procedures' types and the row's (from `rows`); then
 * `.with<Values>({...})`, the screen (columns, form, messages) for the form's values type.
 * Returns the whole config.
 */
export function defineManager<
  Row,
  TList extends ResolverDef,
  TCreate extends ResolverDef,
  TUpdate extends ResolverDef,
  TDelete extends ResolverDef,
>(source: ManagerSource<Row, TList, TCreate, TUpdate, TDelete>) {
  return {
    with: <Values extends FormValues>(
      screen: Omit<ManagerConfig<Row, Values, TList, TCreate, TUpdate, TDelete>, keyof typeof source>,
    ): ManagerConfig<Row, Values, TList, TCreate, TUpdate, TDelete> => ({ ...source, ...screen }),
  };
}

/** The usual four procedures of a router (list, create, update, delete): `procedures: (trpc) => crud(trpc.organise.tags)`. */
export function crud<
  TList extends ResolverDef,
  TCreate extends ResolverDef,
  TUpdate extends ResolverDef,
  TDelete extends ResolverDef,
>(router: {
  list: DecorateQueryProcedure<TList>;
  create: DecorateMutationProcedure<TCreate>;
  update: DecorateMutationProcedure<TUpdate>;
  delete: DecorateMutationProcedure<TDelete>;
}): Procedures<TList, TCreate, TUpdate, TDelete> {
  return { list: router.list, create: router.create, update: router.update, delete: router.delete };
}

/** A checkboxes field's value as numbers ("3,5" → [3, 5]). */
export const idsOf = (value: string): number[] =>
  value
    .split(",")
    .filter(Boolean)
    .map(Number)
    .filter((n) => Number.isSafeInteger(n) && n > 0);

/** The usual list input: the search text as `q`, up to 200 rows (ZListInput's limit). */
export const searchInput = ({ search }: { search: string }) => ({ q: search || undefined, limit: 200 });
