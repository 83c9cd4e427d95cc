/**
 * A subscriptions CSV as an import source (`--from subscriptions FILE --plans MAPPING.json`,
 * docs/migration.md "Subscriptions CSV"): the paying readers of another system (Ghost with
 * Stripe, Stripe's own export, any system's), each row one subscription.
 *
 * Columns (header names; `email` or `identity`, and the others marked * are required):
 *   email | identity (provider:id), name, plan*, status*, current_period_end*, cancel_at_period_end,
 *   gateway, gateway_customer_id, gateway_subscription_id, amount | amount_cents*, currency*,
 *   started_at*, quantity. Stripe's subscriptions export and Razorpay's subscriptions report are
 *   taken as exported, told apart by their header (gateway-exports.ts).
 *
 * - **Reader**: the member planMember finds or creates (comments/authors.ts): by e-mail as Masthead
 *   keeps it (the same member the members CSV or a comment import made, whatever the spelling),
 *   then by identity (`identity`, and `<gateway>:<gateway_customer_id>`), else a new one.
 * - **Plan**: the old plan through the reviewed mapping (plans.ts); unmapped or unknown: refused.
 *   The subscription keeps the plan's copy (plan-copy.ts) and what the reader pays (`amount` in
 *   the currency's units, or `amount_cents`, times `quantity`; no amount: the plan's price).
 * - **Status and time** (`now` is the run's clock, `--as-of` sets it): active, trialing, past_due
 *   (Razorpay pending) → active until current_period_end (trialing: the trial ends then;
 *   recurring plans: the next payment is due then); cancel_at_period_end, or status
 *   cancelled/canceled → cancelled: access until current_period_end, no renewal; with its period
 *   over, or a status that says it is over (unpaid, incomplete_expired, halted, completed,
 *   expired) → expired. Never paid or paused (incomplete, created, authenticated, paused): refused,
 *   with the reason. The subscription grants access by the one rule (subscription-state.ts
 *   grantsAccess) until its end.
 * - **Gateway**: `gateway_subscription_id` is the subscription's payment token, where the
 *   gateway's recurring webhooks find it (payments/recurring-events.ts); payment type
 *   `<gateway>_recurring` on a recurring plan for a gateway that has one (`razorpay_recurring`,
 *   `stripe_recurring`), `sponsored` for "complimentary", else the gateway's name, "manual" when
 *   none is given. A gateway that charges each period itself renews the subscription by its
 *   webhooks once the account hears from it; one billed elsewhere (payments/billing-source.ts:
 *   no adapter, manual on a recurring plan, a gateway the account does not hear from) is never
 *   reminded, charged or dunned: it ends at its end, and staff can extend it.
 * - **Quiet**: no payment, no charge, no e-mail, no webhook, no job. The lifecycle's sweep takes
 *   the subscription up like any other; a renewal reminder whose moment had come before the
 *   import counts as sent (the old system's own reminders covered that period).
 */
import "server-only";

import { formatInstant } from "../../dates.schema";
import type { Db, TransactionClient } from "../../db/client";
import type { Prisma, SubscriptionStatus } from "../../generated/prisma/client";
import { planCopy } from "../../subscriptions/catalogue/plan-copy";
import { centsToDecimal } from "../../subscriptions/money.schema";
import { billedElsewhere, chargesByItself, hearingFrom } from "../../subscriptions/payments/billing-source";
import { paymentAdapterFor, paymentAdapterForProvider } from "../../subscriptions/payments/registry";
import { DAY_MS, RENEWAL_REMINDER_DAYS } from "../../subscriptions/recurring/lifecycle-steps";
import { graphemePrefix } from "../../text/graphemes";
import { MEMBER_KIND, noteSpelling, planMember, type SourceIdentity } from "../comments/authors";
import type { ImportContext, ImportFile, ImportItem, ImportSource, ItemPlan } from "../types";
import { indexCsv, readCsv, type CsvFormat, type CsvRow, type CsvSpec } from "./csv";
import { fromGatewayExport, GATEWAY_EXPORTS, importStatusOf, type ImportStatus } from "./gateway-exports";
import { loadPlanMapping, PlanResolver, type PlanMappingOption, type PlanWithGroup } from "./plans";
import { normaliseEmail, parseAmount, parseCsvBoolean, parseCsvDate, parseCurrency, parseIdentity } from "./values";

export const SUBSCRIPTIONS_SOURCE = "subscriptions";
const SUBSCRIPTION_KIND = "subscription";

const SPEC: CsvSpec = {
  title: "A subscriptions CSV",
  required: [
    ["email", "identity"],
    "plan",
    "status",
    "current_period_end",
    ["amount", "amount_cents"],
    "currency",
    "started_at",
  ],
  known: [
    "email",
    "identity",
    "name",
    "plan",
    "status",
    "current_period_end",
    "cancel_at_period_end",
    "gateway",
    "gateway_customer_id",
    "gateway_subscription_id",
    "amount",
    "amount_cents",
    "currency",
    "started_at",
    "quantity",
  ],
  formats: GATEWAY_EXPORTS,
};

/** At most this many distinct old plans are listed (a column that is not plans would have thousands). */
const MAX_PLANS_LISTED = 1000;

type SubscriptionItem = ImportItem & { row: CsvRow };

type SubscriptionsOptions = {
  /** The reviewed plan mapping (its file, or the Import page's); without it every row is refused (a dry run lists the plans). */
  plans?: PlanMappingOption;
  /** Told, once the file is read, the old plans it names with their row counts (for a mapping template). */
  onPlans?: (plans: Map<string, number>) => void;
};

/** The item's id: the gateway's subscription, or the reader, plan and start. */
function sourceIdOf(row: CsvRow): string {
  const v = row.values;
  const gateway = v.gateway?.trim().toLowerCase() || "none";
  const subscription = v.gateway_subscription_id?.trim();
  if (subscription) return `${gateway}:${subscription}`;
  const who = normaliseEmail(v.email) ?? v.identity?.trim() ?? "";
  return `${who}|${v.plan?.trim() ?? ""}|${v.started_at?.trim() ?? ""}`;
}

/** The subscriptions source, with the operator's options. */
export function subscriptionsSource(options: SubscriptionsOptions = {}): ImportSource<SubscriptionItem> {
  return {
    name: SUBSCRIPTIONS_SOURCE,
    description: "paying readers' subscriptions, from a CSV, their old plans matched to yours",
    kinds: [SUBSCRIPTION_KIND, MEMBER_KIND],
    prepare: async (file) => {
      const given = await loadPlanMapping(options.plans);
      const firstLine = new Map<string, number>();
      const plans = new Map<string, number>();
      const csv = await indexCsv(file, SPEC, (read, format) => {
        const row = fromGatewayExport(format, read);
        const id = sourceIdOf(row);
        if (!firstLine.has(id)) firstLine.set(id, row.line);
        const plan = row.values.plan?.trim();
        if (plan && (plans.has(plan) || plans.size < MAX_PLANS_LISTED)) plans.set(plan, (plans.get(plan) ?? 0) + 1);
      });
      options.onPlans?.(plans);
      const resolver = new PlanResolver(given?.mapping ?? null, given?.name ?? null);
      const noted = new Set<string>();
      const format = csv.format;
      return {
        digest: csv.digest,
        itemCount: csv.rows,
        problems: csv.problems,
        items: () => subscriptionItems(file, format),
        plan: (db, item, ctx) => planRow(db, item, ctx, { firstLine, resolver, noted, format }),
      };
    },
  };
}

async function* subscriptionItems(file: ImportFile, format: CsvFormat | null): AsyncGenerator<SubscriptionItem> {
  for await (const read of readCsv(file, SPEC)) {
    const row = fromGatewayExport(format, read);
    const who = row.values.email?.trim() || row.values.identity?.trim() || "no reader";
    yield { kind: SUBSCRIPTION_KIND, sourceId: sourceIdOf(row), label: `line ${row.line} (${who})`, row };
  }
}

const refuse = (reason: string): ItemPlan => ({ action: "refuse", reason });

/** The payment type a gateway's subscriptions get (see the file's comment). */
function paymentTypeOf(gateway: string, recurring: boolean): string {
  if (gateway === "") return "manual";
  if (gateway === "complimentary" || gateway === "comp") return "sponsored";
  const recurringType = `${gateway}_recurring`;
  if (recurring && paymentAdapterForProvider(gateway)?.paymentTypes.includes(recurringType)) return recurringType;
  return gateway;
}

/** What a row's status and dates come to (see the file's comment). */
function timing(status: ImportStatus, cancelAtEnd: boolean, end: Date, now: Date, recurring: boolean) {
  const cancelled = status === "cancelled" || status === "ended" || cancelAtEnd;
  const ended = status === "ended" || end.getTime() <= now.getTime();
  const stored: SubscriptionStatus = cancelled ? (ended ? "EXPIRED" : "CANCELLED") : "ACTIVE";
  const reminderDue = end.getTime() - RENEWAL_REMINDER_DAYS * DAY_MS <= now.getTime();
  return {
    status: stored,
    cancelledAt: cancelled ? now : null,
    nextPaymentDueDate: !cancelled && recurring ? end : null,
    trialEndsAt: status === "trialing" ? end : null,
    renewalReminderSentAt: !cancelled && reminderDue && !ended ? now : null,
  };
}

type RowContext = {
  firstLine: Map<string, number>;
  resolver: PlanResolver;
  noted: Set<string>;
  format: CsvFormat | null;
};
type Values = Record<string, string>;
type Refused = { refuse: string };

/** The reader a row names: its e-mail and identities (the gateway's customer among them). */
function readerOf(
  v: Values,
  gateway: string,
): { emailText: string; email: string | null; identities: SourceIdentity[] } | Refused {
  const emailText = v.email?.trim() ?? "";
  let email = emailText ? normaliseEmail(emailText) : null;
  if (emailText && !email) return { refuse: `its e-mail "${emailText}" is not an address` };
  const identities: SourceIdentity[] = [];
  const identityText = v.identity?.trim() ?? "";
  if (identityText) {
    const identity = parseIdentity(identityText);
    if (!identity) return { refuse: `its identity "${identityText}" is not provider:id` };
    if (identity.provider === "email") {
      const named = normaliseEmail(identity.externalId);
      if (!named) return { refuse: `its identity "${identityText}" is not an address` };
      if (email && named !== email)
        return { refuse: `its e-mail ${email} and identity ${identityText} name two readers` };
      email = named;
    } else {
      identities.push(identity);
    }
  }
  const customer = v.gateway_customer_id?.trim();
  if (gateway && customer) identities.push({ provider: gateway, externalId: customer });
  if (!email && identities.length === 0) return { refuse: "it names no reader (email or identity)" };
  return { emailText, email, identities };
}

/** A row's status, period and renewal. */
function termsOf(v: Values): { status: ImportStatus; start: Date; end: Date; cancelAtEnd: boolean } | Refused {
  const status = importStatusOf(v.status);
  if (typeof status !== "string") return status;
  const end = parseCsvDate(v.current_period_end);
  if (end === null || end === "invalid") {
    return { refuse: `its current_period_end "${v.current_period_end?.trim() ?? ""}" is not a date` };
  }
  const start = parseCsvDate(v.started_at);
  if (start === null || start === "invalid")
    return { refuse: `its started_at "${v.started_at?.trim() ?? ""}" is not a date` };
  if (start.getTime() > end.getTime()) return { refuse: "it starts after its current period ends" };
  const cancelAtEnd = parseCsvBoolean(v.cancel_at_period_end);
  if (cancelAtEnd === "invalid")
    return { refuse: `its cancel_at_period_end "${v.cancel_at_period_end}" is not true or false` };
  return { status, start, end, cancelAtEnd: cancelAtEnd === true };
}

/**
 * What the reader pays per period, in minor units: the row's amount (and currency) times its
 * quantity; a file with neither (Razorpay's report) pays the mapped plan's price.
 */
function priceOf(
  v: Values,
  plan: { priceCents: number; priceCurrency: string },
): { cents: number; currency: string } | Refused {
  const quantityText = v.quantity?.trim() || "1";
  if (!/^[1-9]\d{0,5}$/.test(quantityText))
    return { refuse: `its quantity "${quantityText}" is not a whole number of at least 1` };
  const quantity = Number(quantityText);
  const given = [v.amount, v.amount_cents, v.currency].some((x) => x?.trim());
  if (!given) return { cents: plan.priceCents * quantity, currency: plan.priceCurrency };
  const currency = parseCurrency(v.currency);
  if (!currency) return { refuse: `its currency "${v.currency?.trim() ?? ""}" is not a three-letter code` };
  const amount = parseAmount(v, currency);
  if ("error" in amount) return { refuse: amount.error };
  return { cents: amount.cents * quantity, currency };
}

/** Notes said once per run: the export's format, and the gateways Masthead cannot charge. */
function noteOnce(ctx: ImportContext, noted: Set<string>, key: string, message: string) {
  if (noted.has(key)) return;
  noted.add(key);
  ctx.note(message);
}

async function planRow(db: Db, item: SubscriptionItem, ctx: ImportContext, rc: RowContext): Promise<ItemPlan> {
  const { row } = item;
  const v = row.values;
  if (row.error) return refuse(row.error);
  if (rc.format) noteOnce(ctx, rc.noted, "format", `the file is read as ${rc.format.title}, its columns by name`);
  const first = rc.firstLine.get(item.sourceId);
  if (first !== undefined && first !== row.line) {
    return refuse(`it repeats line ${first}'s subscription (${item.sourceId}): only line ${first} is imported`);
  }
  const key = { kind: SUBSCRIPTION_KIND, sourceId: item.sourceId };
  const known = await ctx.lookup(db, key);
  if (known !== null) return { action: "skip", reason: `imported before (subscription #${known})` };

  const gateway = v.gateway?.trim().toLowerCase() ?? "";
  if (gateway && !/^[a-z][a-z0-9_-]{1,31}$/.test(gateway)) return refuse(`its gateway "${gateway}" is not a name`);
  const reader = readerOf(v, gateway);
  if ("refuse" in reader) return refuse(reader.refuse);
  const oldPlan = v.plan?.trim() ?? "";
  if (!oldPlan) return refuse("it has no plan");
  const mapped = await rc.resolver.resolve(db, ctx.accountId, oldPlan);
  if ("refuse" in mapped) return refuse(mapped.refuse);
  const planned = await planImportedSubscription(db, ctx, {
    v,
    plan: mapped.plan,
    key,
    label: item.label,
    noted: rc.noted,
    source: SUBSCRIPTIONS_SOURCE,
  });
  if ("refuse" in planned) return refuse(planned.refuse);
  if ("skip" in planned) return { action: "skip", reason: planned.skip };

  const { email, identities } = reader;
  noteSpelling(ctx, reader.emailText || null, email, rc.noted);
  const name =
    graphemePrefix(v.name?.trim() ?? "", 200) || email?.split("@")[0] || identities[0]!.externalId.slice(0, 200);
  const member = await planMember(db, ctx, { email, identities, name, source: "import" });
  return {
    action: "create",
    reason: `${planned.label} for ${member.label}`,
    effects: member.effects,
    remember: [...member.remember, key],
    apply: async (tx) => planned.apply(tx, await member.resolve(tx)),
  };
}

/** A subscription of the old system, planned for a reader the caller finds (this CSV's, a Ghost member's). */
export type ImportedSubscription = {
  /** What it is ("active \"Gold\" (#3), 1 Oct → 1 Nov, 9.00 USD, stripe_recurring"). */
  label: string;
  apply: (tx: TransactionClient, memberId: number) => Promise<void>;
};

/**
 * The subscription `v` describes (this file's columns: status, current_period_end,
 * cancel_at_period_end, gateway, gateway_customer_id, gateway_subscription_id, amount |
 * amount_cents, currency, started_at, quantity, plan) on the mapped `plan`, recorded under `key`;
 * skipped when a subscription has its gateway subscription already; refused with the reason.
 */
export async function planImportedSubscription(
  db: Db,
  ctx: ImportContext,
  args: {
    v: Values;
    plan: PlanWithGroup;
    key: { kind: string; sourceId: string };
    label: string;
    noted: Set<string>;
    source: string;
  },
): Promise<ImportedSubscription | Refused | { skip: string }> {
  const { v, plan, key, noted } = args;
  const gateway = v.gateway?.trim().toLowerCase() ?? "";
  const terms = termsOf(v);
  if ("refuse" in terms) return terms;
  const price = priceOf(v, plan);
  if ("refuse" in price) return price;
  const customer = v.gateway_customer_id?.trim() || null;
  const gatewaySubscription = v.gateway_subscription_id?.trim() || null;
  const paymentType = paymentTypeOf(gateway, plan.recurring);
  if (gatewaySubscription) {
    const existing = await db.subscription.findFirst({
      where: {
        accountId: ctx.accountId,
        paymentType,
        OR: [{ paymentToken: gatewaySubscription }, { gatewaySubscriptionId: gatewaySubscription }],
      },
      select: { id: true },
    });
    if (existing)
      return { skip: `subscription #${existing.id} has ${gateway} subscription ${gatewaySubscription} already` };
  }
  const when = timing(terms.status, terms.cancelAtEnd, terms.end, ctx.now, plan.recurring);
  const adapter = paymentAdapterFor(paymentType);
  const selfBilling = plan.recurring && chargesByItself(adapter);
  if (when.status === "ACTIVE" && selfBilling) {
    noteOnce(
      ctx,
      noted,
      `heard:${paymentType}`,
      `subscriptions billed by ${adapter.displayName ?? gateway} renew when it reports each charge: with its keys and webhook secret in Subscriptions → Payment gateways; until then they end quietly at their period end`,
    );
  } else if (
    when.status === "ACTIVE" &&
    (await billedElsewhere(
      { accountId: ctx.accountId, paymentType, createdBy: "import", recurring: plan.recurring },
      hearingFrom(db),
    ))
  ) {
    noteOnce(
      ctx,
      noted,
      `elsewhere:${paymentType}`,
      `subscriptions billed by ${gateway || "the old system"}, which Masthead cannot charge: access until their period end, then they end (no reminder, no dunning, no e-mail); staff can extend them`,
    );
  }
  if (terms.status === "past_due" && when.status === "ACTIVE") {
    ctx.note(`${args.label}: past_due is imported active until its period end, as the gateway retries the charge`);
  }
  const data: Prisma.SubscriptionUncheckedCreateInput = {
    accountId: ctx.accountId,
    memberId: 0,
    ...planCopy(plan),
    ...when,
    createdBy: "import",
    startTimestamp: terms.start,
    endTimestamp: terms.end,
    recurring: plan.recurring,
    paymentType,
    paymentToken: gatewaySubscription,
    // Where the gateway's webhooks find it after a card change there replaced the payment token.
    gatewaySubscriptionId: selfBilling ? gatewaySubscription : null,
    paymentAmountCents: price.cents,
    paymentAmountCurrency: price.currency,
    metadata: {
      imported_from: {
        source: args.source,
        plan: v.plan?.trim() ?? null,
        status: v.status!.trim().toLowerCase(),
        gateway: gateway || null,
        gateway_customer_id: customer,
        gateway_subscription_id: gatewaySubscription,
      },
    },
    createdAt: terms.start,
  };
  const period = `${formatInstant(terms.start, ctx.publisher.timeZone)} → ${formatInstant(terms.end, ctx.publisher.timeZone)}`;
  return {
    label: `${when.status.toLowerCase()} "${plan.title}" (#${plan.id}), ${period}, ${centsToDecimal(price.cents, price.currency)} ${price.currency}, ${paymentType}`,
    apply: async (tx, memberId) => {
      const created = await tx.subscription.create({ data: { ...data, memberId }, select: { id: true } });
      await ctx.record(tx, { ...key, targetId: created.id, created: true });
    },
  };
}
