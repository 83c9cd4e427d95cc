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

type ContentSection = (typeof CONTENT_SECTIONS)[number]["key"];

/** `allowed`: whether the user may open a section (a contributor sees only Stories); all when not given. */
export function ContentTabs({
  current,
  allowed = () => true,
}: {
  current: ContentSection;
  allowed?: (section: ContentSection) => boolean;
}) {
  return (
    <TabNav
      label="Content"
      current={current}
      items={CONTENT_SECTIONS.filter((section) => allowed(section.key)).map((section) => ({
        ...section,
        href: `/admin/content/${section.key}`,
      }))}
    />
  );
}
