// GET /api/member/invoices/{id}.pdf|.html – one of the signed-in member's invoices, for the self-service page
import { invoiceDocumentResponse, pdfHrefOf } from "@/server/http/invoice-routes";
import { apiRoute, routes } from "@/server/http/route";
import { SELF_SERVICE_READ_LIMIT } from "@/server/http/self-service-routes";
import { getInvoiceOrThrow } from "@/server/subscriptions/invoices/invoices";
import { ZInvoiceFileParams } from "@/server/subscriptions/invoices/invoices.schema";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: apiRoute(
    {
      auth: "member",
      params: ZInvoiceFileParams,
      produces: "any",
      rateLimit: SELF_SERVICE_READ_LIMIT,
      summary:
        "One of the signed-in member's invoices: `<id>.pdf` (application/pdf, an attachment) or `<id>.html` (a printable page), as the client API's members/me/invoices/<id> answers it. Another member's or account's invoice is 404.",
    },
    async ({ db, publisher, member, params, url }) => {
      const invoice = await getInvoiceOrThrow(db, {
        reader: { accountId: publisher.accountId, via: "subscriber", memberId: member.member.id },
        id: params.invoice_file.id,
      });
      return invoiceDocumentResponse(db, invoice, params.invoice_file.format, pdfHrefOf(url));
    },
  ),
});
