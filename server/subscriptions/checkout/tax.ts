/**
 * The tax of a checkout (docs/subscriptions.md, "Taxes"): what the preview freezes in the attempt's
 * terms (./terms.ts). Not on campaign contributions. The place is the request's address first,
 * then the subscriber's; the account's enabled tax rules for it apply (../pricing.ts computeTax).
 */
import "server-only";

import type { Db } from "../../db/client";
import type { MemberRecord } from "../../members/members";
import { applicableTaxRules, computeTax, taxLocation, type TaxLine } from "../pricing";
import { getSubscriberMetadata } from "../subscribers";

/** Where the tax was computed for, frozen in the terms; the create's address must agree. */
export type TaxPlace = { country: string | null; region: string | null };

export type CheckoutTax = {
  taxCents: number;
  /** What a period costs after discount and tax. */
  totalCents: number;
  lines: TaxLine[];
  /** Null when no tax was computed (no rules, a campaign). */
  location: TaxPlace | null;
};

/** The tax on `amountCents` (the price after discount) for this buyer. */
export async function checkoutTax(
  db: Db,
  args: { accountId: number; member: MemberRecord | null; metadata: unknown; amountCents: number; campaign: boolean },
): Promise<CheckoutTax> {
  const { accountId, member, amountCents } = args;
  const none: CheckoutTax = { taxCents: 0, totalCents: amountCents, lines: [], location: null };
  if (args.campaign) return none;
  const rules = await db.taxRule.findMany({ where: { accountId, enabled: true, deletedAt: null } });
  if (!rules.length) return none;
  const stored = member ? await getSubscriberMetadata(db, member.id) : null;
  const location = taxLocation(args.metadata, stored);
  const t = computeTax(amountCents, applicableTaxRules(rules, location));
  return { taxCents: t.taxCents, totalCents: t.totalCents, lines: t.lines, location };
}
