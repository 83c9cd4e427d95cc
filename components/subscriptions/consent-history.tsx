"use client";

/**
 * A reader's consent history (tRPC privacy.consentHistory), on the Subscribers page's detail:
 * each consent given or withdrawn, when, how, and the wording the reader agreed to, newest first.
 */
import { useQuery } from "@tanstack/react-query";

import { useTRPC } from "@/components/trpc/react";
import { Badge, DateTime, DetailSection, LoadState } from "@/components/ui";

const CHANNELS = new Map([
  ["widget", "sign-up widget"],
  ["member_page", "member page"],
  ["confirmation_link", "confirmation link"],
  ["unsubscribe_link", "unsubscribe link"],
  ["import", "import"],
  ["staff", "staff"],
  ["api", "API"],
  ["complaint", "spam complaint"],
]);

export function ConsentHistory({ memberId }: { memberId: number }) {
  const trpc = useTRPC();
  const history = useQuery(trpc.privacy.consentHistory.queryOptions({ memberId }));
  const rows = [...(history.data ?? [])].reverse();
  return (
    <DetailSection title="Consents">
      <LoadState query={history} what="consent history" empty={rows.length === 0} emptyText="No consent recorded." />
      {rows.length ? (
        <ol className="space-y-2" data-testid="consent-history">
          {rows.map((r) => (
            <li key={r.id} className="rounded-md border border-gray-200 p-2">
              <p className="flex flex-wrap items-center gap-2">
                <Badge tone={r.given ? "green" : "gray"}>{r.given ? "Given" : "Withdrawn"}</Badge>
                <span className="break-words">{r.purposeLabel}</span>
              </p>
              <p className="text-xs text-gray-600">
                <DateTime value={new Date(r.occurredAt)} /> · by {CHANNELS.get(r.channel) ?? r.channel}
                {r.importedConsent ? ` (${r.importedConsent.source})` : ""}
                {r.locale ? ` · ${r.locale}` : ""}
              </p>
              {r.text ? (
                <details className="mt-1 text-xs">
                  <summary className="cursor-pointer text-gray-700">Wording agreed to</summary>
                  <p className="mt-1 break-words whitespace-pre-line text-gray-800" dir="auto">
                    {r.text}
                  </p>
                  <p className="mt-1 break-all text-gray-500">SHA-256 {r.textSha256}</p>
                </details>
              ) : null}
            </li>
          ))}
        </ol>
      ) : null}
    </DetailSection>
  );
}
