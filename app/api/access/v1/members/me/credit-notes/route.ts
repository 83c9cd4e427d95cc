// GET /api/access/v1/members/me/credit-notes – the reader's credit notes (client API)
import { PRIVATE_NO_STORE, READER_READ_LIMIT, readerMember } from "@/server/http/reader-subscription-routes";
import { json } from "@/server/http/respond";
import { apiRoute, routes } from "@/server/http/route";
import { listCreditNotes } from "@/server/subscriptions/invoices/credit-notes";
import { ZClientQuery } from "@/server/subscriptions/subscribers/subscribers.schema";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: apiRoute(
    {
      auth: "client+user",
      query: ZClientQuery,
      cors: true,
      rateLimit: READER_READ_LIMIT,
      summary:
        "The reader's credit notes (one per refund of an invoiced payment), newest first → {credit_notes: [CreditNote]}. Each is downloadable at …/members/me/credit-notes/<id>.pdf and printable at …/<id>.html with the same key and JWT.",
    },
    async ({ db, account, user }) => {
      const member = await readerMember(db, account.id, user);
      const notes = member ? await listCreditNotes(db, { accountId: account.id, memberId: member.id }) : [];
      return json({ credit_notes: notes }, PRIVATE_NO_STORE);
    },
  ),
});
