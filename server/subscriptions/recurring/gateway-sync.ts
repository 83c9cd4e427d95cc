/**
 * Telling the gateway (docs/subscriptions.md "Cancel", "Pause"): a subscription whose gateway
 * charges each period by itself (Stripe's and Razorpay's subscriptions: an adapter with
 * `subscriptionControls` and no `chargeRecurring`) keeps being charged unless the gateway hears
 * of a cancel, an undo, a pause or a resume made in Masthead. Vocabulary:
 *
 * - gateway-charged: recurring, not billed elsewhere, its adapter has subscriptionControls and no
 *   chargeRecurring, and its checkout froze a gateway subscription id (the attempt's
 *   external_reference_id). Anything else (manual, imported, an adapter Masthead charges through)
 *   changes only Masthead's rows, as before.
 * - gateway state: what the gateway subscription was last told or reported (`gateway_state`,
 *   `gateway_state_at`): "active", "cancelling", "paused", "ended". Gateway events older than
 *   `gateway_state_at` are stale (../payments/gateway-subscription-events.ts).
 *
 * Order of work: the caller locks the subscription row, checks its rules, then `tellGateway`
 * calls the gateway inside that transaction, before the caller writes. So:
 * - the gateway refuses (422, its words) or cannot be reached (503): the transaction rolls back,
 *   Masthead is unchanged;
 * - two concurrent changes queue on the row lock: the second finds the first's result (already
 *   cancelled: nothing to tell, nothing to write);
 * - a crash after the gateway's answer and before the commit leaves Masthead unchanged; the
 *   repeat sends the same idempotency key (the row is unchanged, so is its updated_at) and the
 *   adapter finds the gateway already as wanted: done, then written.
 * The transaction may therefore last as long as the gateway's calls (GATEWAY_TX_TIMEOUT_MS).
 */
import "server-only";

import type { Db, TransactionClient } from "../../db/client";
import { AppError } from "../../errors";
import type { Subscription } from "../../generated/prisma/client";
import { PaymentAdapterError, type GatewaySubscriptionControls, type PaymentAdapter } from "../payments/adapter";
import { billedElsewhere, gatewaySubscriptionOf, hearingFrom } from "../payments/billing-source";
import { gatewayCredentialsFor } from "../payments/credentials";
import { paymentAdapterFor } from "../payments/registry";

/** How long a transaction that tells the gateway may run: its calls (10 s each, retried) fit in it. */
export const GATEWAY_TX_TIMEOUT_MS = 75_000;

type GatewayChange = "cancel_at_period_end" | "undo_cancel" | "cancel_now" | "pause" | "resume";

type GatewayState = "active" | "cancelling" | "paused" | "ended";

/** The gateway state after each change Masthead tells. */
const STATE_AFTER = new Map<GatewayChange, GatewayState>([
  ["cancel_at_period_end", "cancelling"],
  ["undo_cancel", "active"],
  ["cancel_now", "ended"],
  ["pause", "paused"],
  ["resume", "active"],
]);

type SyncedSubscription = Pick<
  Subscription,
  "id" | "accountId" | "recurring" | "paymentType" | "createdBy" | "attemptId" | "gatewaySubscriptionId" | "updatedAt"
>;

/** The gateway that charges `sub` by itself, and its subscription id there; null: Masthead alone. */
export async function gatewayChargedBy(
  db: Db,
  sub: SyncedSubscription,
): Promise<{ adapter: PaymentAdapter; controls: GatewaySubscriptionControls; reference: string } | null> {
  if (!sub.recurring || (await billedElsewhere(sub, hearingFrom(db)))) return null;
  const adapter = paymentAdapterFor(sub.paymentType);
  if (!adapter?.subscriptionControls || adapter.chargeRecurring) return null;
  const attempt = sub.attemptId
    ? await db.subscriptionAttempt.findUnique({ where: { id: sub.attemptId }, select: { externalReferenceId: true } })
    : null;
  // Checkout's gateway subscription (its attempt's), or the one an import named.
  const reference = gatewaySubscriptionOf({ attempt, gatewaySubscriptionId: sub.gatewaySubscriptionId });
  if (!reference) return null;
  return { adapter, controls: adapter.subscriptionControls, reference };
}

const refused = (message: string) =>
  new AppError("UNPROCESSABLE", message, { details: [{ field: "subscription", issue: message }] });

/**
 * Tell the gateway that charges the locked subscription `sub` of `change`, inside the caller's
 * transaction and before its write; records the gateway state. Nothing for a subscription the
 * gateway does not charge by itself. Throws 422 (the gateway refuses, or cannot do this at all)
 * or 503 (unreachable); the caller's transaction then rolls back.
 */
export async function tellGateway(
  tx: TransactionClient,
  sub: SyncedSubscription,
  change: GatewayChange,
  args: { now: Date; resumesAt?: Date },
): Promise<void> {
  const charged = await gatewayChargedBy(tx, sub);
  if (!charged) return;
  const { adapter, controls, reference } = charged;
  const name = adapter.displayName ?? adapter.provider ?? sub.paymentType;
  if (change === "undo_cancel" && !controls.undoCancelAtPeriodEnd)
    throw refused(
      `${name} cannot take back a cancellation: the subscription ends with its paid period; subscribe again then.`,
    );
  const creds = adapter.provider
    ? await gatewayCredentialsFor(tx, sub.accountId, adapter.provider, { includeDisabled: true })
    : null;
  if (adapter.provider && !creds)
    throw refused(`${name} is not set up for this account any more, so it cannot be told; nothing changed.`);
  const request = {
    accountId: sub.accountId,
    subscriptionId: sub.id,
    gatewayReference: reference,
    idempotencyKey: `masthead-${change.replaceAll("_", "-")}-${sub.id}-${sub.updatedAt.getTime()}`,
  };
  try {
    if (change === "cancel_at_period_end") await controls.cancelAtPeriodEnd(creds, request);
    else if (change === "undo_cancel") await controls.undoCancelAtPeriodEnd!(creds, request);
    else if (change === "cancel_now") await controls.cancelNow(creds, request);
    else if (change === "pause") await controls.pauseCollection(creds, { ...request, resumesAt: args.resumesAt! });
    else await controls.resumeCollection(creds, request);
  } catch (error) {
    if (!(error instanceof PaymentAdapterError)) throw error;
    if (error.kind === "unavailable")
      throw new AppError("SERVICE_UNAVAILABLE", `${name} could not be reached; nothing changed. Try again.`, {
        cause: error,
      });
    throw refused(`${name} refused the change, so nothing changed: ${error.message}`);
  }
  await recordGatewayState(tx, sub.id, STATE_AFTER.get(change)!, args.now);
}

/** Remember the gateway subscription's state and when (Masthead told it, or it reported it). */
export async function recordGatewayState(tx: TransactionClient, subscriptionId: number, state: GatewayState, at: Date) {
  await tx.subscription.update({ where: { id: subscriptionId }, data: { gatewayState: state, gatewayStateAt: at } });
}

/**
 * When a pause ending at `until` lets the gateway collect again: before `until` by half a period
 * (at most a day), so the gateway's invoice for the period starting at `until` is collected while
 * those of the paused periods are not (the gateway's period boundaries are Masthead's, give or
 * take the seconds between checkout and its answer).
 */
export function collectionResumesAt(until: Date, lastPausedPeriodStart: Date): Date {
  const half = (until.getTime() - lastPausedPeriodStart.getTime()) / 2;
  return new Date(until.getTime() - Math.min(half, 24 * 60 * 60_000));
}
