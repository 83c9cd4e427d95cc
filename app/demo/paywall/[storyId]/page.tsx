import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";

import { PaywallDemo } from "@/components/demo/paywall-demo";
import { wallNewsletter } from "@/server/demo/registration-wall";

import { DemoPageFrame, loadDemoPage } from "../demo-page";

export const dynamic = "force-dynamic";

type Props = { params: Promise<{ storyId: string }>; searchParams: Promise<{ locale?: string | string[] }> };

/** The story and the reader's language: `?locale=`, else the browser's, else the demo publisher's. */
async function storyPage({ params, searchParams }: Props) {
  const { storyId } = await params;
  const { db, demo, words, query } = await loadDemoPage(searchParams);
  const story = demo.stories.find((s) => s.id === storyId);
  if (!story) notFound();
  const newsletter = await wallNewsletter(db, demo.accountId);
  return { demo, story, words, newsletter, query };
}

export async function generateMetadata(props: Props): Promise<Metadata> {
  const { words } = await storyPage(props);
  return { title: words.t("demo.title"), robots: { index: false } };
}

/**
 * /demo/paywall/<story id>: one subscriber-only story. The server sends its first paragraph only;
 * the browser asks the SDK whether the reader may read it, counts a metered read, shows the
 * paywall or fetches the rest through the content API's gated read.
 */
export default async function DemoPaywallStory(props: Props) {
  const { demo, story, words, newsletter, query } = await storyPage(props);
  const { t } = words;
  const others = demo.stories.filter((s) => s.id !== story.id);
  return (
    <DemoPageFrame words={words} path={`/demo/paywall/${story.id}`}>
      <main>
        <p className="text-sm font-semibold tracking-wide text-brand-700 uppercase">
          <Link href={`/demo/paywall${query}`} className="hover:underline">
            {t("demo.kickerPremium", { publication: demo.publication })}
          </Link>
        </p>
        <h1 className="mt-2 text-3xl font-bold tracking-tight">{story.headline}</h1>
        {story.summary ? <p className="mt-2 text-lg text-gray-700">{story.summary}</p> : null}
        <article className="mt-6 space-y-4 text-gray-900">
          <p>{story.lead}</p>
          <PaywallDemo
            storyId={story.id}
            accountKey={demo.accountKey}
            demoTools={demo.demoTools}
            group={demo.group}
            locale={words.locale}
            dir={words.dir}
            messages={words.entries}
            newsletter={newsletter}
          />
        </article>
        {others.length ? (
          <nav aria-label={t("demo.morePremium")} className="mt-10 border-t border-gray-200 pt-6">
            <h2 className="text-sm font-semibold text-gray-700 uppercase">{t("demo.morePremium")}</h2>
            <ul className="mt-3 space-y-2">
              {others.map((s) => (
                <li key={s.id}>
                  <Link href={`/demo/paywall/${s.id}${query}`} className="text-brand-700 hover:underline">
                    {s.headline}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
        ) : null}
      </main>
    </DemoPageFrame>
  );
}
