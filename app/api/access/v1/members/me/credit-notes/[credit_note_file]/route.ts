// GET /api/access/v1/members/me/credit-notes/{id}.pdf|.html – one of the reader's credit notes as a PDF or a printable page (client API)
import { creditNoteDocumentResponse, pdfHrefOf } from "@/server/http/invoice-routes";
import { READER_READ_LIMIT, readerMember } from "@/server/http/reader-subscription-routes";
import { apiRoute, routes } from "@/server/http/route";
import { getCreditNoteOrThrow, notFoundCreditNote } from "@/server/subscriptions/invoices/credit-notes";
import { ZCreditNoteFileParams } from "@/server/subscriptions/invoices/invoices.schema";
import { ZClientQuery } from "@/server/subscriptions/subscribers/subscribers.schema";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: apiRoute(
    {
      auth: "client+user",
      query: ZClientQuery,
      params: ZCreditNoteFileParams,
      produces: "any",
      cors: true,
      rateLimit: READER_READ_LIMIT,
      summary:
        "One of the reader's credit notes: `<id>.pdf` (application/pdf, an attachment) or `<id>.html` (a printable page). The JWT is required; another reader's or account's credit note is 404.",
    },
    async ({ db, account, user, params, url }) => {
      const member = await readerMember(db, account.id, user);
      if (!member) throw notFoundCreditNote();
      const note = await getCreditNoteOrThrow(db, {
        reader: { accountId: account.id, via: "subscriber", memberId: member.id },
        id: params.credit_note_file.id,
      });
      return creditNoteDocumentResponse(db, note, params.credit_note_file.format, pdfHrefOf(url));
    },
  ),
});
