/**
 * invoices.* – the account's invoices for revenue staff (REVENUE; OWNER passes): the list, newest
 * first, optionally one subscriber's (the subscriber page embeds it), and the credit notes of
 * refunds. Documents are served by GET /api/admin/invoices/<id>.pdf|.html and
 * /api/admin/credit-notes/<id>.pdf|.html.
 */
import { listCreditNotes } from "../../subscriptions/credit-notes";
import { listAccountInvoices } from "../../subscriptions/invoices";
import { ZListCreditNotesInput, ZListInvoicesInput } from "../../subscriptions/invoices.schema";
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
});
