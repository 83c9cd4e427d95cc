import { Badge, LinkCards, PageHeader, TextLink } from "@/components/ui";

/**
 * What an area that does not exist yet shows: its purpose and an honest "not built yet", no
 * sample data.
 */
export function NotBuiltYet({
  title,
  eyebrow,
  summary,
  sections,
}: {
  title: string;
  eyebrow?: string;
  summary: string;
  sections?: { href: string; label: string; summary: string }[];
}) {
  return (
    <>
      <PageHeader title={title} eyebrow={eyebrow} description={summary} />
      <section
        aria-labelledby="not-built-title"
        className="rounded-lg border border-dashed border-gray-300 bg-white px-6 py-10 text-center"
      >
        <Badge tone="amber">Not built yet</Badge>
        <h2 id="not-built-title" className="mt-3 text-base font-semibold text-gray-900">
          This part of the dashboard is not built yet
        </h2>
        <p className="mx-auto mt-2 max-w-md text-sm text-gray-600">
          Masthead is being built area by area, and this one has not been built yet, so there is nothing to show or
          change here.
        </p>
        <TextLink href="/admin" className="mt-5 inline-block text-sm">
          Back to the overview
        </TextLink>
      </section>
      {sections && sections.length > 0 ? (
        <section aria-labelledby="sections-title" className="mt-8">
          <h2 id="sections-title" className="mb-3 text-sm font-semibold text-gray-900">
            Planned in this area
          </h2>
          <LinkCards items={sections.map((s) => ({ href: s.href, title: s.label, description: s.summary }))} />
        </section>
      ) : null}
    </>
  );
}
