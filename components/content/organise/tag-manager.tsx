"use client";

/** Tags: search, add, rename (name, slug, meta description), delete (untags its stories). */
import { crud, defineManager, searchInput } from "@/components/manager/config";
import { ResourceManager } from "@/components/manager/resource-manager";
import { ZCreateTagInput, ZUpdateTagInput } from "@/server/publishing/editorial/organise.schema";

import { NameCell, slugColumn, slugField, storiesColumn } from "./fields";

type TagValues = { name: string; slug: string; metaDescription: string };

const tags = defineManager({
  procedures: (trpc) => crud(trpc.organise.tags),
  listInput: searchInput,
  rows: (data) => ({ rows: data.tags, total: data.total }),
}).with<TagValues>({
  noun: { one: "tag", many: "tags" },
  rowId: (tag) => tag.id,
  rowLabel: (tag) => tag.name,
  columns: [
    { header: "Name", cell: (tag) => <NameCell name={tag.name} detail={tag.metaDescription} /> },
    slugColumn(),
    storiesColumn,
  ],
  fields: [
    { name: "name", kind: "text", label: "Tag name", required: true, maxLength: 200 },
    slugField(),
    { name: "metaDescription", kind: "text", label: "Meta description", maxLength: 500, wide: true },
  ],
  emptyValues: () => ({ name: "", slug: "", metaDescription: "" }),
  create: {
    schema: ZCreateTagInput,
    toInput: (values) => ({ ...values, slug: values.slug || undefined }),
  },
  update: {
    schema: ZUpdateTagInput,
    toValues: (tag) => ({ name: tag.name, slug: tag.slug, metaDescription: tag.metaDescription ?? "" }),
    toInput: (values, tag) => ({ id: tag.id, ...values, slug: values.slug || undefined }),
    label: "Rename",
  },
  remove: {
    toInput: (tag) => ({ id: tag.id }),
    confirm: (tag) => ({
      title: `Delete the tag "${tag.name}"?`,
      body: tag.storyCount
        ? `It is taken off ${tag.storyCount} stor${tag.storyCount === 1 ? "y" : "ies"}.`
        : "No story has it.",
    }),
  },
});

export function TagManager() {
  return <ResourceManager config={tags} />;
}
