/**
 * What the signed links of newsletter mails do (./links.ts, ./tokens.ts) for subscriptions:
 *
 * - confirm (`confirm.<subscription>`, signed over the sign-up request's nonce): a PENDING
 *   subscription becomes ACTIVE (confirmedAt), and the address's suppression is lifted: the reader
 *   proved the address and asked again. Only a POST does it (the page's button): link scanners
 *   GET. The link of an earlier request (replaced by a later sign-up) is NOT_FOUND.
 * - unsubscribe (`unsubscribe.<subscription>` or `delivery.<delivery>`): the subscription becomes
 *   UNSUBSCRIBED with the caller's source; a delivery's `unsubscribedAt` is set, so the send counts
 *   it. A delivery whose reader has no subscription row (an audience of members) gets one,
 *   UNSUBSCRIBED, so the next send leaves the reader out.
 *
 * Both are consent records (server/privacy/consent): a confirmation given with the confirmation
 * mail's wording, an unsubscribe withdrawn.
 *
 * A token is looked up by the row it names, then checked against that row's account: a malformed
 * token is BAD_REQUEST, one not signed for its row's account (or for another purpose) NOT_FOUND.
 */
import "server-only";

import type { Db } from "../db/client";
import { withTransaction } from "../db/transaction";
import { AppError } from "../errors";
import type { NewsletterSubscription } from "../generated/prisma/client";
import { PG_INT_MAX } from "../params.schema";
import { recordConsent } from "../privacy/consent/consent";
import { newsletterPurpose } from "../privacy/consent/consent.schema";
import { confirmationWording } from "../privacy/consent/wording";
import { firstGrapheme } from "../text/graphemes";
import { memberAddress } from "./audience";
import { unsubscribeSubscription } from "./subscriptions";
import { liftSuppression } from "./suppression";
import {
  isNewsletterTokenForm,
  newsletterTokenKey,
  verifyNewsletterToken,
  type TNewsletterTokenPurpose,
} from "./tokens";

export const BAD_TOKEN_MESSAGE = "This link is malformed. Copy the whole link from the mail.";
const UNKNOWN_TOKEN_MESSAGE = "This link is not valid (or the subscription no longer exists).";

type Target = {
  accountId: number;
  subscription: NewsletterSubscription | null;
  /** The newsletter and member the link is about (a delivery's, when it has no subscription row). */
  newsletterId: number;
  memberId: number;
  delivery: { id: bigint; sentAt: Date | null; unsubscribedAt: Date | null } | null;
};

function assertForm(token: string): void {
  if (!isNewsletterTokenForm(token))
    throw new AppError("BAD_REQUEST", BAD_TOKEN_MESSAGE, { details: [{ field: "token", issue: "is malformed" }] });
}

const notFound = () => new AppError("NOT_FOUND", UNKNOWN_TOKEN_MESSAGE);

/**
 * The token form allows ids of up to 19 digits; past its column's type (a subscription's integer,
 * a delivery's bigint) no row has the id, and the database would refuse the lookup.
 */
const ID_MAX = { subscription: BigInt(PG_INT_MAX), delivery: 9_223_372_036_854_775_807n };

/** The row a token names, checked against its account and `purposes`. */
async function resolve(db: Db, token: string, purposes: readonly TNewsletterTokenPurpose[]): Promise<Target> {
  assertForm(token);
  const [purpose, id] = token.split(".") as [TNewsletterTokenPurpose, string];
  if (!purposes.includes(purpose)) throw notFound();
  if (BigInt(id) > (purpose === "delivery" ? ID_MAX.delivery : ID_MAX.subscription)) throw notFound();
  const key = newsletterTokenKey();
  if (purpose === "delivery") {
    const delivery = await db.newsletterDelivery.findUnique({
      where: { id: BigInt(id) },
      select: {
        id: true,
        accountId: true,
        memberId: true,
        sentAt: true,
        unsubscribedAt: true,
        send: { select: { newsletterId: true } },
      },
    });
    if (!delivery || !verifyNewsletterToken(key, delivery.accountId, token, ["delivery"])) throw notFound();
    const subscription = await db.newsletterSubscription.findUnique({
      where: { newsletterId_memberId: { newsletterId: delivery.send.newsletterId, memberId: delivery.memberId } },
    });
    return {
      accountId: delivery.accountId,
      subscription,
      newsletterId: delivery.send.newsletterId,
      memberId: delivery.memberId,
      delivery,
    };
  }
  const subscription = await db.newsletterSubscription.findUnique({ where: { id: Number(id) } });
  // A confirmation link names the sign-up request it was mailed for (its nonce): a later request
  // of the same address replaced the nonce, and the older link no longer confirms anything.
  const nonce = purpose === "confirm" ? subscription?.confirmNonce : null;
  if (!subscription || !verifyNewsletterToken(key, subscription.accountId, token, [purpose], nonce)) throw notFound();
  return {
    accountId: subscription.accountId,
    subscription,
    newsletterId: subscription.newsletterId,
    memberId: subscription.memberId,
    delivery: null,
  };
}

export type LinkView = {
  newsletterName: string;
  accountName: string;
  /** The newsletter's account (the page's words and locales are its). */
  accountId: number;
  /** The reader's saved language (members.locale; null: none chosen). */
  readerLocale: string | null;
  /** The reader's address, partly hidden ("a***@example.com"). */
  email: string;
  status: "none" | "pending" | "active" | "unsubscribed";
};

function maskEmail(email: string): string {
  const [local = "", domain = ""] = email.split("@");
  return `${firstGrapheme(local)}***@${domain}`;
}

async function view(db: Db, target: Target): Promise<LinkView> {
  const [newsletter, member] = await Promise.all([
    db.newsletter.findUniqueOrThrow({
      where: { id: target.newsletterId },
      select: { name: true, account: { select: { name: true } } },
    }),
    db.member.findUniqueOrThrow({
      where: { id: target.memberId },
      select: { email: true, communicationEmail: true, locale: true },
    }),
  ]);
  const status = target.subscription ? (target.subscription.status.toLowerCase() as LinkView["status"]) : "none";
  return {
    newsletterName: newsletter.name,
    accountName: newsletter.account.name,
    accountId: target.accountId,
    readerLocale: member.locale,
    email: maskEmail(memberAddress(member) ?? member.email),
    status,
  };
}

/** What a confirm or unsubscribe page shows for its token (changes nothing). */
export async function describeNewsletterLink(
  db: Db,
  args: { token: string; purposes: readonly TNewsletterTokenPurpose[] },
): Promise<LinkView> {
  return view(db, await resolve(db, args.token, args.purposes));
}

/**
 * Confirm a PENDING subscription (double opt-in). ACTIVE: unchanged. UNSUBSCRIBED since (the reader
 * left after signing up): unchanged, the link no longer subscribes anyone.
 */
export async function confirmSubscription(db: Db, args: { token: string; now: Date }): Promise<LinkView> {
  const target = await resolve(db, args.token, ["confirm"]);
  const subscription = target.subscription!;
  if (subscription.status === "PENDING") {
    await withTransaction(db, async (tx) => {
      const { count } = await tx.newsletterSubscription.updateMany({
        where: { id: subscription.id, status: "PENDING", confirmNonce: subscription.confirmNonce },
        data: { status: "ACTIVE", confirmedAt: args.now },
      });
      if (count === 0) return;
      const [newsletter, account] = await Promise.all([
        tx.newsletter.findUniqueOrThrow({ where: { id: subscription.newsletterId }, select: { name: true } }),
        tx.account.findUniqueOrThrow({ where: { id: target.accountId }, select: { name: true } }),
      ]);
      const wording = await confirmationWording(tx, {
        accountId: target.accountId,
        memberId: subscription.memberId,
        newsletter: newsletter.name,
        publisher: account.name,
      });
      await recordConsent(tx, {
        accountId: target.accountId,
        memberId: subscription.memberId,
        purpose: newsletterPurpose(subscription.newsletterId),
        given: true,
        channel: "confirmation_link",
        wording,
        now: args.now,
      });
      const member = await tx.member.findUniqueOrThrow({
        where: { id: subscription.memberId },
        select: { email: true, communicationEmail: true },
      });
      const address = memberAddress(member);
      if (address) await liftSuppression(tx, { accountId: target.accountId, email: address });
    });
  }
  return view(db, await resolve(db, args.token, ["confirm"]));
}

/**
 * Unsubscribe by a mail's link: "one_click" (RFC 8058 POST from the mail client) or "link" (the
 * page's button). Idempotent.
 */
export async function unsubscribeByToken(
  db: Db,
  args: { token: string; source: string; now: Date },
): Promise<LinkView> {
  const target = await resolve(db, args.token, ["unsubscribe", "delivery"]);
  await withTransaction(
    db,
    async (tx) => {
      if (target.delivery && !target.delivery.unsubscribedAt) {
        await tx.newsletterDelivery.updateMany({
          where: { id: target.delivery.id, unsubscribedAt: null },
          data: { unsubscribedAt: args.now },
        });
      }
      const existing =
        target.subscription ??
        (await tx.newsletterSubscription.findUnique({
          where: { newsletterId_memberId: { newsletterId: target.newsletterId, memberId: target.memberId } },
        }));
      if (existing) {
        await unsubscribeSubscription(tx, { subscriptionId: existing.id, source: args.source, now: args.now });
      } else {
        await tx.newsletterSubscription.create({
          data: {
            accountId: target.accountId,
            newsletterId: target.newsletterId,
            memberId: target.memberId,
            status: "UNSUBSCRIBED",
            consentedAt: target.delivery?.sentAt ?? args.now,
            consentSource: "audience",
            unsubscribedAt: args.now,
            unsubscribeSource: args.source,
            createdAt: args.now,
          },
        });
        await recordConsent(tx, {
          accountId: target.accountId,
          memberId: target.memberId,
          purpose: newsletterPurpose(target.newsletterId),
          given: false,
          channel: "unsubscribe_link",
          now: args.now,
        });
      }
    },
    { retryUniqueClashes: true },
  );
  return view(db, await resolve(db, args.token, ["unsubscribe", "delivery"]));
}
