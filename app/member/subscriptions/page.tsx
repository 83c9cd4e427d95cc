import type { Metadata } from "next";

import { SelfService } from "@/components/members/self-service";

import { publicationName } from "../member-auth-page";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Your subscriptions", robots: { index: false } };

/**
 * /member/subscriptions: the signed-in reader's self-service page on the publisher's host
 * (docs/subscriptions.md "Self-service page"); embeddable in a frame of the publication's site.
 * The data and every action go through /api/member/subscriptions… with the session cookie.
 */
export default async function SelfServicePage() {
  const name = await publicationName();
  return (
    <main id="main" className="mx-auto w-full max-w-2xl px-4 py-8 sm:px-6 sm:py-10">
      {name ? <p className="text-sm font-semibold tracking-tight text-gray-700">{name}</p> : null}
      <h1 className="mt-1 text-xl font-semibold text-gray-900">Your subscriptions</h1>
      <p className="mt-1 text-sm text-gray-600">
        Change your plan, cancel or come back, update your card, and download your invoices.
      </p>
      <div className="mt-6">
        <SelfService />
      </div>
    </main>
  );
}
