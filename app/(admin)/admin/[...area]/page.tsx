import type { Metadata } from "next";
import { notFound } from "next/navigation";

import { NotBuiltYet } from "@/components/admin/not-built-yet";
import { requireAdmin } from "@/server/auth/next-auth";

import { findPlaceholder } from "../_lib/areas";

type Params = Promise<{ area: string[] }>;

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const found = findPlaceholder((await params).area);
  return { title: found ? (found.section?.label ?? found.area.label) : "Not found" };
}

/** Areas of the dashboard that are not built yet (see _lib/areas.ts); real pages replace them one by one. */
export default async function NotBuiltYetPage({ params }: { params: Params }) {
  const segments = (await params).area;
  const found = findPlaceholder(segments);
  // Signed-out visitors go to sign-in even for unknown paths, so the dashboard's map stays private.
  await requireAdmin({ from: `/admin/${segments.map(encodeURIComponent).join("/")}`, roles: found?.area.roles });
  if (!found) notFound();
  const { area, section } = found;
  return section ? (
    <NotBuiltYet title={section.label} eyebrow={area.label} summary={section.summary} />
  ) : (
    <NotBuiltYet
      title={area.label}
      summary={area.summary}
      sections={area.sections?.map((s) => ({ href: `${area.href}/${s.slug}`, label: s.label, summary: s.summary }))}
    />
  );
}
