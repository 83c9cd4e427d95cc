"use client";

/**
 * The paywall's grace-period banner (docs/subscriptions.md "Dunning"): a reader whose renewal
 * charge failed keeps reading until the grace period ends, and is told so, with the link to the
 * hosted page where they update their card. The page reads it from the SDK's getSubscriptions()
 * (`in_grace_period`, `grace_ends_at`). Beside it, the demo's test tool that makes the renewal fail
 * now (POST /api/demo/failed-renewal; demo account and DEMO_TOOLS only). The end is in the
 * reader's locale and (browser's) zone, the zone named.
 */
import { useState } from "react";

import { formatDateTime } from "@/i18n/format";
import { isLocale } from "@/i18n/locales";
import type { Subscription } from "@/sdk/accesstype/types";
import { graceAccessEnd } from "@/server/subscriptions/recurring/grace.schema";

import type { DemoWords } from "./paywall-words";

/**
 * The signed "update your card" link of a subscription in grace (the client API, with the reader's
 * JWT): it works for a reader the publisher knows only by its JWT. Without it (the call failed),
 * the hosted self-service page at the subscription's payment section.
 */
async function cardLinkOf(accountKey: string, jwt: string, subscriptionId: number): Promise<string> {
  const query = new URLSearchParams({ key: accountKey, accesstype_jwt: jwt });
  try {
    const res = await fetch(`/api/access/v1/members/me/subscriptions/${subscriptionId}/card-link?${query.toString()}`, {
      method: "POST",
      headers: { Accept: "application/json" },
    });
    if (res.ok) return ((await res.json()) as { url: string }).url;
  } catch {
    // the fallback below
  }
  return `/member/subscriptions#payment-${subscriptionId}`;
}

export type Grace = { subscriptionId: number; endsAt: string | null; href?: string };

/** The reader's subscription in its grace period, if any (the rule the self-service page and the mail share). */
function graceOf(subscriptions: Subscription[]): Grace | null {
  for (const s of subscriptions) {
    const grace = graceAccessEnd(s);
    if (grace && typeof s.id === "number") return { subscriptionId: s.id, endsAt: grace.until };
  }
  return null;
}

/** The reader's subscription in grace, if any, with the signed link to its card update. */
export async function graceWithCardLink(
  subscriptions: Subscription[],
  accountKey: string,
  jwt: string,
): Promise<Grace | null> {
  const grace = graceOf(subscriptions);
  return grace && { ...grace, href: await cardLinkOf(accountKey, jwt, grace.subscriptionId) };
}

export function GraceBanner({ grace, words }: { grace: Grace; words: DemoWords }) {
  const locale = isLocale(words.locale) ? words.locale : "en";
  return (
    <div
      role="status"
      data-testid="grace-banner"
      className="mb-4 rounded-md border border-amber-400 bg-amber-50 p-4 text-sm text-amber-950"
    >
      <p className="font-semibold">{words.t("demo.paymentFailedTitle")}</p>
      <p className="mt-1">
        {grace.endsAt === null
          ? words.t("demo.keepReadingForNow")
          : words.t("demo.keepReadingUntil", { time: formatDateTime(new Date(grace.endsAt), locale) })}{" "}
        {words.t("demo.updateCardText")}
      </p>
      <a
        href={grace.href ?? `/member/subscriptions#payment-${grace.subscriptionId}`}
        className="mt-2 inline-block min-h-11 py-2 font-semibold text-amber-950 underline sm:min-h-0 sm:py-0"
      >
        {words.t("demo.updateCard")}
      </a>
    </div>
  );
}

/** TEST TOOL: the demo reader's renewal fails now (the subscription enters its grace period). */
export function FailRenewalTool({
  accountKey,
  jwt,
  onDone,
  words,
}: {
  accountKey: string;
  jwt: string;
  onDone: () => void;
  words: DemoWords;
}) {
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  async function fail() {
    setBusy(true);
    setProblem(null);
    try {
      const query = new URLSearchParams({ key: accountKey, accesstype_jwt: jwt });
      const response = await fetch(`/api/demo/failed-renewal?${query.toString()}`, {
        method: "POST",
        headers: { Accept: "application/json" },
      });
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      onDone();
    } catch {
      setProblem(words.t("demo.toolFailed"));
    } finally {
      setBusy(false);
    }
  }
  return (
    <div className="mt-6 text-sm text-gray-700">
      <button
        type="button"
        disabled={busy}
        onClick={() => void fail()}
        className="min-h-11 rounded border border-gray-400 px-3 py-1.5 disabled:opacity-50 sm:min-h-9"
      >
        {words.t("demo.failRenewal")}
      </button>
      <span className="ms-2">{words.t("demo.failRenewalText")}</span>
      {problem ? <p role="alert">{problem}</p> : null}
    </div>
  );
}
