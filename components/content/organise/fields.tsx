/** Pieces the organising screens share: the slug field (previewing the slug made from the name) and table cells. */
import type { ReactNode } from "react";

import type { FieldSpec } from "@/components/manager/config";
import { CountBadge, type Column } from "@/components/ui";
import { slugify } from "@/server/text/slug";

/*
 * These are typed for the least a row or a form must have (a slug, a name), not as generics: a
 * generic helper called inside defineManager({...}) would fix the row type before `rows` is read.
 */

/** The optional slug: left empty, the server makes it from the name; the hint shows what that gives. */
export function slugField(note = "Unique."): FieldSpec<unknown, { name: string; slug: string }> {
  return {
    name: "slug",
    kind: "text",
    label: "Slug",
    maxLength: 100,
    mono: true,
    hint: ({ values }) => `${note} Empty: ${slugify(values.name) || "made from the name"}.`,
  };
}

/** A row's name, with a line of detail under it. */
export function NameCell({ name, detail }: { name: ReactNode; detail?: ReactNode }) {
  return (
    <span className="block min-w-40">
      <span className="block font-medium text-gray-900">{name}</span>
      {detail ? <span className="mt-0.5 block max-w-sm truncate text-xs text-gray-500">{detail}</span> : null}
    </span>
  );
}

/** The row's slug, in code type. */
export function slugColumn(prefix = ""): Column<{ slug: string | null }> {
  return {
    header: "Slug",
    className: "font-mono text-xs whitespace-nowrap text-gray-600",
    cell: (row) => (row.slug ? `${prefix}${row.slug}` : "—"),
  };
}

/** How many stories use the row. */
export const storiesColumn: Column<{ storyCount: number }> = {
  header: "Stories",
  cell: (row) => <CountBadge count={row.storyCount} one="story" many="stories" />,
};
