import type { Metadata } from "next";
import Link from "next/link";

import { DemoPageFrame, loadDemoPage } from "./demo-page";

export const dynamic = "force-dynamic";

type Props = { searchParams: Promise<{ locale?: string | string[] }> };

export async function generateMetadata({ searchParams }: Props): Promise<Metadata> {
  const { words } = await loadDemoPage(searchParams);
  return { title: words.t("demo.title"), robots: { index: false } };
}

/** /demo/paywall: the demo publisher's subscriber-only stories (docs/subscriptions.md "Demo paywalled story"). */
export default async function DemoPaywallIndex({ searchParams }: Props) {
  const { demo, words, query } = await loadDemoPage(searchParams);
  const { t } = words;
  return (
    <DemoPageFrame words={words} path="/demo/paywall">
      <main>
        <p className="text-sm font-semibold tracking-wide text-brand-700 uppercase">
          {t("demo.kicker", { publication: demo.publication })}
        </p>
        <h1 className="mt-2 text-3xl font-bold tracking-tight">{t("demo.premiumStories")}</h1>
        <p className="mt-3 text-gray-700">{t("demo.intro", { group: demo.group })}</p>
        <ul className="mt-8 space-y-4">
          {demo.stories.map((story) => (
            <li key={story.id} className="rounded-lg border border-gray-200 bg-white p-5 shadow-sm">
              <Link
                href={`/demo/paywall/${story.id}${query}`}
                className="text-lg font-semibold text-gray-900 hover:underline"
              >
                {story.headline}
              </Link>
              {story.summary ? <p className="mt-1 text-gray-700">{story.summary}</p> : null}
            </li>
          ))}
        </ul>
      </main>
    </DemoPageFrame>
  );
}
