/**
 * The demo paywall's pages (/demo/paywall and /demo/paywall/<story id>): the demo publisher's
 * paywall and the reader's words (`loadDemoPage`), and the frame around a page's main part, in the
 * reader's language with its language links (`DemoPageFrame`).
 */
import { headers } from "next/headers";
import { notFound } from "next/navigation";
import type { ReactNode } from "react";

import { PaywallLanguages } from "@/components/demo/paywall-languages";
import { getDb } from "@/server/db";
import { demoPaywallWords, loadDemoPaywall } from "@/server/demo/paywall-page";

type DemoWords = Awaited<ReturnType<typeof demoPaywallWords>>;

/**
 * The demo paywall (404 without one) and the reader's language: `?locale=`, else the browser's,
 * else the demo publisher's (server/demo/paywall-page.ts); `query` keeps an asked locale on links.
 */
export async function loadDemoPage(searchParams: Promise<{ locale?: string | string[] }>) {
  const db = await getDb();
  const demo = await loadDemoPaywall(db);
  if (!demo) notFound();
  const asked = [(await searchParams).locale].flat()[0] ?? null;
  const acceptLanguage = (await headers()).get("accept-language");
  const words = await demoPaywallWords(db, demo.accountId, { locale: asked, acceptLanguage });
  return { db, demo, words, query: asked ? `?locale=${encodeURIComponent(words.locale)}` : "" };
}

/** The page in the reader's language, its language links (to `path`) in the footer. */
export function DemoPageFrame({ words, path, children }: { words: DemoWords; path: string; children: ReactNode }) {
  return (
    <div lang={words.locale} dir={words.dir} className="mx-auto max-w-2xl px-4 py-10">
      {children}
      <footer className="mt-10 border-t border-gray-200 pt-4">
        <PaywallLanguages label={words.t("demo.language")} offered={words.offered} current={words.locale} path={path} />
      </footer>
    </div>
  );
}
