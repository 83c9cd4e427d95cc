import Link from "next/link";

import { PageHeader } from "./page-header";

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
      <section aria-labelledby="not-built-title" className="rounded-lg border border-dashed border-gray-300 bg-white px-6 py-10 text-center">
        <span className="inline-flex items-center rounded-full bg-amber-50 px-2.5 py-0.5 text-xs font-medium text-amber-800 ring-1 ring-inset ring-amber-200">
          Not built yet
        </span>
        <h2 id="not-built-title" className="mt-3 text-base font-semibold text-gray-900">
          This part of the dashboard is not built yet
        </h2>
        <p className="mx-auto mt-2 max-w-md text-sm text-gray-600">
          Masthead is being built area by area, and this one has not been built yet, so there is nothing to show or change here.
        </p>
        <Link href="/admin" className="mt-5 inline-block text-sm font-medium text-brand-700 hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-600">
          Back to the overview
        </Link>
      </section>
      {sections && sections.length > 0 ? (
        <section aria-labelledby="sections-title" className="mt-8">
          <h2 id="sections-title" className="text-sm font-semibold text-gray-900">
            Planned in this area
          </h2>
          <ul className="mt-3 grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
            {sections.map((section) => (
              <li key={section.href}>
                <Link
                  href={section.href}
                  className="block h-full rounded-lg border border-gray-200 bg-white p-4 hover:border-brand-600 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-600"
                >
                  <span className="text-sm font-medium text-gray-900">{section.label}</span>
                  <span className="mt-1 block text-sm text-gray-600">{section.summary}</span>
                </Link>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </>
  );
}
