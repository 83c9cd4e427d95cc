import type { Metadata } from "next";
import Link from "next/link";

import { PageHeader } from "@/components/admin/page-header";
import { requireAdmin } from "@/server/auth/next-auth";

import { getArea } from "../_lib/areas";

export const metadata: Metadata = { title: "Content" };

const area = getArea("content");

/** The content area's index: one entry per section (stories, collections, authors, sections, tags, entities). */
export default async function ContentPage() {
  await requireAdmin({ from: area.href, roles: area.roles });
  return (
    <>
      <PageHeader title={area.label} description={area.summary} />
      <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
        {(area.sections ?? []).map((section) => (
          <li key={section.slug}>
            <Link
              href={`${area.href}/${section.slug}`}
              className="block h-full rounded-lg border border-gray-200 bg-white p-4 shadow-sm hover:border-brand-600 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-600"
            >
              <span className="text-sm font-semibold text-gray-900">{section.label}</span>
              <span className="mt-1 block text-sm text-gray-600">{section.summary}</span>
            </Link>
          </li>
        ))}
      </ul>
    </>
  );
}
