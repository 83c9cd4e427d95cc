"use client";

/** Entities by type (add, edit, delete) and, for the one selected, its named, ranked relationships. */
import { crud, defineManager } from "@/components/manager/config";
import { ResourceManager } from "@/components/manager/resource-manager";
import { ZCreateEntityInput, ZUpdateEntityInput } from "@/server/publishing/editorial/organise.schema";

import { EntityRelationships } from "./entity-relationships";
import { NameCell, slugField, storiesColumn } from "./fields";

type EntityValues = { name: string; type: string; slug: string; metadata: string };

/** The metadata textarea as an object, or undefined when it is not a JSON object. */
function parseMetadata(text: string): Record<string, unknown> | undefined {
  if (!text.trim()) return {};
  try {
    const value = JSON.parse(text) as unknown;
    return typeof value === "object" && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

const entities = defineManager({
  procedures: (trpc) => crud(trpc.organise.entities),
  listInput: ({ search, filter }) => ({ type: filter || undefined, q: search || undefined, limit: 200 }),
  rows: (data) => ({ rows: data.entities, total: data.total }),
}).with<EntityValues>({
  alsoInvalidate: (trpc) => [trpc.organise.entities.get],
  noun: { one: "entity", many: "entities" },
  filter: { label: "Type", allLabel: "All types", options: (data) => data.types },
  rowId: (entity) => entity.id,
  rowLabel: (entity) => entity.name,
  columns: [
    {
      header: "Name",
      cell: (entity) => (
        <NameCell
          name={<span className="text-brand-700 hover:underline">{entity.name}</span>}
          detail={`${entity.type}${entity.slug ? ` · ${entity.slug}` : ""} · ${entity.relationshipCount} relationship${entity.relationshipCount === 1 ? "" : "s"}`}
        />
      ),
    },
    storiesColumn,
  ],
  detail: {
    placeholder: "Select an entity to see and edit its relationships.",
    render: (entity, rows) => (
      <EntityRelationships entityId={entity.id} candidates={rows.filter((e) => e.id !== entity.id)} />
    ),
  },
  fields: [
    { name: "name", kind: "text", label: "Entity name", required: true, maxLength: 200 },
    { name: "type", kind: "text", label: "Type", hint: "e.g. person, team, place", required: true, maxLength: 50 },
    slugField(),
    { name: "metadata", kind: "textarea", label: "Metadata (JSON)", mono: true, optional: true },
  ],
  emptyValues: ({ filter }) => ({ name: "", type: filter, slug: "", metadata: "" }),
  validate: (values) =>
    parseMetadata(values.metadata) ? {} : { metadata: 'must be a JSON object, e.g. {"born": 1981}' },
  create: {
    schema: ZCreateEntityInput,
    toInput: (values) => ({
      name: values.name,
      type: values.type,
      slug: values.slug || undefined,
      metadata: parseMetadata(values.metadata) ?? {},
    }),
  },
  update: {
    schema: ZUpdateEntityInput,
    toValues: (entity) => ({
      name: entity.name,
      type: entity.type,
      slug: entity.slug ?? "",
      metadata: JSON.stringify(entity.metadata, null, 2),
    }),
    toInput: (values, entity) => ({
      id: entity.id,
      name: values.name,
      type: values.type,
      slug: values.slug || null,
      metadata: parseMetadata(values.metadata) ?? {},
    }),
  },
  remove: {
    toInput: (entity) => ({ id: entity.id }),
  },
});

export function EntityManager() {
  return <ResourceManager config={entities} />;
}
