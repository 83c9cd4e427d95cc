// GET /api/member/credit-notes/{id}.pdf|.html – one of the signed-in member's credit notes, for the self-service page
import { creditNoteDocumentResponse, pdfHrefOf } from "@/server/http/invoice-routes";
import { apiRoute, routes } from "@/server/http/route";
import { SELF_SERVICE_READ_LIMIT } from "@/server/http/self-service-routes";
import { getCreditNoteOrThrow } from "@/server/subscriptions/invoices/credit-notes";
import { ZCreditNoteFileParams } from "@/server/subscriptions/invoices/invoices.schema";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: apiRoute(
    {
      auth: "member",
      params: ZCreditNoteFileParams,
      produces: "any",
      rateLimit: SELF_SERVICE_READ_LIMIT,
      summary:
        "One of the signed-in member's credit notes (a refund of an invoice): `<id>.pdf` (application/pdf, an attachment) or `<id>.html` (a printable page), as the client API's members/me/credit-notes/<id> answers it. Another member's or account's credit note is 404.",
    },
    async ({ db, publisher, member, params, url }) => {
      const note = await getCreditNoteOrThrow(db, {
        reader: { accountId: publisher.accountId, via: "subscriber", memberId: member.member.id },
        id: params.credit_note_file.id,
      });
      return creditNoteDocumentResponse(db, note, params.credit_note_file.format, pdfHrefOf(url));
    },
  ),
});
