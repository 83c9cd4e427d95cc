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
  LoadState,
  Panel,
  PanelFooter,
  SearchInput,
  Select,
  Table,
  useConfirm,
  type Column,
  type ConfirmOptions,
} from "@/components/ui";

import type { FormValues, ManagerConfig } from "./config";
import { ResourceForm } from "./resource-form";

// eslint-disable-next-line max-lines-per-function -- TODO(issue 62): not cut into parts yet
export function ResourceManager<
  Row,
  Values extends FormValues,
  TList extends ResolverDef,
  TCreate extends ResolverDef,
  TUpdate extends ResolverDef,
  TDelete extends ResolverDef,
>({ config }: { config: ManagerConfig<Row, Values, TList, TCreate, TUpdate, TDelete> }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const router = useRouter();
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
  const data = list.data as TList["output"] | undefined;
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
  const close = () => setDialog(null);
  const formContext = { rows, editing: dialog?.mode === "update" ? dialog.row : null };

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
  const update = procedures.update && config.update ? { procedure: procedures.update, ...config.update } : null;
  const remove = procedures.delete && config.remove ? { procedure: procedures.delete, ...config.remove } : null;
  if (update || remove) {
    columns.push({
      header: "Actions",
      hideHeader: true,
      className: "w-px whitespace-nowrap text-right",
      cell: (row) => (
        <div className="flex justify-end gap-2">
          {update ? (
            <Button onClick={() => setDialog({ mode: "update", row })}>
              {update.label ?? "Edit"}
              <span className="sr-only"> {config.rowLabel(row)}</span>
            </Button>
          ) : null}
          {remove ? (
            <DeleteButton
              procedure={remove.procedure}
              input={remove.toInput(row)}
              label={config.rowLabel(row)}
              confirmation={{
                title: `Delete the ${noun.one} "${config.rowLabel(row)}"?`,
                ...remove.confirm?.(row),
                confirmLabel: "Delete",
              }}
              onStart={() => setDeleteError(null)}
              onDeleted={async () => {
                if (selectedId === config.rowId(row)) setSelectedId(null);
                await refresh();
              }}
              onError={setDeleteError}
            />
          ) : null}
        </div>
      ),
    });
  }

  const panel = (
    <Panel
      title={title}
      actions={
        <>
          {config.filter || config.search !== false ? (
            <FilterDisclosure active={[filter, search].filter(Boolean).length}>
              <div className="flex flex-wrap items-center gap-2">
                {config.filter ? (
                  <Select
                    compact
                    fit
                    aria-label={config.filter.label}
                    value={filter}
                    onChange={(e) => setFilter(e.target.value)}
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
                    aria-label={`Search ${noun.many}`}
                    value={search}
                    onChange={(e) => setSearch(e.target.value)}
                    className="sm:w-48"
                  />
                ) : null}
              </div>
            </FilterDisclosure>
          ) : null}
          <Button onClick={() => setDialog({ mode: "create" })}>Add {noun.one}</Button>
        </>
      }
    >
      <ErrorAlert error={deleteError} className="mx-4 mt-3" />
      <LoadState
        query={list}
        what={noun.many}
        empty={rows.length === 0}
        emptyText={deferredSearch || filter ? `No ${noun.many} match.` : (config.emptyText ?? `No ${noun.many} yet.`)}
      />
      {rows.length ? (
        <Table
          label={`${title} table`}
          columns={columns}
          rows={rows}
          rowKey={config.rowId}
          rowProps={(row) => ({
            "data-testid": config.rowTestId ?? `${noun.one}-row`,
            className: selectedId === config.rowId(row) ? "bg-brand-50/40" : undefined,
          })}
        />
      ) : null}
      {total !== undefined && total > rows.length ? (
        <PanelFooter className="text-xs text-gray-500">
          Showing {rows.length} of {total}: search to narrow.
        </PanelFooter>
      ) : null}
    </Panel>
  );

  return (
    <>
      {config.detail ? (
        <div className="grid gap-6 lg:grid-cols-5">
          <div className="min-w-0 lg:col-span-3">{panel}</div>
          <div className="min-w-0 lg:col-span-2">
            {selected ? (
              config.detail.render(selected, rows)
            ) : (
              <EmptyState dashed>{config.detail.placeholder}</EmptyState>
            )}
          </div>
        </div>
      ) : (
        panel
      )}

      <Dialog open={dialog?.mode === "create"} onClose={close} title={`New ${noun.one}`} size="lg">
        <ResourceForm
          procedure={procedures.create}
          fields={config.fields}
          initial={config.emptyValues({ filter })}
          context={formContext}
          validate={config.validate}
          schema={config.create.schema}
          toInput={config.create.toInput}
          submitLabel={`Create ${noun.one}`}
          onSaved={async (output) => {
            close();
            config.create.onCreated?.(output, (href) => router.push(href));
            await refresh();
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
              toInput={(values) => update.toInput(values, dialog.row)}
              submitLabel={`Save ${noun.one}`}
              onSaved={async () => {
                close();
                await refresh();
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
