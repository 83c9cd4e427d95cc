"use client";

/**
 * One screen for one kind of thing: a panel with a search box (and a filter), "Add …", and a
 * table of rows with Edit and Delete. Adding and editing happen in a dialog with the kind's form;
 * deleting asks first in the confirm dialog. Everything kind-specific comes from its config
 * (./config.ts); components/content/organise/*-manager.tsx are five of them.
 */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { DecorateMutationProcedure, ResolverDef } from "@trpc/tanstack-react-query";
import { useRouter } from "next/navigation";
import { useDeferredValue, useState } from "react";

import { useTRPC } from "@/components/trpc/react";
import {
  Button,
  Dialog,
  EmptyState,
  ErrorAlert,
  FilterDisclosure,
  Panel,
  PanelFooter,
  QueryTable,
  SearchInput,
  Select,
  useConfirm,
  type Column,
  type ConfirmOptions,
} from "@/components/ui";

import type { FormValues, ManagerConfig } from "./config";
import { ResourceForm } from "./resource-form";

/**
 * A kind's config with its procedures' types left open: they were checked where the config was
 * made (defineManager), against the procedures themselves.
 */
type Config<Row, Values extends FormValues> = ManagerConfig<
  Row,
  Values,
  ResolverDef,
  ResolverDef,
  ResolverDef,
  ResolverDef
>;

export function ResourceManager<
  Row,
  Values extends FormValues,
  TList extends ResolverDef,
  TCreate extends ResolverDef,
  TUpdate extends ResolverDef,
  TDelete extends ResolverDef,
>({ config }: { config: ManagerConfig<Row, Values, TList, TCreate, TUpdate, TDelete> }) {
  // The parts below use only what every procedure has. TypeScript cannot tell that a config of
  // particular procedures is a config of any procedures (the option types of tRPC differ in
  // variance), hence the cast.
  return <Manager config={config as unknown as Config<Row, Values>} />;
}

function Manager<Row, Values extends FormValues>({ config }: { config: Config<Row, Values> }) {
  const m = useManager(config);
  const panel = <ManagerPanel config={config} m={m} />;
  return (
    <>
      {config.detail ? (
        <div className="grid gap-6 lg:grid-cols-5">
          <div className="min-w-0 lg:col-span-3">{panel}</div>
          <div className="min-w-0 lg:col-span-2">
            {m.selected ? (
              config.detail.render(m.selected, m.rows)
            ) : (
              <EmptyState dashed>{config.detail.placeholder}</EmptyState>
            )}
          </div>
        </div>
      ) : (
        panel
      )}
      <ManagerDialogs config={config} m={m} />
    </>
  );
}

/** The list (searched and filtered), the open dialog, the selected row and the last delete's error. */
function useManager<Row, Values extends FormValues>(config: Config<Row, Values>) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const procedures = config.procedures(trpc);
  const { noun } = config;
  const title = config.title ?? `${noun.many.charAt(0).toUpperCase()}${noun.many.slice(1)}`;

  const [search, setSearch] = useState("");
  const [filter, setFilter] = useState("");
  const deferredSearch = useDeferredValue(search.trim());
  const list = useQuery({
    ...procedures.list.queryOptions(config.listInput({ search: deferredSearch, filter })),
    placeholderData: keepPreviousData,
  });
  const data: unknown = list.data;
  const { rows, total } = data === undefined ? { rows: [] as Row[], total: undefined } : config.rows(data);

  const [dialog, setDialog] = useState<{ mode: "create" } | { mode: "update"; row: Row } | null>(null);
  const [selectedId, setSelectedId] = useState<number | null>(null);
  const [deleteError, setDeleteError] = useState<unknown>(null);
  const selected = rows.find((row) => config.rowId(row) === selectedId) ?? null;

  // A read still in flight began before the write: it is cancelled, not waited for. (Invalidating
  // alone would join a first load that has no data yet, and show the list as it was before.)
  const refresh = () =>
    Promise.all(
      [procedures.list, ...(config.alsoInvalidate?.(trpc) ?? [])].map(async (procedure) => {
        await queryClient.cancelQueries({ queryKey: procedure.pathKey() });
        await queryClient.invalidateQueries({ queryKey: procedure.pathKey() });
      }),
    );
  return {
    procedures,
    title,
    search,
    setSearch,
    filter,
    setFilter,
    deferredSearch,
    list,
    data,
    rows,
    total,
    dialog,
    setDialog,
    close: () => setDialog(null),
    selectedId,
    setSelectedId,
    selected,
    deleteError,
    setDeleteError,
    refresh,
  };
}

type Manager<Row> = ReturnType<typeof useManager<Row, FormValues>>;

/** The kind's columns; the first opens the row's detail where there is one; Edit and Delete last. */
function managerColumns<Row, Values extends FormValues>(config: Config<Row, Values>, m: Manager<Row>): Column<Row>[] {
  const { procedures, selectedId, setSelectedId } = m;
  const columns: Column<Row>[] = [...config.columns];
  if (config.detail && columns[0]) {
    const first = columns[0];
    columns[0] = {
      ...first,
      cell: (row) => (
        <button
          type="button"
          className="min-w-0 rounded text-left focus-visible:ring-2 focus-visible:ring-brand-600 focus-visible:outline-none"
          aria-pressed={selectedId === config.rowId(row)}
          onClick={() => setSelectedId(config.rowId(row))}
        >
          {first.cell(row)}
        </button>
      ),
    };
  }
  const update = procedures.update && config.update ? config.update : null;
  const remove = procedures.delete && config.remove ? { procedure: procedures.delete, ...config.remove } : null;
  if (update || remove) {
    columns.push({
      header: "Actions",
      hideHeader: true,
      className: "w-px whitespace-nowrap text-right",
      cell: (row) => (
        <div className="flex justify-end gap-2">
          {update ? (
            <Button onClick={() => m.setDialog({ mode: "update", row })}>
              {update.label ?? "Edit"}
              <span className="sr-only"> {config.rowLabel(row)}</span>
            </Button>
          ) : null}
          {remove ? (
            <DeleteButton
              procedure={remove.procedure}
              input={remove.toInput(row) as unknown}
              label={config.rowLabel(row)}
              confirmation={{
                title: `Delete the ${config.noun.one} "${config.rowLabel(row)}"?`,
                ...remove.confirm?.(row),
                confirmLabel: "Delete",
              }}
              onStart={() => m.setDeleteError(null)}
              onDeleted={async () => {
                if (selectedId === config.rowId(row)) setSelectedId(null);
                await m.refresh();
              }}
              onError={m.setDeleteError}
            />
          ) : null}
        </div>
      ),
    });
  }
  return columns;
}

function ManagerPanel<Row, Values extends FormValues>({ config, m }: { config: Config<Row, Values>; m: Manager<Row> }) {
  const { noun } = config;
  const { rows, total, filter, deferredSearch } = m;
  return (
    <Panel
      title={m.title}
      actions={
        <>
          <ManagerFilters config={config} m={m} />
          <Button onClick={() => m.setDialog({ mode: "create" })}>Add {noun.one}</Button>
        </>
      }
    >
      <ErrorAlert error={m.deleteError} className="mx-4 mt-3" />
      <QueryTable
        query={m.list}
        what={noun.many}
        emptyText={deferredSearch || filter ? `No ${noun.many} match.` : (config.emptyText ?? `No ${noun.many} yet.`)}
        label={`${m.title} table`}
        columns={managerColumns(config, m)}
        rows={rows}
        rowKey={config.rowId}
        rowProps={(row) => ({
          "data-testid": config.rowTestId ?? `${noun.one}-row`,
          className: m.selectedId === config.rowId(row) ? "bg-brand-50/40" : undefined,
        })}
      />
      {total !== undefined && total > rows.length ? (
        <PanelFooter className="text-xs text-gray-500">
          Showing {rows.length} of {total}: search to narrow.
        </PanelFooter>
      ) : null}
    </Panel>
  );
}

function ManagerFilters<Row, Values extends FormValues>({
  config,
  m,
}: {
  config: Config<Row, Values>;
  m: Manager<Row>;
}) {
  const { filter, search, data } = m;
  if (!config.filter && config.search === false) return null;
  return (
    <FilterDisclosure active={[filter, search].filter(Boolean).length}>
      <div className="flex flex-wrap items-center gap-2">
        {config.filter ? (
          <Select
            compact
            fit
            aria-label={config.filter.label}
            value={filter}
            onChange={(e) => m.setFilter(e.target.value)}
            placeholder={config.filter.allLabel}
            options={(data === undefined ? [] : config.filter.options(data)).map((value) => ({
              value,
              label: value,
            }))}
          />
        ) : null}
        {config.search !== false ? (
          <SearchInput
            compact
            aria-label={`Search ${config.noun.many}`}
            value={search}
            onChange={(e) => m.setSearch(e.target.value)}
            className="sm:w-48"
          />
        ) : null}
      </div>
    </FilterDisclosure>
  );
}

/** "New …" and "Edit …", each with the kind's form. */
function ManagerDialogs<Row, Values extends FormValues>({
  config,
  m,
}: {
  config: Config<Row, Values>;
  m: Manager<Row>;
}) {
  const router = useRouter();
  const { noun } = config;
  const { dialog, close, procedures } = m;
  const update = procedures.update && config.update ? { procedure: procedures.update, ...config.update } : null;
  const formContext = { rows: m.rows, editing: dialog?.mode === "update" ? dialog.row : null };
  return (
    <>
      <Dialog open={dialog?.mode === "create"} onClose={close} title={`New ${noun.one}`} size="lg">
        <ResourceForm
          procedure={procedures.create}
          fields={config.fields}
          initial={config.emptyValues({ filter: m.filter })}
          context={formContext}
          validate={config.validate}
          schema={config.create.schema}
          toInput={config.create.toInput}
          submitLabel={`Create ${noun.one}`}
          onSaved={async (output) => {
            close();
            config.create.onCreated?.(output, (href) => router.push(href));
            await m.refresh();
          }}
          onCancel={close}
        />
      </Dialog>
      {update ? (
        <Dialog
          open={dialog?.mode === "update"}
          onClose={close}
          title={dialog?.mode === "update" ? `Edit ${noun.one} "${config.rowLabel(dialog.row)}"` : ""}
          size="lg"
        >
          {dialog?.mode === "update" ? (
            <ResourceForm
              procedure={update.procedure}
              fields={config.fields}
              initial={update.toValues(dialog.row)}
              context={formContext}
              validate={config.validate}
              schema={update.schema}
              toInput={(values): unknown => update.toInput(values, dialog.row)}
              submitLabel={`Save ${noun.one}`}
              onSaved={async () => {
                close();
                await m.refresh();
              }}
              onCancel={close}
            />
          ) : null}
        </Dialog>
      ) : null}
    </>
  );
}

/** A row's Delete: asks in the confirm dialog, then calls the delete procedure. */
function DeleteButton<TDef extends ResolverDef>({
  procedure,
  input,
  label,
  confirmation,
  onStart,
  onDeleted,
  onError,
}: {
  procedure: DecorateMutationProcedure<TDef>;
  input: TDef["input"];
  label: string;
  confirmation: ConfirmOptions;
  onStart: () => void;
  onDeleted: () => Promise<unknown>;
  onError: (error: unknown) => void;
}) {
  const confirm = useConfirm();
  const remove = useMutation(procedure.mutationOptions({ onSuccess: onDeleted, onError }));
  return (
    <Button
      variant="danger"
      loading={remove.isPending}
      onClick={async () => {
        if (!(await confirm(confirmation))) return;
        onStart();
        remove.mutate(input);
      }}
    >
      Delete<span className="sr-only"> {label}</span>
    </Button>
  );
}
