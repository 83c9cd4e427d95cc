/**
 * Readers' newsletter subscriptions, with their consent (docs/newsletters.md "Subscriptions").
 *
 * - One row per newsletter and member (unique index). A subscribe finds or creates the member by
 *   e-mail through the one find-or-create of server/members/identities.ts, then writes the row in a
 *   transaction that is rerun when a concurrent subscribe inserted it first: two subscribes at
 *   once leave one row and at most one confirmation mail.
 * - ACTIVE at once only when the caller vouches for the address (`proven`: a signed-in reader, or
 *   staff) AND the member's e-mail is verified AND the address is not suppressed. Otherwise
 *   PENDING, with a confirmation mail (double opt-in) queued in the same transaction; following its
 *   link (./subscription-links.ts) makes it ACTIVE and lifts the address's suppression. Each
 *   request that mails a confirmation gets a new random `confirmNonce`, which its link is signed
 *   over: a link confirms only the request it was sent for, never a later sign-up of the address.
 * - The confirmation mail comes from the newsletter's sender (name, address, Reply-To), as its
 *   issues do, in the member's locale (their saved choice, else the account's default: every
 *   subscriber has a member record, so no locale is kept on the subscription).
 * - Every (re)subscribe records the consent: `consentedAt` (now) and `consentSource`. A PENDING
 *   row asked again is mailed again at most once per CONFIRM_RESEND_MS.
 * - Unsubscribing records `unsubscribedAt` and `unsubscribeSource`; again is a no-op that keeps
 *   the first time and source.
 * - Each consent given (a sign-up request, a confirmation) and withdrawn is also a consent record
 *   (server/privacy/consent), with the wording the reader was shown, in the same transaction.
 */
import "server-only";

import { randomBytes } from "node:crypto";

import { getEnv } from "../../env.js";
import { recordAudit } from "../audit/audit-log";
import type { StaffActor } from "../auth/actor";
import type { Db, TransactionClient } from "../db/client";
import { withTransaction } from "../db/transaction";
import { AppError } from "../errors";
import type { Newsletter, NewsletterSubscription } from "../generated/prisma/client";
import { queueEmail } from "../mail/outbox";
import { readerMail, renderSimpleMail } from "../mail/reader-mail";
import { findOrCreateMemberByIdentity } from "../members/identities";
import type { MemberRecord } from "../members/members";
import { recordConsent, type ConsentWording } from "../privacy/consent/consent";
import { channelOfSource, newsletterPurpose } from "../privacy/consent/consent.schema";
import { memberPageNewsletterWording, newsletterNoteWording, shownLocale } from "../privacy/consent/wording";
import { accessGrantingWhere } from "../subscriptions/subscribers/subscription-state";
import { memberAddress } from "./audience";
import { confirmUrl, unsubscribeUrl } from "./links";
import { getNewsletterRow } from "./newsletters";
import type { TAddSubscriberInput } from "./newsletters.schema";
import { fromHeader, newsletterHeaders } from "./render-mail";
import type { TMemberNewsletter } from "./subscriptions.schema";
import { isSuppressed, normaliseEmail } from "./suppression";
import { newsletterTokenKey } from "./tokens";

const CONFIRM_MAIL_KIND = "newsletter.confirm";
/** A PENDING subscription asked for again gets a new confirmation mail at most this often. */
const CONFIRM_RESEND_MS = 3600_000;

type SubscriptionStatusWord = TMemberNewsletter["status"];

type SubscribeResult = {
  newsletterId: number;
  subscriptionId: number;
  status: NewsletterSubscription["status"];
  /** Whether a confirmation mail was queued. */
  mailed: boolean;
};

type Member = Pick<MemberRecord, "id" | "accountId" | "email" | "communicationEmail" | "emailVerified" | "name">;

function statusWord(row: Pick<NewsletterSubscription, "status"> | undefined): SubscriptionStatusWord {
  return row ? (row.status.toLowerCase() as SubscriptionStatusWord) : "none";
}

/** A new sign-up request's nonce (./tokens.ts: a confirmation link is signed over it). */
function newConfirmNonce(): string {
  return randomBytes(16).toString("base64url");
}

/** The confirmation mail of a PENDING subscription for its latest request (`nonce`), queued in `tx`. */
async function queueConfirmation(
  tx: TransactionClient,
  args: { member: Member; address: string; newsletter: Newsletter; subscriptionId: number; nonce: string; now: Date },
): Promise<void> {
  const { member, newsletter } = args;
  const [account, mail] = await Promise.all([
    tx.account.findUniqueOrThrow({ where: { id: member.accountId }, select: { name: true } }),
    readerMail(tx, member.accountId, member.id),
  ]);
  const base = { baseUrl: getEnv().APP_URL, key: newsletterTokenKey(), accountId: member.accountId };
  const confirm = confirmUrl({ ...base, subscriptionId: args.subscriptionId, nonce: args.nonce });
  const unsubscribe = unsubscribeUrl({ ...base, subscriptionId: args.subscriptionId });
  const { t } = mail;
  const body = renderSimpleMail(mail, {
    subject: t("confirmSubject", { newsletter: newsletter.name }),
    name: member.name,
    blocks: [
      { p: t("confirmIntro", { newsletter: newsletter.name, publisher: account.name }) },
      { link: confirm, label: t("confirmButton") },
      { p: t("confirmIgnore") },
    ],
    footer: t("confirmNotInterested", { url: unsubscribe }),
  });
  await queueEmail(tx, {
    accountId: member.accountId,
    to: args.address,
    ...body,
    headers: newsletterHeaders({ unsubscribeUrl: unsubscribe, replyTo: newsletter.replyTo }),
    from: fromHeader(newsletter.senderName, newsletter.senderEmail),
    kind: CONFIRM_MAIL_KIND,
    now: args.now,
  });
}

/**
 * Subscribe `member` to `newsletter` with the consent of `source` (module header). Runs in its own
 * transaction, rerun once when a concurrent subscribe created the row first.
 */
async function subscribeMember(
  db: Db,
  args: {
    member: Member;
    newsletter: Newsletter;
    source: string;
    proven: boolean;
    now: Date;
    /** The wording the reader was shown (none: staff, an import). */
    wording?: ConsentWording | null;
  },
): Promise<SubscribeResult> {
  const { member, newsletter, source, now } = args;
  if (newsletter.accountId !== member.accountId) throw new Error("member and newsletter of different accounts");
  // The address newsletters go to (./audience.ts): a member known only by outside identities has its communication e-mail.
  const address = memberAddress(member);
  if (!address) {
    throw new AppError("UNPROCESSABLE", "Add an e-mail address to your account first: newsletters need one.", {
      details: [{ field: "email", issue: "is missing" }],
    });
  }
  return withTransaction(
    db,
    async (tx) => {
      const key = { newsletterId_memberId: { newsletterId: newsletter.id, memberId: member.id } };
      const existing = await tx.newsletterSubscription.findUnique({ where: key });
      const suppressed = await isSuppressed(tx, { accountId: member.accountId, email: address });
      const active = args.proven && member.emailVerified && !suppressed;
      const consented = () =>
        recordConsent(tx, {
          accountId: member.accountId,
          memberId: member.id,
          purpose: newsletterPurpose(newsletter.id),
          given: true,
          channel: channelOfSource(source),
          wording: args.wording,
          now,
        });
      const result = (row: NewsletterSubscription, mailed: boolean): SubscribeResult => ({
        newsletterId: newsletter.id,
        subscriptionId: row.id,
        status: row.status,
        mailed,
      });
      if (existing?.status === "ACTIVE") return result(existing, false);
      if (existing?.status === "PENDING") {
        if (active) {
          const row = await tx.newsletterSubscription.update({
            where: { id: existing.id },
            data: { status: "ACTIVE", consentedAt: now, consentSource: source },
          });
          await consented();
          return result(row, false);
        }
        if (now.getTime() - existing.consentedAt.getTime() < CONFIRM_RESEND_MS) return result(existing, false);
        const nonce = newConfirmNonce();
        const row = await tx.newsletterSubscription.update({
          where: { id: existing.id },
          data: { consentedAt: now, consentSource: source, confirmNonce: nonce },
        });
        await consented();
        await queueConfirmation(tx, { member, address, newsletter, subscriptionId: row.id, nonce, now });
        return result(row, true);
      }
      const nonce = active ? null : newConfirmNonce();
      const data = {
        status: active ? ("ACTIVE" as const) : ("PENDING" as const),
        confirmNonce: nonce,
        consentedAt: now,
        consentSource: source,
        confirmedAt: null,
        unsubscribedAt: null,
        unsubscribeSource: null,
      };
      const row = existing
        ? await tx.newsletterSubscription.update({ where: { id: existing.id }, data })
        : await tx.newsletterSubscription.create({
            data: {
              ...data,
              accountId: member.accountId,
              newsletterId: newsletter.id,
              memberId: member.id,
              createdAt: now,
            },
          });
      await consented();
      if (nonce) await queueConfirmation(tx, { member, address, newsletter, subscriptionId: row.id, nonce, now });
      return result(row, !active);
    },
    { retryUniqueClashes: true },
  );
}

/** The member with this e-mail in the account, created (unverified, no password) when there is none. */
async function findOrCreateNewsletterMember(
  db: Db,
  args: { accountId: number; email: string; name?: string | null; source: string; now: Date; locale?: string | null },
): Promise<MemberRecord> {
  const email = normaliseEmail(args.email);
  const { member } = await findOrCreateMemberByIdentity(db, {
    key: { accountId: args.accountId, email },
    now: args.now,
    create: {
      name: args.name?.trim() || email.split("@")[0]!,
      source: args.source,
      email,
      emailVerified: false,
      locale: args.locale ?? null,
    },
    // A subscriber's further e-mail identity (server/subscriptions/subscribers/subscribers.ts) names that member.
    otherwise: async (tx) => {
      const held = await tx.member.findFirst({
        where: { accountId: args.accountId, identities: { some: { provider: "email", externalId: email } } },
      });
      return held ? { member: held, link: false } : null;
    },
  });
  return member;
}

/**
 * Leave a newsletter, with its consent record (withdrawn). Idempotent: an UNSUBSCRIBED row keeps
 * its first time and source, and nothing more is recorded.
 */
export async function unsubscribeSubscription(
  db: Db,
  args: { subscriptionId: number; source: string; now: Date },
): Promise<void> {
  await withTransaction(db, async (tx) => {
    const { count } = await tx.newsletterSubscription.updateMany({
      where: { id: args.subscriptionId, status: { not: "UNSUBSCRIBED" } },
      data: { status: "UNSUBSCRIBED", unsubscribedAt: args.now, unsubscribeSource: args.source },
    });
    if (count === 0) return;
    const row = await tx.newsletterSubscription.findUniqueOrThrow({ where: { id: args.subscriptionId } });
    await recordConsent(tx, {
      accountId: row.accountId,
      memberId: row.memberId,
      purpose: newsletterPurpose(row.newsletterId),
      given: false,
      channel: channelOfSource(args.source),
      now: args.now,
    });
  });
}

// ─── readers ─────────────────────────────────────────────────────────────────────────────────

/** The plans the member pays for now (the subscriptions that grant access: ../subscriptions/subscribers/subscription-state.ts). */
async function paidPlanIds(db: Db, args: { accountId: number; memberId: number; now: Date }): Promise<Set<number>> {
  const rows = await db.subscription.findMany({
    where: {
      accountId: args.accountId,
      memberId: args.memberId,
      planId: { not: null },
      ...accessGrantingWhere(args.now),
    },
    select: { planId: true },
  });
  return new Set(rows.map((r) => r.planId!));
}

/**
 * The newsletters a signed-in member may see and join: the account's non-archived ones, except
 * PAYING newsletters of plans the member does not pay for (any plan, when the newsletter names
 * none); shown all the same while subscribed, so a reader can always leave.
 */
export async function listMemberNewsletters(
  db: Db,
  args: { accountId: number; memberId: number; now: Date },
): Promise<(TMemberNewsletter & { newsletter: Newsletter })[]> {
  const [newsletters, subscriptions, paid] = await Promise.all([
    db.newsletter.findMany({
      where: { accountId: args.accountId, archivedAt: null },
      orderBy: [{ name: "asc" }, { id: "asc" }],
    }),
    db.newsletterSubscription.findMany({ where: { accountId: args.accountId, memberId: args.memberId } }),
    paidPlanIds(db, args),
  ]);
  const byNewsletter = new Map(subscriptions.map((s) => [s.newsletterId, s]));
  return newsletters
    .filter((n) => {
      const status = byNewsletter.get(n.id)?.status;
      const pays = n.planIds.length === 0 ? paid.size > 0 : n.planIds.some((id) => paid.has(id));
      return n.audience !== "PAYING" || pays || status === "ACTIVE" || status === "PENDING";
    })
    .map((n) => {
      const row = byNewsletter.get(n.id);
      return {
        newsletter: n,
        slug: n.slug,
        name: n.name,
        description: n.description,
        status: statusWord(row),
        subscribed: row?.status === "ACTIVE",
      };
    });
}

/**
 * The signed-in reader joins (`subscribed`) or leaves a newsletter from the self-service page.
 * NOT_FOUND for a newsletter the reader may not see. Joining with a verified e-mail is ACTIVE at
 * once; otherwise PENDING with a confirmation mail.
 */
export async function setMemberSubscription(
  db: Db,
  args: { accountId: number; member: MemberRecord; slug: string; subscribed: boolean; now: Date },
): Promise<TMemberNewsletter> {
  const visible = await listMemberNewsletters(db, {
    accountId: args.accountId,
    memberId: args.member.id,
    now: args.now,
  });
  const found = visible.find((n) => n.slug === args.slug);
  if (!found) throw new AppError("NOT_FOUND", "No such newsletter.");
  const { newsletter } = found;
  if (args.subscribed) {
    const wording = await memberPageNewsletterWording(db, args.accountId, args.member.id);
    await subscribeMember(db, {
      member: args.member,
      newsletter,
      source: "self_service",
      proven: true,
      now: args.now,
      wording,
    });
  } else {
    const row = await db.newsletterSubscription.findUnique({
      where: { newsletterId_memberId: { newsletterId: newsletter.id, memberId: args.member.id } },
      select: { id: true },
    });
    if (row) await unsubscribeSubscription(db, { subscriptionId: row.id, source: "self_service", now: args.now });
  }
  const after = (
    await listMemberNewsletters(db, { accountId: args.accountId, memberId: args.member.id, now: args.now })
  ).find((n) => n.slug === args.slug);
  const { newsletter: _n, ...view } = after ?? { ...found, status: "unsubscribed" as const, subscribed: false };
  return view;
}

/**
 * A sign-up from a widget or a page (no session): every named newsletter becomes PENDING with a
 * confirmation mail unless already ACTIVE. Unknown, archived and PAYING newsletters are NOT_FOUND
 * (checked before anything is written). The caller answers the same whatever happened.
 */
export async function publicSubscribe(
  db: Db,
  args: {
    accountId: number;
    email: string;
    name?: string;
    slugs: string[];
    source: string;
    now: Date;
    /** A new reader's locale (server/members/reader-locale.ts signUpLocaleOf). */
    locale?: string | null;
  },
): Promise<SubscribeResult[]> {
  const newsletters = await db.newsletter.findMany({
    where: { accountId: args.accountId, slug: { in: args.slugs }, archivedAt: null, audience: { not: "PAYING" } },
  });
  const missing = args.slugs.filter((slug) => !newsletters.some((n) => n.slug === slug));
  if (missing.length > 0) {
    throw new AppError("NOT_FOUND", "No such newsletter.", {
      details: missing.map((slug) => ({
        field: "newsletters",
        issue: `"${slug}" is not a newsletter readers can join`,
      })),
    });
  }
  const member = await findOrCreateNewsletterMember(db, { ...args, source: "newsletter" });
  // The widget is shown in the sign-up locale (null: the account's default).
  const locale = await shownLocale(db, args.accountId, args.locale);
  const wording = await newsletterNoteWording(db, { accountId: args.accountId, surface: "widgets", locale });
  const results: SubscribeResult[] = [];
  for (const newsletter of newsletters) {
    results.push(
      await subscribeMember(db, { member, newsletter, source: args.source, proven: false, now: args.now, wording }),
    );
  }
  return results;
}

// ─── staff ───────────────────────────────────────────────────────────────────────────────────

/** Staff add a reader (consent source "dashboard"): ACTIVE when the member's e-mail is verified. Audited. */
export async function addSubscriberByStaff(
  db: Db,
  args: { actor: StaffActor; input: TAddSubscriberInput; now: Date },
): Promise<SubscribeResult> {
  const { actor, input, now } = args;
  const newsletter = await getNewsletterRow(db, { accountId: actor.accountId, id: input.newsletterId });
  if (newsletter.archivedAt) throw new AppError("UNPROCESSABLE", "This newsletter is archived: bring it back first.");
  const member = await findOrCreateNewsletterMember(db, {
    accountId: actor.accountId,
    email: input.email,
    name: input.name,
    source: "newsletter",
    now,
  });
  // One transaction for the subscription and its audit entry, rerun when a concurrent subscribe won the row.
  return withTransaction(
    db,
    async (tx) => {
      const result = await subscribeMember(tx, { member, newsletter, source: "dashboard", proven: true, now });
      await recordAudit(tx, {
        actor,
        action: "newsletter.subscriber_add",
        targetType: "newsletter",
        targetId: newsletter.id,
        metadata: { memberId: member.id, status: result.status },
        now,
      });
      return result;
    },
    { retryUniqueClashes: true },
  );
}

/** Staff unsubscribe a reader (source "dashboard"). Idempotent; audited when it changed something. */
export async function unsubscribeByStaff(
  db: Db,
  args: { actor: StaffActor; newsletterId: number; subscriptionId: number; now: Date },
): Promise<void> {
  const { actor, now } = args;
  const newsletter = await getNewsletterRow(db, { accountId: actor.accountId, id: args.newsletterId });
  const row = await db.newsletterSubscription.findFirst({
    where: { id: args.subscriptionId, newsletterId: newsletter.id, accountId: actor.accountId },
  });
  if (!row) throw new AppError("NOT_FOUND", "No such subscriber.");
  if (row.status === "UNSUBSCRIBED") return;
  await withTransaction(db, async (tx) => {
    await unsubscribeSubscription(tx, { subscriptionId: row.id, source: "dashboard", now });
    await recordAudit(tx, {
      actor,
      action: "newsletter.subscriber_unsubscribe",
      targetType: "newsletter",
      targetId: newsletter.id,
      metadata: { memberId: row.memberId },
      now,
    });
  });
}
