/**
 * Who bills a subscription, and whether Masthead hears of it: the one rule the lifecycle, the
 * staff's extend and the subscriptions import share (docs/migration.md "Billed elsewhere").
 *
 * A subscription is **billed elsewhere** when its payments are taken by a system Masthead cannot
 * charge or hear from. Masthead then never reminds, charges or duns it and never mails its reader
 * about a payment; it ends at its end (lifecycle-steps.ts) unless staff extend it. That is:
 * - a payment type with no adapter here;
 * - an imported recurring subscription whose old system was not named (payment type manual);
 * - an imported subscription of a gateway that charges each period itself (Razorpay, Stripe: no
 *   `chargeRecurring`) while the account does not hear from that gateway: its credentials are
 *   missing or disabled, or it has no webhook secret, so no renewal would ever be reported.
 *   Once the account hears from it, the gateway's webhooks renew the subscription.
 */
import "server-only";

import type { Db } from "../../db/client";
import type { PaymentAdapter } from "./adapter";
import { paymentAdapterFor } from "./registry";

/** Whether the adapter charges each period itself when Masthead asks (chargeRecurring). */
export function chargesOnRequest(adapter: PaymentAdapter | null): boolean {
  return adapter !== null && adapter.chargeRecurring !== undefined;
}

/** Whether the adapter is a gateway that charges each period itself (Razorpay, Stripe subscriptions). */
export function chargesByItself(adapter: PaymentAdapter | null): adapter is PaymentAdapter & { provider: string } {
  return adapter !== null && adapter.provider !== null && adapter.takesPayment && !chargesOnRequest(adapter);
}

/** Whether an account hears from a gateway: its credentials set, enabled, with a webhook secret. */
export type Hearing = (accountId: number, provider: string) => Promise<boolean>;

/** A Hearing that asks the database once per account and gateway (one per job or request). */
export function hearingFrom(db: Db): Hearing {
  const known = new Map<string, Promise<boolean>>();
  return (accountId, provider) => {
    const key = `${accountId}:${provider}`;
    let heard = known.get(key);
    if (!heard) {
      heard = db.paymentGateway
        .findUnique({
          where: { accountId_provider: { accountId, provider } },
          select: { enabled: true, webhookSecretEncrypted: true },
        })
        .then((row) => Boolean(row?.enabled && row.webhookSecretEncrypted));
      known.set(key, heard);
    }
    return heard;
  };
}

type Billed = { accountId: number; paymentType: string; createdBy: string; recurring: boolean };

/** Whether the subscription is billed elsewhere (see the file's comment), asking `hears` at most once. */
export async function billedElsewhere(sub: Billed, hears: Hearing): Promise<boolean> {
  const adapter = paymentAdapterFor(sub.paymentType);
  if (adapter === null) return true;
  if (sub.createdBy !== "import" || !sub.recurring) return false;
  if (sub.paymentType === "manual") return true;
  return chargesByItself(adapter) && !(await hears(sub.accountId, adapter.provider));
}

/**
 * The gateway's own subscription id of a subscription it charges by itself: the one its checkout
 * attempt froze (external_reference_id), or the one an import named (gateway_subscription_id).
 */
export function gatewaySubscriptionOf(sub: {
  gatewaySubscriptionId: string | null;
  attempt?: { externalReferenceId: string | null } | null;
}): string | null {
  return sub.attempt?.externalReferenceId ?? sub.gatewaySubscriptionId;
}
