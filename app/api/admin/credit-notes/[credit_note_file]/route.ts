// GET /api/admin/credit-notes/{id}.pdf|.html – one of the account's credit notes as a PDF or a printable page (dashboard, REVENUE or OWNER)
import { creditNoteDocumentResponse, pdfHrefOf } from "@/server/http/invoice-routes";
import { apiRoute, routes } from "@/server/http/route";
import { getCreditNoteOrThrow } from "@/server/subscriptions/invoices/credit-notes";
import { ZCreditNoteFileParams } from "@/server/subscriptions/invoices/invoices.schema";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: apiRoute(
    {
      auth: "admin",
      roles: ["REVENUE"],
      params: ZCreditNoteFileParams,
      produces: "any",
      summary:
        "One of the account's credit notes for revenue staff: `<id>.pdf` (application/pdf, an attachment) or `<id>.html` (a printable page). Another account's credit note is 404.",
    },
    async ({ db, admin, params, url }) => {
      const note = await getCreditNoteOrThrow(db, {
        reader: { accountId: admin.accountId, via: "staff" },
        id: params.credit_note_file.id,
      });
      return creditNoteDocumentResponse(db, note, params.credit_note_file.format, pdfHrefOf(url));
    },
  ),
});
