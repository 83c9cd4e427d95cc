"use client";

/** Sections: the tree, and the form to add or edit one (name, display name, slug, parent). */
import { crud, defineManager } from "@/components/manager/config";
import { ResourceManager } from "@/components/manager/resource-manager";
import { ZCreateSectionInput, ZUpdateSectionInput } from "@/server/publishing/editorial/organise.schema";

import { NameCell, slugColumn, slugField, storiesColumn } from "./fields";

type SectionValues = { name: string; displayName: string; slug: string; parentId: string };

const sections = defineManager({
  procedures: (trpc) => crud(trpc.organise.sections),
  listInput: () => undefined,
  rows: (data) => ({ rows: data }),
}).with<SectionValues>({
  noun: { one: "section", many: "sections" },
  search: false,
  rowId: (section) => section.id,
  rowLabel: (section) => section.displayName,
  columns: [
    {
      header: "Name",
      cell: (section) => (
        <span className="flex" style={{ paddingLeft: `${section.depth * 1.5}rem` }}>
          {section.depth ? (
            <span aria-hidden="true" className="mr-1 text-gray-400">
              ↳
            </span>
          ) : null}
          <NameCell
            name={section.displayName}
            detail={section.displayName !== section.name ? `Name: ${section.name}` : undefined}
          />
        </span>
      ),
    },
    slugColumn("/"),
    {
      header: "Collection",
      className: "font-mono text-xs whitespace-nowrap text-gray-600",
      cell: (section) => section.collection?.slug ?? "none",
    },
    storiesColumn,
  ],
  fields: [
    { name: "name", kind: "text", label: "Name", required: true, maxLength: 200 },
    {
      name: "displayName",
      kind: "text",
      label: "Display name",
      hint: "Shown to readers; the name when empty.",
      maxLength: 200,
    },
    slugField(),
    {
      name: "parentId",
      kind: "select",
      label: "Parent section",
      emptyLabel: "None (top level)",
      // Not itself: the server refuses other loops (a section under its own subsection).
      options: ({ rows, editing }) =>
        rows
          .filter((s) => s.id !== editing?.id)
          .map((s) => ({ value: s.id, label: `${"— ".repeat(s.depth)}${s.displayName}` })),
    },
  ],
  emptyValues: () => ({ name: "", displayName: "", slug: "", parentId: "" }),
  create: {
    schema: ZCreateSectionInput,
    toInput: (values) => ({
      name: values.name,
      displayName: values.displayName || undefined,
      slug: values.slug || undefined,
      parentId: values.parentId ? Number(values.parentId) : null,
    }),
  },
  update: {
    schema: ZUpdateSectionInput,
    toValues: (section) => ({
      name: section.name,
      displayName: section.displayName,
      slug: section.slug,
      parentId: section.parentId === null ? "" : String(section.parentId),
    }),
    toInput: (values, section) => ({
      id: section.id,
      name: values.name,
      displayName: values.displayName || values.name,
      slug: values.slug || undefined,
      parentId: values.parentId ? Number(values.parentId) : null,
    }),
  },
  remove: {
    toInput: (section) => ({ id: section.id }),
    confirm: (section) => ({
      title: `Delete the section "${section.displayName}"?`,
      body: section.collection ? `Its collection, ${section.collection.slug}, is deleted with it.` : undefined,
    }),
  },
});

export function SectionManager() {
  return <ResourceManager config={sections} />;
}
