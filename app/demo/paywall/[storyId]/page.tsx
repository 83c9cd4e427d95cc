import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";

import { PaywallDemo } from "@/components/demo/paywall-demo";
import { getDb } from "@/server/db";
import { loadDemoPaywall } from "@/server/demo/paywall-page";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Paywall demo", robots: { index: false } };

/**
 * /demo/paywall/<story id>: one subscriber-only story. The server sends its first paragraph only;
 * the browser asks the SDK whether the reader may read it, counts a metered read, shows the
 * paywall or fetches the rest through the content API's gated read.
 */
export default async function DemoPaywallStory({ params }: { params: Promise<{ storyId: string }> }) {
  const { storyId } = await params;
  const demo = await loadDemoPaywall(await getDb());
  const story = demo?.stories.find((s) => s.id === storyId);
  if (!demo || !story) notFound();
  const others = demo.stories.filter((s) => s.id !== story.id);
  return (
    <main className="mx-auto max-w-2xl px-4 py-10">
      <p className="text-sm font-semibold tracking-wide text-brand-700 uppercase">
        <Link href="/demo/paywall" className="hover:underline">
          The Daily Masthead · premium
        </Link>
      </p>
      <h1 className="mt-2 text-3xl font-bold tracking-tight">{story.headline}</h1>
      {story.summary ? <p className="mt-2 text-lg text-gray-700">{story.summary}</p> : null}
      <article className="mt-6 space-y-4 text-gray-900">
        <p>{story.lead}</p>
        <PaywallDemo storyId={story.id} accountKey={demo.accountKey} demoTools={demo.demoTools} />
      </article>
      {others.length ? (
        <nav aria-label="More premium stories" className="mt-10 border-t border-gray-200 pt-6">
          <h2 className="text-sm font-semibold text-gray-700 uppercase">More premium stories</h2>
          <ul className="mt-3 space-y-2">
            {others.map((s) => (
              <li key={s.id}>
                <Link href={`/demo/paywall/${s.id}`} className="text-brand-700 hover:underline">
                  {s.headline}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      ) : null}
    </main>
  );
}
