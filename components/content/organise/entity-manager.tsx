"use client";
/** Entities by type (add, edit, delete) and, for the one selected, its named, ranked relationships. */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";

import { useTRPC } from "@/components/trpc/react";

import { buttonClass, dangerButtonClass, ErrorMessage, Field, fieldErrors, inputClass, LoadState, Panel, primaryButtonClass, StatusBadge } from "./ui";

type EntityValues = { name: string; type: string; slug: string; metadata: string };

/** The metadata textarea as an object, or undefined when it is not a JSON object. */
function parseMetadata(text: string): Record<string, unknown> | undefined {
  if (!text.trim()) return {};
  try {
    const value = JSON.parse(text) as unknown;
    return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

export function EntityManager() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [type, setType] = useState("");
  const [q, setQ] = useState("");
  const list = useQuery({ ...trpc.organise.entities.list.queryOptions({ type: type || undefined, q: q || undefined, limit: 200 }), placeholderData: keepPreviousData });
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<number | null>(null);
  const [selected, setSelected] = useState<number | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.organise.entities.list.queryKey() });
  const create = useMutation(trpc.organise.entities.create.mutationOptions({ onSuccess: async () => (setAdding(false), await refresh()) }));
  const update = useMutation(
    trpc.organise.entities.update.mutationOptions({
      onSuccess: async () => {
        setEditing(null);
        await Promise.all([refresh(), queryClient.invalidateQueries({ queryKey: trpc.organise.entities.get.queryKey() })]);
      },
    }),
  );
  const remove = useMutation(trpc.organise.entities.delete.mutationOptions({ onSuccess: async () => (setSelected(null), await refresh()) }));
  const entities = list.data?.entities ?? [];

  return (
    <div className="grid gap-6 lg:grid-cols-5">
      <div className="lg:col-span-3">
        <Panel
          title="Entities"
          titleId="entities-title"
          actions={
            <>
              <select aria-label="Type" value={type} onChange={(e) => setType(e.target.value)} className={`${inputClass} w-36`}>
                <option value="">All types</option>
                {(list.data?.types ?? []).map((t) => (
                  <option key={t} value={t}>
                    {t}
                  </option>
                ))}
              </select>
              <input type="search" aria-label="Search entities" placeholder="Search…" value={q} onChange={(e) => setQ(e.target.value)} className={`${inputClass} w-36`} />
              {!adding ? (
                <button type="button" className={buttonClass} onClick={() => setAdding(true)}>
                  Add entity
                </button>
              ) : null}
            </>
          }
        >
          {adding ? (
            <div className="border-b border-gray-200 bg-gray-50 px-4 py-4">
              <h3 className="mb-3 text-sm font-semibold text-gray-900">New entity</h3>
              <EntityForm
                initial={{ name: "", type: type || "", slug: "", metadata: "" }}
                submitLabel="Create entity"
                pending={create.isPending}
                error={create.error}
                onSubmit={(v, metadata) => create.mutate({ name: v.name, type: v.type, slug: v.slug || undefined, metadata })}
                onCancel={() => (create.reset(), setAdding(false))}
              />
            </div>
          ) : null}
          {remove.error ? (
            <div className="px-4 pt-3">
              <ErrorMessage error={remove.error} />
            </div>
          ) : null}
          <LoadState pending={list.isPending} error={list.error} empty={entities.length === 0} what="entities" />
          {entities.length ? (
            <ul className="divide-y divide-gray-100">
              {entities.map((entity) => (
                <li key={entity.id} className={`px-4 py-3 ${selected === entity.id ? "bg-brand-50/40" : ""}`} data-testid="entity-row">
                  {editing === entity.id ? (
                    <EntityForm
                      initial={{ name: entity.name, type: entity.type, slug: entity.slug ?? "", metadata: JSON.stringify(entity.metadata, null, 2) }}
                      submitLabel="Save entity"
                      pending={update.isPending}
                      error={update.error}
                      onSubmit={(v, metadata) => update.mutate({ id: entity.id, name: v.name, type: v.type, slug: v.slug || null, metadata })}
                      onCancel={() => (update.reset(), setEditing(null))}
                    />
                  ) : (
                    <div className="flex flex-col gap-2 sm:flex-row sm:items-center sm:justify-between">
                      <button type="button" className="min-w-0 text-left" onClick={() => setSelected(entity.id)} aria-pressed={selected === entity.id}>
                        <p className="text-sm font-medium text-brand-700 hover:underline">{entity.name}</p>
                        <p className="mt-0.5 text-xs text-gray-500">
                          {entity.type}
                          {entity.slug ? <span className="font-mono"> · {entity.slug}</span> : null} · {entity.relationshipCount} relationship
                          {entity.relationshipCount === 1 ? "" : "s"}
                        </p>
                      </button>
                      <div className="flex shrink-0 items-center gap-2">
                        <StatusBadge tone="gray">
                          {entity.storyCount} stor{entity.storyCount === 1 ? "y" : "ies"}
                        </StatusBadge>
                        <button type="button" className={buttonClass} onClick={() => (update.reset(), setEditing(entity.id))}>
                          Edit
                        </button>
                        <button
                          type="button"
                          className={dangerButtonClass}
                          disabled={remove.isPending}
                          onClick={() => {
                            if (window.confirm(`Delete the entity "${entity.name}"?`)) remove.mutate({ id: entity.id });
                          }}
                        >
                          Delete
                        </button>
                      </div>
                    </div>
                  )}
                </li>
              ))}
            </ul>
          ) : null}
        </Panel>
      </div>
      <div className="lg:col-span-2">
        {selected !== null ? (
          <Relationships entityId={selected} candidates={entities.filter((e) => e.id !== selected)} />
        ) : (
          <p className="rounded-lg border border-dashed border-gray-300 px-4 py-10 text-center text-sm text-gray-500">Select an entity to see and edit its relationships.</p>
        )}
      </div>
    </div>
  );
}

function EntityForm({
  initial,
  submitLabel,
  pending,
  error,
  onSubmit,
  onCancel,
}: {
  initial: EntityValues;
  submitLabel: string;
  pending: boolean;
  error: unknown;
  onSubmit: (values: EntityValues, metadata: Record<string, unknown>) => void;
  onCancel: () => void;
}) {
  const id = useId();
  const [values, setValues] = useState<EntityValues>(initial);
  const [metadataError, setMetadataError] = useState<string | undefined>();
  const errors = fieldErrors(error);
  return (
    <form
      className="space-y-4"
      onSubmit={(event) => {
        event.preventDefault();
        const metadata = parseMetadata(values.metadata);
        if (!metadata) return setMetadataError("must be a JSON object, e.g. {\"born\": 1981}");
        setMetadataError(undefined);
        onSubmit(values, metadata);
      }}
    >
      <div className="grid gap-4 sm:grid-cols-3">
        <Field id={`${id}-name`} label="Entity name" error={errors.name}>
          <input id={`${id}-name`} required maxLength={200} value={values.name} onChange={(e) => setValues({ ...values, name: e.target.value })} className={inputClass} />
        </Field>
        <Field id={`${id}-type`} label="Type" hint="e.g. person, team, place" error={errors.type}>
          <input id={`${id}-type`} required maxLength={50} value={values.type} onChange={(e) => setValues({ ...values, type: e.target.value })} className={inputClass} />
        </Field>
        <Field id={`${id}-slug`} label="Slug" hint="Empty: made from the name." error={errors.slug}>
          <input id={`${id}-slug`} maxLength={100} value={values.slug} onChange={(e) => setValues({ ...values, slug: e.target.value })} className={`${inputClass} font-mono`} />
        </Field>
      </div>
      <Field id={`${id}-metadata`} label="Metadata (JSON)" error={metadataError ?? errors.metadata}>
        <textarea id={`${id}-metadata`} rows={3} value={values.metadata} onChange={(e) => setValues({ ...values, metadata: e.target.value })} className={`${inputClass} font-mono`} />
      </Field>
      <ErrorMessage error={error} />
      <div className="flex gap-2">
        <button type="submit" disabled={pending} className={primaryButtonClass}>
          {pending ? "Saving…" : submitLabel}
        </button>
        <button type="button" className={buttonClass} onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}

function Relationships({ entityId, candidates }: { entityId: number; candidates: { id: number; name: string; type: string }[] }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const id = useId();
  const entity = useQuery(trpc.organise.entities.get.queryOptions({ id: entityId }));
  const [form, setForm] = useState({ relation: "", toId: "", rank: "0" });
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: trpc.organise.entities.get.queryKey() }),
      queryClient.invalidateQueries({ queryKey: trpc.organise.entities.list.queryKey() }),
    ]);
  const relate = useMutation(trpc.organise.entities.relate.mutationOptions({ onSuccess: async () => (setForm({ relation: form.relation, toId: "", rank: "0" }), await refresh()) }));
  const unrelate = useMutation(trpc.organise.entities.unrelate.mutationOptions({ onSuccess: refresh }));
  const errors = fieldErrors(relate.error);

  return (
    <Panel title={entity.data ? `Relationships of ${entity.data.name}` : "Relationships"} titleId="relationships-title">
      <LoadState pending={entity.isPending} error={entity.error} empty={false} what="relationships" />
      {entity.data ? (
        <div className="space-y-4 px-4 py-4">
          {entity.data.relations.length === 0 ? <p className="text-sm text-gray-500">No relationships yet.</p> : null}
          <ul className="space-y-1">
            {entity.data.relations.map((r) => (
              <li key={r.id} className="flex items-center justify-between gap-2 text-sm" data-testid="relationship-row">
                <span>
                  <code className="font-mono text-xs text-gray-600">{r.relation}</code> → {r.entity.name} <span className="text-xs text-gray-500">({r.entity.type}, rank {r.rank})</span>
                </span>
                <button type="button" className={dangerButtonClass} disabled={unrelate.isPending} onClick={() => unrelate.mutate({ relationshipId: r.id })}>
                  Remove
                </button>
              </li>
            ))}
          </ul>
          {entity.data.relatedBy.length ? (
            <div>
              <h3 className="text-xs font-semibold uppercase tracking-wide text-gray-500">Named by</h3>
              <ul className="mt-1 space-y-1 text-sm text-gray-700">
                {entity.data.relatedBy.map((r) => (
                  <li key={r.id}>
                    {r.entity.name} <code className="font-mono text-xs text-gray-600">{r.relation}</code> → this
                  </li>
                ))}
              </ul>
            </div>
          ) : null}
          <form
            className="space-y-3 border-t border-gray-200 pt-4"
            onSubmit={(event) => {
              event.preventDefault();
              relate.mutate({ fromId: entityId, relation: form.relation, toId: Number(form.toId), rank: Number(form.rank) || 0 });
            }}
          >
            <h3 className="text-sm font-semibold text-gray-900">Add a relationship</h3>
            <Field id={`${id}-relation`} label="Relation" hint="Plural noun used in paths, e.g. players." error={errors.relation}>
              <input id={`${id}-relation`} required value={form.relation} onChange={(e) => setForm({ ...form, relation: e.target.value })} className={inputClass} />
            </Field>
            <Field id={`${id}-to`} label="Related entity" error={errors.toId}>
              <select id={`${id}-to`} required value={form.toId} onChange={(e) => setForm({ ...form, toId: e.target.value })} className={inputClass}>
                <option value="">Choose…</option>
                {candidates.map((c) => (
                  <option key={c.id} value={c.id}>
                    {c.name} ({c.type})
                  </option>
                ))}
              </select>
            </Field>
            <Field id={`${id}-rank`} label="Rank" hint="Lower comes first." error={errors.rank}>
              <input id={`${id}-rank`} type="number" min={0} value={form.rank} onChange={(e) => setForm({ ...form, rank: e.target.value })} className={inputClass} />
            </Field>
            <ErrorMessage error={relate.error ?? unrelate.error} />
            <button type="submit" disabled={relate.isPending} className={primaryButtonClass}>
              {relate.isPending ? "Adding…" : "Add relationship"}
            </button>
          </form>
        </div>
      ) : null}
    </Panel>
  );
}
