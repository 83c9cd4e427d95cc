"use client";

/** One entity's named, ranked relationships (and who names it): list, add, remove. */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";

import { useTRPC } from "@/components/trpc/react";
import { Button, Code, ErrorAlert, FormField, Input, LoadState, Panel, Select, serverErrors } from "@/components/ui";

const EMPTY = { relation: "", toId: "", rank: "0" };

export function EntityRelationships({
  entityId,
  candidates,
}: {
  entityId: number;
  candidates: readonly { id: number; name: string; type: string }[];
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const entity = useQuery(trpc.organise.entities.get.queryOptions({ id: entityId }));
  const [form, setForm] = useState(EMPTY);
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: trpc.organise.entities.get.pathKey() }),
      queryClient.invalidateQueries({ queryKey: trpc.organise.entities.list.pathKey() }),
    ]);
  const relate = useMutation(
    trpc.organise.entities.relate.mutationOptions({
      onSuccess: async () => {
        setForm({ ...EMPTY, relation: form.relation });
        await refresh();
      },
    }),
  );
  const unrelate = useMutation(trpc.organise.entities.unrelate.mutationOptions({ onSuccess: refresh }));
  const errors = serverErrors(relate.error, ["relation", "toId", "rank"]);

  return (
    <Panel title={entity.data ? `Relationships of ${entity.data.name}` : "Relationships"}>
      <LoadState query={entity} what="relationships" />
      {entity.data ? (
        <div className="space-y-4 px-4 py-4">
          {entity.data.relations.length === 0 ? <p className="text-sm text-gray-500">No relationships yet.</p> : null}
          <ul className="space-y-1">
            {entity.data.relations.map((r) => (
              <li key={r.id} className="flex items-center justify-between gap-2 text-sm" data-testid="relationship-row">
                <span className="min-w-0">
                  <Code>{r.relation}</Code> → {r.entity.name}{" "}
                  <span className="text-xs text-gray-500">
                    ({r.entity.type}, rank {r.rank})
                  </span>
                </span>
                <Button
                  variant="danger"
                  size="sm"
                  disabled={unrelate.isPending}
                  onClick={() => unrelate.mutate({ relationshipId: r.id })}
                >
                  Remove<span className="sr-only"> {`${r.relation} → ${r.entity.name}`}</span>
                </Button>
              </li>
            ))}
          </ul>
          {entity.data.relatedBy.length ? (
            <div>
              <h3 className="text-xs font-semibold tracking-wide text-gray-500 uppercase">Named by</h3>
              <ul className="mt-1 space-y-1 text-sm text-gray-700">
                {entity.data.relatedBy.map((r) => (
                  <li key={r.id}>
                    {r.entity.name} <Code>{r.relation}</Code> → this
                  </li>
                ))}
              </ul>
            </div>
          ) : null}
          <form
            className="space-y-3 border-t border-gray-200 pt-4"
            onSubmit={(event) => {
              event.preventDefault();
              relate.mutate({
                fromId: entityId,
                relation: form.relation,
                toId: Number(form.toId),
                rank: Number(form.rank) || 0,
              });
            }}
          >
            <h3 className="text-sm font-semibold text-gray-900">Add a relationship</h3>
            <FormField label="Relation" hint="Plural noun used in paths, e.g. players." error={errors.fields.relation}>
              <Input required value={form.relation} onChange={(e) => setForm({ ...form, relation: e.target.value })} />
            </FormField>
            <FormField label="Related entity" error={errors.fields.toId}>
              <Select
                required
                value={form.toId}
                placeholder="Choose…"
                options={candidates.map((c) => ({ value: c.id, label: `${c.name} (${c.type})` }))}
                onChange={(e) => setForm({ ...form, toId: e.target.value })}
              />
            </FormField>
            <FormField label="Rank" hint="Lower comes first." error={errors.fields.rank}>
              <Input
                type="number"
                min={0}
                value={form.rank}
                onChange={(e) => setForm({ ...form, rank: e.target.value })}
              />
            </FormField>
            <ErrorAlert errors={relate.error ? errors : undefined} error={unrelate.error} />
            <Button type="submit" variant="primary" loading={relate.isPending} loadingText="Adding…">
              Add relationship
            </Button>
          </form>
        </div>
      ) : null}
    </Panel>
  );
}
