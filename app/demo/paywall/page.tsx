import type { Metadata } from "next";
import { headers } from "next/headers";
import Link from "next/link";
import { notFound } from "next/navigation";

import { PaywallLanguages } from "@/components/demo/paywall-languages";
import { getDb } from "@/server/db";
import { demoPaywallWords, loadDemoPaywall } from "@/server/demo/paywall-page";

export const dynamic = "force-dynamic";

type Props = { searchParams: Promise<{ locale?: string | string[] }> };

/** The reader's language: `?locale=`, else the browser's, else the demo publisher's (server/demo/paywall-page.ts). */
async function pageWords(searchParams: Props["searchParams"]) {
  const db = await getDb();
  const demo = await loadDemoPaywall(db);
  if (!demo) notFound();
  const asked = [(await searchParams).locale].flat()[0] ?? null;
  const acceptLanguage = (await headers()).get("accept-language");
  const words = await demoPaywallWords(db, demo.accountId, { locale: asked, acceptLanguage });
  return { demo, words, query: asked ? `?locale=${encodeURIComponent(words.locale)}` : "" };
}

export async function generateMetadata({ searchParams }: Props): Promise<Metadata> {
  const { words } = await pageWords(searchParams);
  return { title: words.t("demo.title"), robots: { index: false } };
}

/** /demo/paywall: the demo publisher's subscriber-only stories (docs/subscriptions.md "Demo paywalled story"). */
export default async function DemoPaywallIndex({ searchParams }: Props) {
  const { demo, words, query } = await pageWords(searchParams);
  const { t } = words;
  return (
    <div lang={words.locale} dir={words.dir} className="mx-auto max-w-2xl px-4 py-10">
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
      <footer className="mt-10 border-t border-gray-200 pt-4">
        <PaywallLanguages
          label={t("demo.language")}
          offered={words.offered}
          current={words.locale}
          path="/demo/paywall"
        />
      </footer>
    </div>
  );
}
