/**
 * The line under a subscriber's name in the dashboard's list (subscribers-browser.tsx): their
 * e-mail; for a reader known only by an outside login (a publisher JWT without an e-mail claim, a
 * social login), which login and its id, so staff can find them in their own systems.
 */

/** How an identity's provider is named to staff. */
const PROVIDER_LABELS = new Map<string, string>([
  ["publisher", "Publisher login (JWT) id"],
  ["email", "E-mail"],
  ["phone", "Phone"],
  ["google", "Google account"],
  ["facebook", "Facebook account"],
  ["apple", "Apple account"],
]);

export function subscriberDetail(row: {
  email: string | null;
  subscriber_identities: readonly { provider: string; value: string }[];
}): string {
  if (row.email) return row.email;
  const identity =
    row.subscriber_identities.find((i) => i.provider === "publisher") ?? row.subscriber_identities[0] ?? null;
  if (!identity) return "No e-mail or login on record";
  const label = PROVIDER_LABELS.get(identity.provider) ?? `${identity.provider} id`;
  const more = row.subscriber_identities.length - 1;
  return `No e-mail · ${label}: ${identity.value}${more > 0 ? ` (+${more} more)` : ""}`;
}
