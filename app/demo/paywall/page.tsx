import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";

import { getDb } from "@/server/db";
import { loadDemoPaywall } from "@/server/demo/paywall-page";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Paywall demo", robots: { index: false } };

/** /demo/paywall: the demo publisher's subscriber-only stories (docs/subscriptions.md "Demo paywalled story"). */
export default async function DemoPaywallIndex() {
  const demo = await loadDemoPaywall(await getDb());
  if (!demo) notFound();
  return (
    <main className="mx-auto max-w-2xl px-4 py-10">
      <p className="text-sm font-semibold tracking-wide text-brand-700 uppercase">The Daily Masthead · demo</p>
      <h1 className="mt-2 text-3xl font-bold tracking-tight">Premium stories</h1>
      <p className="mt-3 text-gray-700">
        Subscriber-only stories behind the paywall. Every reader gets a few free stories a month (the meter); then the
        paywall offers the &ldquo;Digital access&rdquo; plans. The page uses the AccessType browser SDK served by this
        Masthead.
      </p>
      <ul className="mt-8 space-y-4">
        {demo.stories.map((story) => (
          <li key={story.id} className="rounded-lg border border-gray-200 bg-white p-5 shadow-sm">
            <Link href={`/demo/paywall/${story.id}`} className="text-lg font-semibold text-gray-900 hover:underline">
              {story.headline}
            </Link>
            {story.summary ? <p className="mt-1 text-gray-700">{story.summary}</p> : null}
          </li>
        ))}
      </ul>
    </main>
  );
}
