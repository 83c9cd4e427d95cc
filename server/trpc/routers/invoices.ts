/**
 * invoices.* – the account's invoices for revenue staff (REVENUE; OWNER passes): the list, newest
 * first, optionally one subscriber's (the subscriber page embeds it), and the credit notes of
 * refunds, and the seller new invoices name (legal name, address, tax id). Documents are served by GET /api/admin/invoices/<id>.pdf|.html and
 * /api/admin/credit-notes/<id>.pdf|.html.
 */
import { listCreditNotes } from "../../subscriptions/invoices/credit-notes";
import { getInvoiceSeller, updateInvoiceSeller } from "../../subscriptions/invoices/invoice-seller";
import { listAccountInvoices } from "../../subscriptions/invoices/invoices";
import {
  ZInvoiceSellerInput,
  ZListCreditNotesInput,
  ZListInvoicesInput,
} from "../../subscriptions/invoices/invoices.schema";
import { adminProcedure, createTRPCRouter } from "../trpc";

const revenue = adminProcedure(["REVENUE"]);

export const invoicesRouter = createTRPCRouter({
  /** {invoices, nextCursor}: pass nextCursor as `cursor` for the next (older) page. */
  list: revenue
    .input(ZListInvoicesInput)
    .query(({ ctx, input }) => listAccountInvoices(ctx.db, { accountId: ctx.actor.accountId, ...input })),
  /** The newest credit notes (at most `limit`), optionally one subscriber's. */
  creditNotes: revenue
    .input(ZListCreditNotesInput)
    .query(({ ctx, input }) => listCreditNotes(ctx.db, { accountId: ctx.actor.accountId, ...input })),
  /** The seller on new invoices (issued invoices keep the one they were issued with). */
  seller: revenue.query(({ ctx }) => getInvoiceSeller(ctx.db, { actor: ctx.actor })),
  updateSeller: revenue
    .input(ZInvoiceSellerInput)
    .mutation(({ ctx, input }) => updateInvoiceSeller(ctx.db, { actor: ctx.actor, input, now: new Date() })),
});
