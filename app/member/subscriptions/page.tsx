import type { Metadata } from "next";
import { headers } from "next/headers";

import { SelfService } from "@/components/members/self-service";
import { getDb } from "@/server/db";
import { resolvePublisher } from "@/server/publishing/publisher";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Your subscriptions", robots: { index: false } };

async function publication(): Promise<{ name: string | null; hosts: string[] }> {
  try {
    const publisher = await resolvePublisher(await getDb(), { host: (await headers()).get("host") });
    return { name: publisher.name, hosts: publisher.publicationHosts };
  } catch {
    return { name: null, hosts: [] }; // no publisher on this host: the API answers that
  }
}

/**
 * /member/subscriptions: the signed-in reader's self-service page on the publisher's host
 * (docs/subscriptions.md "Self-service page"). It may be framed by the publication's own pages
 * (its hosts, as the widgets' frame-ancestors); framed by another site it shows no actions.
 * The data and every action go through /api/member/subscriptions… with the session cookie.
 */
export default async function SelfServicePage() {
  const { name, hosts } = await publication();
  return (
    <main id="main" className="mx-auto w-full max-w-2xl px-4 py-8 sm:px-6 sm:py-10">
      {name ? <p className="text-sm font-semibold tracking-tight text-gray-700">{name}</p> : null}
      <h1 className="mt-1 text-xl font-semibold text-gray-900">Your subscriptions</h1>
      <p className="mt-1 text-sm text-gray-600">
        Change your plan, cancel or come back, update your card, and download your invoices.
      </p>
      <div className="mt-6">
        <SelfService frameHosts={hosts} />
      </div>
    </main>
  );
}
