// GET /api/access/v1/members/me/invoices – the reader's invoices (client API)
import { PRIVATE_NO_STORE, READER_READ_LIMIT, readerMember } from "@/server/http/reader-subscription-routes";
import { json } from "@/server/http/respond";
import { apiRoute, routes } from "@/server/http/route";
import { listMemberInvoices } from "@/server/subscriptions/invoices/invoices";
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
        "The reader's invoices, newest first → {invoices: [Invoice]} (spec §2.2). Each is downloadable at …/members/me/invoices/<id>.pdf and printable at …/<id>.html with the same key and JWT.",
    },
    async ({ db, account, user }) => {
      const member = await readerMember(db, account.id, user);
      const invoices = member ? await listMemberInvoices(db, { accountId: account.id, memberId: member.id }) : [];
      return json({ invoices }, PRIVATE_NO_STORE);
    },
  ),
});
