/** Tabs between the content screens (stories, collections, sections, authors, tags, entities, media). */
import { TabNav } from "@/components/ui";

const CONTENT_SECTIONS = [
  { key: "stories", label: "Stories" },
  { key: "collections", label: "Collections" },
  { key: "sections", label: "Sections" },
  { key: "authors", label: "Authors" },
  { key: "tags", label: "Tags" },
  { key: "entities", label: "Entities" },
  { key: "media", label: "Media" },
] as const;

export function ContentTabs({ current }: { current: (typeof CONTENT_SECTIONS)[number]["key"] }) {
  return (
    <TabNav
      label="Content"
      current={current}
      items={CONTENT_SECTIONS.map((section) => ({ ...section, href: `/admin/content/${section.key}` }))}
    />
  );
}
