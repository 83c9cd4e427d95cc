"use client";

/** The account's collections, and the form to add one (then opens its editor). */
import { defineManager, searchInput } from "@/components/manager/config";
import { ResourceManager } from "@/components/manager/resource-manager";
import { Badge, TextLink } from "@/components/ui";
import { ZCreateCollectionInput } from "@/server/publishing/editorial/organise.schema";

import { NameCell, slugColumn, slugField } from "./fields";

type NewCollectionValues = { name: string; slug: string; summary: string; automated: "manual" | "automated" };

const collections = defineManager({
  procedures: (trpc) => ({ list: trpc.organise.collections.list, create: trpc.organise.collections.create }),
  listInput: searchInput,
  rows: (data) => ({ rows: data.collections, total: data.total }),
}).with<NewCollectionValues>({
  noun: { one: "collection", many: "collections" },
  rowId: (collection) => collection.id,
  rowLabel: (collection) => collection.name,
  columns: [
    {
      header: "Name",
      cell: (c) => (
        <NameCell
          name={<TextLink href={`/admin/content/collections/${c.id}`}>{c.name}</TextLink>}
          detail={c.summary || undefined}
        />
      ),
    },
    slugColumn(),
    { header: "Template", className: "whitespace-nowrap text-gray-700", cell: (c) => c.template },
    {
      header: "Kind",
      cell: (c) => (
        <span className="flex flex-wrap gap-1">
          {c.section ? <Badge tone="amber">Section: {c.section.name}</Badge> : null}
          {c.automated ? (
            <Badge tone="blue">Automated</Badge>
          ) : (
            <Badge tone="green">Manual · {c.itemCount} items</Badge>
          )}
        </span>
      ),
    },
  ],
  fields: [
    { name: "name", kind: "text", label: "Collection name", required: true, maxLength: 200 },
    slugField("Unique; front ends ask for it."),
    { name: "summary", kind: "text", label: "Summary", maxLength: 2000, wide: true },
    {
      name: "automated",
      kind: "radio",
      label: "Kind",
      wide: true,
      options: [
        { value: "manual", label: "Manual: editors choose and order items" },
        { value: "automated", label: "Automated: rules choose stories" },
      ],
    },
  ],
  emptyValues: () => ({ name: "", slug: "", summary: "", automated: "manual" }),
  create: {
    schema: ZCreateCollectionInput,
    toInput: (values) => ({
      name: values.name,
      slug: values.slug || undefined,
      summary: values.summary,
      automated: values.automated === "automated",
    }),
    onCreated: (result, navigate) => navigate(`/admin/content/collections/${result.collection.id}`),
  },
});

export function CollectionList() {
  return <ResourceManager config={collections} />;
}
