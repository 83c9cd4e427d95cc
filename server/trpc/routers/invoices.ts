/**
 * invoices.* – the account's invoices for revenue staff (REVENUE; OWNER passes): the list, newest
 * first, optionally one subscriber's (the subscriber page embeds it). Documents are served by
 * GET /api/admin/invoices/<id>.pdf|.html.
 */
import { listAccountInvoices } from "../../subscriptions/invoices";
import { ZListInvoicesInput } from "../../subscriptions/invoices.schema";
import { adminProcedure, createTRPCRouter } from "../trpc";

const revenue = adminProcedure(["REVENUE"]);

export const invoicesRouter = createTRPCRouter({
  /** {invoices, nextCursor}: pass nextCursor as `cursor` for the next (older) page. */
  list: revenue
    .input(ZListInvoicesInput)
    .query(({ ctx, input }) => listAccountInvoices(ctx.db, { accountId: ctx.actor.accountId, ...input })),
});
