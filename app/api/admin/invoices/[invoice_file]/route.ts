// GET /api/admin/invoices/{id}.pdf|.html – one of the account's invoices as a PDF or a printable page (dashboard, REVENUE or OWNER)
import { invoiceDocumentResponse, pdfHrefOf } from "@/server/http/invoice-routes";
import { apiRoute, routes } from "@/server/http/route";
import { getInvoiceOrThrow } from "@/server/subscriptions/invoices/invoices";
import { ZInvoiceFileParams } from "@/server/subscriptions/invoices/invoices.schema";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: apiRoute(
    {
      auth: "admin",
      roles: ["REVENUE"],
      params: ZInvoiceFileParams,
      produces: "any",
      summary:
        "One of the account's invoices for revenue staff: `<id>.pdf` (application/pdf, an attachment) or `<id>.html` (a printable page). Another account's invoice is 404.",
    },
    async ({ db, admin, params, url }) => {
      const invoice = await getInvoiceOrThrow(db, {
        reader: { accountId: admin.accountId, via: "staff" },
        id: params.invoice_file.id,
      });
      return invoiceDocumentResponse(db, invoice, params.invoice_file.format, pdfHrefOf(url));
    },
  ),
});
