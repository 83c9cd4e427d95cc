/**
 * The self-service page's reads and plan changes (app/member/subscriptions; docs/subscriptions.md
 * "Self-service page"): a signed-in reader's subscriptions and invoices, the plans each may switch
 * to, a switch previewed in words and confirmed, and the payment method replaced through the
 * gateway. Cancelling is ./self-service-cancel.ts.
 *
 * Every action calls the service the client API calls (spec §4.3), so the page and the API give
 * the same results: the switch preview is `previewPlanSwitch` (its terms frozen in the attempt
 * row, the attempt token HMAC-signed over its id), the confirm is `applyPlanSwitch` (claims the
 * attempt once: a double submit switches once; refused with 409 when the plan's price changed
 * since the preview).
 */
import "server-only";

import { ownValue } from "@/server/own-keys";

import { getAccountTimeZone } from "../../accounts/time-zone";
import { recordAudit } from "../../audit/audit-log";
import { systemActor } from "../../auth/actor";
import type { ApiUser } from "../../auth/api-auth";
import type { Db } from "../../db/client";
import { withTransaction } from "../../db/transaction";
import { AppError } from "../../errors";
import { findOrCreateJwtMember } from "../../members/identities";
import { createMemberSession, type MemberSession } from "../../members/sessions";
import { listCreditNotes } from "../invoices/credit-notes";
import { listMemberInvoices } from "../invoices/invoices";
import { PaymentAdapterError } from "../payments/adapter";
import { gatewaySubscriptionOf } from "../payments/billing-source";
import { credentialsFor } from "../payments/credentials";
import { paymentAdapterFor } from "../payments/registry";
import { graceAccessEnd } from "../recurring/grace.schema";
import { retryChargeSoon, scheduleSubscriptionLifecycle } from "../recurring/lifecycle";
import { pausedUntilOf } from "../recurring/pauses";
import { applyPlanSwitch, previewPlanSwitch } from "../recurring/plan-switch";
import { applyCredit, classifySwitch, pricePerDay, targetPriceIn } from "../recurring/plan-switch-proration";
import { scheduledSwitchOf } from "../recurring/plan-switch-scheduled";
import { notFoundSubscription, type TSubscriptionWire } from "../subscribers/subscription-view";
import { listSubscriberSubscriptions, switchPlanDetails } from "../subscribers/subscriptions";
import { offerForSubscription } from "./retention-offers";
import { openCancellation } from "./self-service-cancel";
import { paymentMethodChanger, paymentMethodUpdateWay } from "./self-service-payment-method";
import {
  englishWords,
  isolated,
  moneyInWords,
  periodWords,
  switchInWords,
  timeInWords,
  type ReaderWords,
} from "./self-service-words";

type ReaderArgs = { accountId: number; memberId: number; now: Date };
/**
 * The zone the sentences name their times in (the reader's when the page sends it, else the
 * account's), and their language (the reader's locale, server/members/reader-locale.ts; English when none).
 */
type ZoneArg = { timeZone?: string; words?: ReaderWords };

const zoneOf = async (db: Db, args: ReaderArgs & ZoneArg) =>
  args.timeZone ?? (await getAccountTimeZone(db, args.accountId));

/** Where the page's links to an invoice go (the member-session twin of the client API's file route). */
const selfServiceInvoiceHref = (id: number, format: "pdf" | "html" = "pdf") => `/api/member/invoices/${id}.${format}`;

type SwitchOption = {
  id: number;
  title: string;
  switch_type: "upgrade" | "downgrade" | "crossgrade";
  price: string;
  period: string;
};

function switchOptions(
  details: Awaited<ReturnType<typeof switchPlanDetails>>,
  currency: string,
  recurring: boolean,
  words: ReaderWords,
): SwitchOption[] {
  const entries = [
    ...details.upgrade_plan_details.map((p) => ({ p, t: "upgrade" as const })),
    ...details.downgrade_plan_details.map((p) => ({ p, t: "downgrade" as const })),
    ...details.crossgrade_plan_details.map((p) => ({ p, t: "crossgrade" as const })),
  ];
  const list: SwitchOption[] = [];
  for (const { p, t } of entries) {
    const prices = p.prices as Record<string, { amount_cents: number } | undefined> | null;
    const cents = p.price_currency === currency ? p.price_cents : ownValue(prices, currency)?.amount_cents;
    // Not offered: no price in the subscription's currency, or the other kind (a switch stays recurring or one-time).
    if (cents === undefined || p.recurring !== recurring) continue;
    list.push({
      id: p.id,
      title: p.title,
      switch_type: t,
      price: moneyInWords(cents, currency, words.locale),
      period: periodWords(p.duration_length, p.duration_unit, words, { per: true }),
    });
  }
  return list;
}

/** What the page shows of one subscription, in words and figures (times in `zone`). */
async function subscriptionCard(db: Db, args: ReaderArgs, s: TSubscriptionWire, zone: string, words: ReaderWords) {
  const money = (cents: number) => moneyInWords(cents, s.payment_amount_currency, words.locale);
  const row = await db.subscription.findUniqueOrThrow({ where: { id: s.id } });
  const live = s.status === "active" && !s.expired;
  const cancellation = await openCancellation(db, { subscriptionId: s.id });
  const adapter = paymentAdapterFor(s.payment_type);
  const offer = live ? await offerForSubscription(db, row, args.now, words) : null;
  const scheduled = (await scheduledSwitchOf(db, { accountId: args.accountId, subscriptionId: s.id })).scheduled_switch;
  const canSwitch = live && !s.cancelled && s.subscription_plan_id !== null && s.subscription_type !== "dynamic_asset";
  const options = canSwitch
    ? switchOptions(
        await switchPlanDetails(db, { accountId: args.accountId, subscription: s }),
        s.plan_amount_currency,
        s.recurring,
        words,
      )
    : [];
  const ended = s.end_timestamp !== null && new Date(s.end_timestamp) <= args.now;
  const updateWay = paymentMethodUpdateWay(adapter, s.id);
  // A recurring subscription keeps a method while live and in its grace period (a failed charge:
  // exactly when the dunning e-mail sends the reader to #payment-<id>).
  const keepsMethod = s.recurring && (!ended || s.in_grace_period) && s.status !== "expired";
  // The retention offer's pause and staff's pause alike (../recurring/pauses.ts).
  const pausedUntil = (await pausedUntilOf(db, [s])).get(s.id) ?? null;
  return {
    id: s.id,
    plan_name: s.plan_name,
    group_name: s.group_name,
    status: s.status,
    active: s.active,
    recurring: s.recurring,
    cancelled: s.cancelled,
    in_trial_period: s.in_trial_period,
    in_grace_period: s.in_grace_period,
    start_timestamp: s.start_timestamp,
    end_timestamp: s.end_timestamp,
    next_payment_due_date: s.next_payment_due_date,
    amount: money(s.payment_amount_cents),
    amount_cents: s.payment_amount_cents,
    /** A credit balance from a prorated downgrade, taken off the next charges (0: none). */
    credit_cents: row.creditCents,
    credit: row.creditCents > 0 ? words.t("summary.credit", { amount: money(row.creditCents) }) : null,
    currency: s.payment_amount_currency,
    /** "per month" (recurring) or "1 month" (one period). */
    period: periodWords(s.duration_length, s.duration_unit, words, { per: s.recurring }),
    payment_type: s.payment_type,
    /** A sentence for the card: when the next payment is, or when access ends. */
    summary: summaryOf(s, { ended, pausedUntil, creditCents: row.creditCents, zone, words }),
    /** A pause taken instead of a cancel and not over yet: when the subscription resumes. */
    paused_until: pausedUntil,
    switch_options: options,
    scheduled_switch: scheduled,
    cancellation,
    can_cancel: s.status === "active" || s.status === "pending",
    can_undo_cancel: s.cancelled && s.cancelled_at !== null && !ended && s.status === "cancelled",
    offer: offer ? { kind: offer.kind, periods: offer.periods, words: offer.words } : null,
    can_update_payment_method: keepsMethod && updateWay !== null,
    /** How: the page's own form ("form"), or a link to the gateway's hosted page ("hosted"). */
    payment_method_update: keepsMethod ? updateWay : null,
  };
}

/** The card's sentence: when the next payment is, or when access ends. */
function summaryOf(
  s: TSubscriptionWire,
  f: { ended: boolean; pausedUntil: string | null; creditCents: number; zone: string; words: ReaderWords },
): string {
  const { t, locale } = f.words;
  const time = (at: string) => timeInWords(at, f.zone, locale);
  const money = (cents: number) => moneyInWords(cents, s.payment_amount_currency, locale);
  const end = s.end_timestamp ? time(s.end_timestamp) : null;
  const amount = money(s.payment_amount_cents);
  if (f.pausedUntil) {
    const date = time(f.pausedUntil);
    if (f.ended) return t("summary.pausedEnded", { date, amount });
    return end ? t("summary.pausedAfter", { end, date }) : t("summary.pausedAfterPeriod", { date });
  }
  // In grace the period's end has passed but access has not (../recurring/grace.schema.ts, as the banner and the mail).
  const graceEnd = graceAccessEnd(s);
  if (graceEnd) return graceEnd.until ? t("summary.grace", { date: time(graceEnd.until) }) : t("summary.graceOpen");
  if (f.ended || s.expired) return end ? t("summary.endedOn", { date: end }) : t("summary.ended");
  if (s.status === "pending") return t("summary.pending");
  if (s.cancelled) return end ? t("summary.cancelledUntil", { date: end }) : t("summary.cancelled");
  if (s.recurring && s.next_payment_due_date) {
    // A credit balance comes off the next charge (../recurring/lifecycle.ts): the sentence says what is charged.
    const next = applyCredit(s.payment_amount_cents, f.creditCents).chargeCents;
    const values = { amount: money(next), full: amount, date: time(s.next_payment_due_date) };
    const less = next < s.payment_amount_cents;
    if (s.in_trial_period) return t(less ? "summary.trialNextCredit" : "summary.trialNext", values);
    return t(less ? "summary.nextCredit" : "summary.next", values);
  }
  return end ? t("summary.paidUntil", { date: end }) : t("summary.noEnd");
}

/** The page's data: the reader's subscriptions (newest first), invoices and credit notes (with PDF links). */
export async function selfServiceOverview(db: Db, args: ReaderArgs & ZoneArg) {
  const subscriptions = await listSubscriberSubscriptions(db, { ...args, activeOnly: false });
  const zone = await zoneOf(db, args);
  const words = args.words ?? englishWords();
  const cards = [];
  for (const s of subscriptions) cards.push(await subscriptionCard(db, args, s, zone, words));
  const invoices = (await listMemberInvoices(db, args)).map((i) => ({
    id: i.id,
    number: i.sequenced_invoice_number,
    amount: moneyInWords(i.amount_cents, i.amount_currency, words.locale),
    created_at: i.created_at,
    pdf_href: selfServiceInvoiceHref(i.id, "pdf"),
  }));
  const creditNotes = (await listCreditNotes(db, { ...args, limit: 100 })).map((n) => ({
    id: n.id,
    number: n.sequenced_credit_note_number,
    invoice_number: n.sequenced_invoice_number,
    amount: moneyInWords(n.amount_cents, n.amount_currency, words.locale),
    created_at: n.created_at,
    pdf_href: `/api/member/credit-notes/${n.id}.pdf`,
  }));
  return { subscriptions: cards, invoices, credit_notes: creditNotes };
}

/**
 * Preview a switch to `targetPlanId` (its switch type found from the prices) → the preview of the
 * client API, plus `words`: the same terms as a sentence, shown before the reader confirms.
 */
export async function previewSelfServiceSwitch(
  db: Db,
  args: ReaderArgs & ZoneArg & { subscriptionId: number; targetPlanId: number },
) {
  const sub = await db.subscription.findFirst({
    where: { id: args.subscriptionId, accountId: args.accountId, memberId: args.memberId, deletedAt: null },
  });
  if (!sub) throw notFoundSubscription();
  const target = await db.subscriptionPlan.findFirst({
    where: { id: args.targetPlanId, accountId: args.accountId, deletedAt: null },
  });
  const price = target ? targetPriceIn(target, sub.planAmountCurrency) : null;
  // The switch type the prices make it (the reader only chooses the plan); previewPlanSwitch
  // checks the rest (same group, enabled, recurring like it) and answers 422 otherwise.
  const switchType = classifySwitch(
    pricePerDay(sub.planAmountCents, sub.durationLength, sub.durationUnit),
    target && price !== null ? pricePerDay(price, target.durationLength, target.durationUnit) : null,
  );
  const preview = await previewPlanSwitch(db, { ...args, switchType });
  const words = switchInWords(
    {
      timeZone: await zoneOf(db, args),
      planName: preview.switch.plan_name,
      applies: preview.switch.applies,
      appliesAt: preview.switch.applies_at,
      chargeCents: preview.chargeable_amount_cents,
      creditCents: preview.switch.credit_cents,
      priceCents: preview.switch.price_cents,
      currency: preview.switch.currency,
      durationLength: target!.durationLength,
      durationUnit: target!.durationUnit.toLowerCase(),
      recurring: sub.recurring,
      ...("rest_cents" in preview.switch
        ? {
            restCents: preview.switch.rest_cents,
            carryCents: preview.switch.carry_cents,
            resetsCycle: preview.switch.resets_cycle,
          }
        : {}),
      ...("next_charge_cents" in preview.switch
        ? { nextChargeCents: preview.switch.next_charge_cents, nextChargeAt: preview.switch.next_charge_at }
        : {}),
      ...("scheduled_reason" in preview.switch ? { scheduledReason: preview.switch.scheduled_reason } : {}),
    },
    args.words,
  );
  return {
    attempt_token: preview.attempt_token,
    chargeable_amount_cents: preview.chargeable_amount_cents,
    external_reference_id: preview.external_reference_id,
    switch: preview.switch,
    words,
    /**
     * A one-time switch that costs something now is paid in the gateway's own form before the
     * confirm; a recurring one is charged to the stored payment method at the confirm.
     */
    needs_payment: (preview.chargeable_amount_cents ?? 0) > 0 && preview.switch.charged_with === "payment",
  };
}

/** Confirm a previewed switch: exactly the previewed terms, once (`applyPlanSwitch`). */
export async function confirmSelfServiceSwitch(
  db: Db,
  args: ReaderArgs &
    ZoneArg & {
      subscriptionId: number;
      attemptToken: string;
      paymentToken: string | null;
      extra: Record<string, unknown>;
    },
) {
  const result = await applyPlanSwitch(db, args);
  const { scheduled_switch: scheduled } = await scheduledSwitchOf(db, {
    accountId: args.accountId,
    subscriptionId: result.subscription.id,
  });
  const zone = await zoneOf(db, args);
  const { t, locale } = args.words ?? englishWords();
  const plan = (name: string) => isolated(name, locale);
  const date = scheduled ? timeInWords(scheduled.scheduled_at, zone, locale) : "";
  const message = !scheduled
    ? t("words.doneNow", { plan: plan(result.subscription.plan_name) })
    : scheduled.plan_name
      ? t("words.doneScheduled", { plan: plan(scheduled.plan_name), date })
      : t("words.doneScheduledOther", { date });
  return { subscription_id: result.subscription.id, plan_name: result.subscription.plan_name, message };
}

/**
 * Replace the payment method of a recurring subscription through its gateway's adapter
 * (`updatePaymentMethod`): the next charges use the new method (the subscription's payment_token).
 * A gateway without it: 422. Sending the same new method again changes nothing more.
 */
export async function updateSelfServicePaymentMethod(
  db: Db,
  args: ReaderArgs & { subscriptionId: number; paymentToken: string; extra: Record<string, unknown> },
) {
  const sub = await db.subscription.findFirst({
    where: { id: args.subscriptionId, accountId: args.accountId, memberId: args.memberId, deletedAt: null },
    include: { attempt: { select: { externalReferenceId: true } } },
  });
  if (!sub) throw notFoundSubscription();
  const adapter = paymentMethodChanger(sub, args.now, "updatePaymentMethod");
  const creds = await credentialsFor(db, args.accountId, adapter);
  let updated;
  try {
    updated = await adapter.updatePaymentMethod(creds, {
      accountId: args.accountId,
      subscriptionId: sub.id,
      currentPaymentToken: sub.paymentToken,
      gatewayReference: gatewaySubscriptionOf(sub),
      proof: { paymentToken: args.paymentToken, extra: args.extra },
    });
  } catch (error) {
    if (error instanceof PaymentAdapterError) {
      if (error.kind === "unavailable")
        throw new AppError("SERVICE_UNAVAILABLE", "The payment gateway could not be reached; try again.");
      throw new AppError("UNPROCESSABLE", `The new payment method was refused: ${error.message}`, {
        details: [{ field: "payment_token", issue: error.message }],
      });
    }
    throw error;
  }
  await withTransaction(db, async (tx) => {
    await tx.$queryRaw`SELECT id FROM subscriptions WHERE id = ${sub.id} FOR UPDATE`;
    const current = await tx.subscription.findUniqueOrThrow({ where: { id: sub.id } });
    if (current.paymentToken === updated.paymentToken) return;
    await tx.subscription.update({ where: { id: sub.id }, data: { paymentToken: updated.paymentToken } });
    await recordAudit(tx, {
      actor: systemActor(args.accountId, "client_api"),
      action: "subscription.payment_method.update",
      targetType: "subscription",
      targetId: sub.id,
      metadata: { payment_type: sub.paymentType, label: updated.label },
      now: args.now,
    });
    // In grace after a failed charge: the unpaid period is charged to the new method now (the
    // lifecycle job queued at this instant), not at the schedule's next retry.
    if (!(await retryChargeSoon(tx, { subscriptionId: sub.id, now: args.now })))
      await scheduleSubscriptionLifecycle(tx, { subscriptionId: sub.id, now: args.now });
  });
  return { subscription_id: sub.id, label: updated.label, message: "Your payment method is updated." };
}

/** How long a self-service session made from a publisher-signed JWT lasts. */
const JWT_SESSION_HOURS = 2;

/**
 * A reader the publisher knows by its signed JWT (the client API's reader) opens the page: a
 * member session for that same reader, so the page's calls (the session cookie) act on the
 * subscriptions the client API shows. The JWT already lets its bearer do all of this through the
 * client API; the session lasts two hours.
 */
export async function startJwtSelfServiceSession(
  db: Db,
  args: { accountId: number; user: ApiUser; now: Date },
): Promise<{ memberId: number; session: MemberSession }> {
  const member = await findOrCreateJwtMember(db, { accountId: args.accountId, user: args.user, now: args.now });
  const session = await createMemberSession(db, { memberId: member.id, now: args.now, days: JWT_SESSION_HOURS / 24 });
  return { memberId: member.id, session };
}
