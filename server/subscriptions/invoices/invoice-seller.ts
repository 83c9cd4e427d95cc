/**
 * The seller an account's invoices name (docs/subscriptions.md "Invoices"): legal name, postal
 * address and tax id, set by revenue staff (REVENUE; OWNER passes) on the Invoices page. Read
 * when an invoice is issued and copied onto it (invoices.ts), so a later edit never changes an
 * issued invoice or its credit notes. A save is audited (`invoice_seller.update`).
 */
import "server-only";

import { recordAudit } from "../../audit/audit-log";
import type { Actor } from "../../auth/actor";
import type { Db } from "../../db/client";
import { withTransaction } from "../../db/transaction";
import { parseInput } from "../../validation";
import { ZInvoiceSellerInput, type TInvoiceSellerInput, type TInvoiceSellerView } from "./invoices.schema";

type SellerRow = { legalName: string; address: string; taxId: string };

/** What an invoice issued now names: the legal name (else the account's name), address, tax id. */
export function sellerOnInvoice(account: { name: string; invoiceSeller: SellerRow | null }) {
  const seller = account.invoiceSeller;
  return {
    name: seller?.legalName || account.name,
    address: seller?.address || null,
    taxId: seller?.taxId || null,
  };
}

export async function getInvoiceSeller(db: Db, args: { actor: Actor }): Promise<TInvoiceSellerView> {
  const account = await db.account.findUniqueOrThrow({
    where: { id: args.actor.accountId },
    select: { name: true, invoiceSeller: true },
  });
  const row = account.invoiceSeller;
  return {
    legalName: row?.legalName ?? "",
    address: row?.address ?? "",
    taxId: row?.taxId ?? "",
    fallbackName: account.name,
    updatedAt: row?.updatedAt.toISOString() ?? null,
  };
}

export async function updateInvoiceSeller(
  db: Db,
  args: { actor: Actor; input: TInvoiceSellerInput; now?: Date; ip?: string | null },
): Promise<TInvoiceSellerView> {
  const input = parseInput(ZInvoiceSellerInput, args.input);
  const accountId = args.actor.accountId;
  await withTransaction(db, async (tx) => {
    const before = await tx.invoiceSeller.findUnique({ where: { accountId } });
    await tx.invoiceSeller.upsert({ where: { accountId }, create: { accountId, ...input }, update: input });
    await recordAudit(tx, {
      actor: args.actor,
      action: "invoice_seller.update",
      targetType: "invoice_seller",
      targetId: accountId,
      metadata: {
        ...input,
        previous: before ? { legalName: before.legalName, address: before.address, taxId: before.taxId } : null,
      },
      ip: args.ip,
      now: args.now,
    });
  });
  return getInvoiceSeller(db, { actor: args.actor });
}
