/**
 * What a signed "update your card" link (./card-link.ts) lets its bearer do, and nothing more: see
 * that one subscription's card on the self-service page's terms, and replace its payment method
 * (the page's form, or the gateway's hosted page). A token that is forged, altered, expired, or
 * names a subscription that is no longer the reader's is 401 with one message, before anything
 * is read or changed. The link is made for the e-mail and the paywall banner by `cardLinkUrl` (card-link.ts).
 */
import "server-only";

import type { Db } from "../../db/client";
import { AppError } from "../../errors";
import { readerLocale, readerWords, type ReaderLocaleInput } from "../../members/reader-locale";
import { verifyCardLink, type CardLinkClaims } from "./card-link";
import { selfServiceOverview, updateSelfServicePaymentMethod } from "./self-service";
import { hostedPaymentMethodLink } from "./self-service-payment-method";

const refused = () =>
  new AppError("UNAUTHORIZED", "This link is not valid or has expired. Ask for a new one, or sign in.");

/** The link's claims for this account, or 401. */
function cardLinkClaims(token: string, accountId: number, now: Date): CardLinkClaims {
  const claims = verifyCardLink(token, now);
  if (!claims || claims.accountId !== accountId) throw refused();
  return claims;
}

/** The account and saved language of the reader a link names (null: not a valid link), for its page. */
export async function cardLinkReader(
  db: Db,
  args: { token: string; now: Date },
): Promise<{ accountId: number; locale: string | null } | null> {
  const claims = verifyCardLink(args.token, args.now);
  if (!claims) return null;
  const member = await db.member.findFirst({
    where: { id: claims.memberId, accountId: claims.accountId },
    select: { locale: true },
  });
  return { accountId: claims.accountId, locale: member?.locale ?? null };
}

/**
 * The subscription's card as the self-service page shows it (that one subscription only), in the
 * language of its page (this browser's choice, else the link's reader's saved one, else the browser's).
 */
export async function cardLinkView(
  db: Db,
  args: {
    token: string;
    accountId: number;
    now: Date;
    reader?: Pick<ReaderLocaleInput, "cookies" | "acceptLanguage">;
  },
) {
  const c = cardLinkClaims(args.token, args.accountId, args.now);
  const linked = await cardLinkReader(db, { token: args.token, now: args.now });
  const { locale } = await readerLocale(db, c.accountId, { ...args.reader, linkReader: linked?.locale });
  const words = await readerWords(db, c.accountId, locale);
  const overview = await selfServiceOverview(db, {
    accountId: c.accountId,
    memberId: c.memberId,
    now: args.now,
    words,
  });
  const card = overview.subscriptions.find((s) => s.id === c.subscriptionId);
  if (!card) throw refused();
  const way = card.payment_method_update;
  return {
    id: card.id,
    plan_name: card.plan_name,
    summary: card.summary,
    in_grace_period: card.in_grace_period,
    payment_type: card.payment_type,
    can_update_payment_method: card.can_update_payment_method,
    // The hosted page is reached through this link too (the page's own href needs a session).
    payment_method_update:
      way?.kind === "hosted" ? { ...way, href: `/api/member/card-link/${args.token}/hosted` } : (way ?? null),
    expires_at: c.expiresAt.toISOString(),
  };
}

/** Replace the payment method through the link (as the self-service form does). */
export async function updateCardByLink(
  db: Db,
  args: { token: string; accountId: number; paymentToken: string; extra: Record<string, unknown>; now: Date },
) {
  const c = cardLinkClaims(args.token, args.accountId, args.now);
  return updateSelfServicePaymentMethod(db, {
    accountId: c.accountId,
    memberId: c.memberId,
    subscriptionId: c.subscriptionId,
    paymentToken: args.paymentToken,
    extra: args.extra,
    now: args.now,
  });
}

/** The gateway's hosted card page through the link. */
export async function hostedCardPageByLink(db: Db, args: { token: string; accountId: number; now: Date }) {
  const c = cardLinkClaims(args.token, args.accountId, args.now);
  return hostedPaymentMethodLink(db, {
    accountId: c.accountId,
    memberId: c.memberId,
    subscriptionId: c.subscriptionId,
    now: args.now,
  });
}
