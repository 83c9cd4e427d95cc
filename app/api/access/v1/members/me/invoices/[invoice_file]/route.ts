// GET /api/access/v1/members/me/invoices/{id}.pdf|.html – one of the reader's invoices as a PDF or a printable page (client API)
import { invoiceDocumentResponse, pdfHrefOf } from "@/server/http/invoice-routes";
import { READER_READ_LIMIT, readerMember } from "@/server/http/reader-subscription-routes";
import { apiRoute, routes } from "@/server/http/route";
import { getInvoiceOrThrow, notFoundInvoice } from "@/server/subscriptions/invoices/invoices";
import { ZInvoiceFileParams } from "@/server/subscriptions/invoices/invoices.schema";
import { ZClientQuery } from "@/server/subscriptions/subscribers/subscribers.schema";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: apiRoute(
    {
      auth: "client+user",
      query: ZClientQuery,
      params: ZInvoiceFileParams,
      produces: "any",
      cors: true,
      rateLimit: READER_READ_LIMIT,
      summary:
        "One of the reader's invoices: `<id>.pdf` (application/pdf, an attachment) or `<id>.html` (a printable page). The JWT is required; another reader's or account's invoice is 404.",
    },
    async ({ db, account, user, params, url }) => {
      const member = await readerMember(db, account.id, user);
      if (!member) throw notFoundInvoice();
      const invoice = await getInvoiceOrThrow(db, {
        reader: { accountId: account.id, via: "subscriber", memberId: member.id },
        id: params.invoice_file.id,
      });
      return invoiceDocumentResponse(db, invoice, params.invoice_file.format, pdfHrefOf(url));
    },
  ),
});
