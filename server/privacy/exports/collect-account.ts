/**
 * The account half of a data export (./collect.ts): how the reader signs in (identities,
 * sessions, links and grants, never a token or its hash), what they pay for (subscriptions,
 * payments, invoices, credit notes, gifts given, group memberships, gateway customers), their
 * newsletters and consents, and the mail sent to them (subject and when, not the bodies: a body
 * may hold a sign-in link). Money is integer minor units (cents) with its ISO currency.
 */
import "server-only";

import type { Db } from "../../db/client";
import { iso } from "./format";

type Row = Record<string, unknown>;

/** Identities, sessions, reset and verification links, OAuth grants: when, never the secrets. */
export async function collectSignIns(db: Db, memberId: number) {
  const [identities, sessions, resets, verifications, codes, tokens] = await Promise.all([
    db.memberIdentity.findMany({
      where: { memberId },
      orderBy: { id: "asc" },
      select: { provider: true, externalId: true, email: true, createdAt: true },
    }),
    db.memberSession.findMany({
      where: { memberId },
      orderBy: { createdAt: "asc" },
      select: { createdAt: true, lastUsedAt: true, expiresAt: true, revokedAt: true },
    }),
    db.passwordResetToken.findMany({
      where: { memberId },
      orderBy: { createdAt: "asc" },
      select: { createdAt: true, expiresAt: true, usedAt: true },
    }),
    db.emailVerificationToken.findMany({
      where: { memberId },
      orderBy: { createdAt: "asc" },
      select: { email: true, createdAt: true, expiresAt: true, usedAt: true },
    }),
    db.oAuthAuthorizationCode.findMany({
      where: { memberId },
      orderBy: { createdAt: "asc" },
      select: { scope: true, createdAt: true, usedAt: true, client: { select: { name: true } } },
    }),
    db.oAuthAccessToken.findMany({
      where: { memberId },
      orderBy: { createdAt: "asc" },
      select: { scope: true, createdAt: true, expiresAt: true, revokedAt: true, client: { select: { name: true } } },
    }),
  ]);
  return {
    identities: identities.map((i) => ({
      provider: i.provider,
      external_id: i.externalId,
      email: i.email,
      created_at: iso(i.createdAt),
    })),
    sessions: sessions.map((s) => ({
      created_at: iso(s.createdAt),
      last_used_at: iso(s.lastUsedAt),
      expires_at: iso(s.expiresAt),
      revoked_at: iso(s.revokedAt),
    })),
    password_resets: resets.map((r) => ({
      created_at: iso(r.createdAt),
      expires_at: iso(r.expiresAt),
      used_at: iso(r.usedAt),
    })),
    email_verifications: verifications.map((v) => ({
      email: v.email,
      created_at: iso(v.createdAt),
      expires_at: iso(v.expiresAt),
      used_at: iso(v.usedAt),
    })),
    oauth_authorizations: codes.map((c) => ({
      app: c.client.name,
      scope: c.scope,
      created_at: iso(c.createdAt),
      used_at: iso(c.usedAt),
    })),
    oauth_tokens: tokens.map((t) => ({
      app: t.client.name,
      scope: t.scope,
      created_at: iso(t.createdAt),
      expires_at: iso(t.expiresAt),
      revoked_at: iso(t.revokedAt),
    })),
  };
}

const subscriptionFields = {
  id: true,
  planName: true,
  groupName: true,
  subscriptionType: true,
  status: true,
  startTimestamp: true,
  endTimestamp: true,
  cancelledAt: true,
  trialEndsAt: true,
  nextPaymentDueDate: true,
  recurring: true,
  durationLength: true,
  durationUnit: true,
  paymentType: true,
  paymentAmountCents: true,
  paymentAmountCurrency: true,
  taxAmountCents: true,
  couponCode: true,
  customMessage: true,
  createdAt: true,
} as const;

type SubscriptionRow = {
  id: number;
  planName: string;
  groupName: string | null;
  subscriptionType: string;
  status: string;
  startTimestamp: Date;
  endTimestamp: Date | null;
  cancelledAt: Date | null;
  trialEndsAt: Date | null;
  nextPaymentDueDate: Date | null;
  recurring: boolean;
  durationLength: number;
  durationUnit: string;
  paymentType: string;
  paymentAmountCents: number;
  paymentAmountCurrency: string;
  taxAmountCents: number;
  couponCode: string | null;
  customMessage: string | null;
  createdAt: Date;
};

function subscriptionView(s: SubscriptionRow): Row {
  return {
    id: s.id,
    plan: s.planName,
    group: s.groupName,
    type: s.subscriptionType.toLowerCase(),
    status: s.status.toLowerCase(),
    recurring: s.recurring,
    duration: `${s.durationLength} ${s.durationUnit.toLowerCase()}`,
    payment_type: s.paymentType,
    amount_cents: s.paymentAmountCents,
    tax_cents: s.taxAmountCents,
    currency: s.paymentAmountCurrency,
    coupon_code: s.couponCode,
    starts_at: iso(s.startTimestamp),
    ends_at: iso(s.endTimestamp),
    cancelled_at: iso(s.cancelledAt),
    trial_ends_at: iso(s.trialEndsAt),
    next_payment_due_at: iso(s.nextPaymentDueDate),
    created_at: iso(s.createdAt),
  };
}

/** Subscriptions with their payments, invoices, credit notes, gifts given, group memberships. */
export async function collectMoney(db: Db, memberId: number) {
  const [subscriptions, invoices, creditNotes, gifts, memberships, customers] = await Promise.all([
    db.subscription.findMany({ where: { memberId }, orderBy: { id: "asc" }, select: subscriptionFields }),
    db.invoice.findMany({
      where: { memberId },
      orderBy: { id: "asc" },
      select: {
        sequenceNumber: true,
        subscriptionId: true,
        planName: true,
        currency: true,
        netCents: true,
        discountCents: true,
        amountCents: true,
        subscriberName: true,
        subscriberEmail: true,
        sellerName: true,
        periodStart: true,
        periodEnd: true,
        createdAt: true,
      },
    }),
    db.creditNote.findMany({
      where: { memberId },
      orderBy: { id: "asc" },
      select: {
        sequenceNumber: true,
        currency: true,
        netCents: true,
        amountCents: true,
        reason: true,
        createdAt: true,
        invoice: { select: { sequenceNumber: true } },
      },
    }),
    // Gifts the reader gave: the plan and the price, not who received it (another reader's data).
    db.subscription.findMany({
      where: { gifterMemberId: memberId },
      orderBy: { id: "asc" },
      select: subscriptionFields,
    }),
    db.subscriptionMember.findMany({
      where: { memberId },
      orderBy: { createdAt: "asc" },
      select: { subscriptionId: true, createdAt: true, subscription: { select: { planName: true, status: true } } },
    }),
    db.memberGatewayCustomer.findMany({
      where: { memberId },
      orderBy: { id: "asc" },
      select: { provider: true, environment: true, externalCustomerId: true, createdAt: true },
    }),
  ]);
  const payments = subscriptions.length
    ? await db.payment.findMany({
        where: { subscriptionId: { in: subscriptions.map((s) => s.id) } },
        orderBy: { id: "asc" },
        select: {
          subscriptionId: true,
          paymentType: true,
          externalPaymentId: true,
          amountCents: true,
          refundedCents: true,
          currency: true,
          status: true,
          createdAt: true,
        },
      })
    : [];
  return {
    subscriptions: subscriptions.map(subscriptionView),
    payments: payments.map((p) => ({
      subscription_id: p.subscriptionId,
      gateway: p.paymentType,
      gateway_payment_id: p.externalPaymentId,
      amount_cents: p.amountCents,
      refunded_cents: p.refundedCents,
      currency: p.currency,
      status: p.status.toLowerCase(),
      created_at: iso(p.createdAt),
    })),
    invoices: invoices.map((i) => ({
      number: i.sequenceNumber,
      subscription_id: i.subscriptionId,
      plan: i.planName,
      net_cents: i.netCents,
      discount_cents: i.discountCents,
      amount_cents: i.amountCents,
      currency: i.currency,
      billed_name: i.subscriberName,
      billed_email: i.subscriberEmail,
      seller: i.sellerName,
      period_start: iso(i.periodStart),
      period_end: iso(i.periodEnd),
      created_at: iso(i.createdAt),
    })),
    credit_notes: creditNotes.map((n) => ({
      number: n.sequenceNumber,
      invoice_number: n.invoice.sequenceNumber,
      net_cents: n.netCents,
      amount_cents: n.amountCents,
      currency: n.currency,
      reason: n.reason,
      created_at: iso(n.createdAt),
    })),
    gifts_given: gifts.map((g) => {
      const { id, plan, status, amount_cents, currency, starts_at, ends_at, created_at } = subscriptionView(g);
      return { id, plan, status, amount_cents, currency, message: g.customMessage, starts_at, ends_at, created_at };
    }),
    group_memberships: memberships.map((m) => ({
      subscription_id: m.subscriptionId,
      plan: m.subscription.planName,
      status: m.subscription.status.toLowerCase(),
      joined_at: iso(m.createdAt),
    })),
    payment_customers: customers.map((c) => ({
      gateway: c.provider,
      environment: c.environment,
      customer_id: c.externalCustomerId,
      created_at: iso(c.createdAt),
    })),
  };
}

/** Newsletter subscriptions and deliveries, consents, and the mail sent to the reader's addresses. */
export async function collectMail(db: Db, member: { id: number; accountId: number; addresses: string[] }) {
  const memberId = member.id;
  const [newsletters, deliveries, consents, mail] = await Promise.all([
    db.newsletterSubscription.findMany({
      where: { memberId },
      orderBy: { id: "asc" },
      select: {
        status: true,
        consentedAt: true,
        consentSource: true,
        confirmedAt: true,
        unsubscribedAt: true,
        unsubscribeSource: true,
        newsletter: { select: { name: true } },
      },
    }),
    db.newsletterDelivery.findMany({
      where: { memberId },
      orderBy: { id: "asc" },
      select: {
        email: true,
        status: true,
        sentAt: true,
        openedAt: true,
        clickedAt: true,
        bouncedAt: true,
        unsubscribedAt: true,
        send: { select: { subject: true, newsletter: { select: { name: true } } } },
      },
    }),
    db.memberConsent.findMany({
      where: { memberId },
      orderBy: { id: "asc" },
      select: { list: true, consentedAt: true, source: true },
    }),
    db.outgoingEmail.findMany({
      where: { accountId: member.accountId, to: { in: member.addresses } },
      orderBy: { createdAt: "asc" },
      select: { to: true, subject: true, kind: true, status: true, createdAt: true, sentAt: true },
    }),
  ]);
  return {
    newsletter_subscriptions: newsletters.map((n) => ({
      newsletter: n.newsletter.name,
      status: n.status.toLowerCase(),
      consented_at: iso(n.consentedAt),
      consent_source: n.consentSource,
      confirmed_at: iso(n.confirmedAt),
      unsubscribed_at: iso(n.unsubscribedAt),
      unsubscribe_source: n.unsubscribeSource,
    })),
    newsletter_deliveries: deliveries.map((d) => ({
      newsletter: d.send.newsletter.name,
      subject: d.send.subject,
      email: d.email,
      status: d.status.toLowerCase(),
      sent_at: iso(d.sentAt),
      opened_at: iso(d.openedAt),
      clicked_at: iso(d.clickedAt),
      bounced_at: iso(d.bouncedAt),
      unsubscribed_at: iso(d.unsubscribedAt),
    })),
    consents: consents.map((c) => ({ list: c.list, consented_at: iso(c.consentedAt), source: c.source })),
    mail: mail.map((m) => ({
      to: m.to,
      subject: m.subject,
      kind: m.kind,
      status: m.status.toLowerCase(),
      created_at: iso(m.createdAt),
      sent_at: iso(m.sentAt),
    })),
  };
}
