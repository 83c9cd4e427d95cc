// GET|POST /api/access/v1/members/me/subscription-gifts – the subscriptions the reader gave (client API)
import { PRIVATE_NO_STORE, READER_READ_LIMIT, readerMember } from "@/server/http/reader-subscription-routes";
import { json } from "@/server/http/respond";
import { apiRoute, routes } from "@/server/http/route";
import { ZClientQuery } from "@/server/subscriptions/subscribers/subscribers.schema";
import { listGiftedSubscriptions } from "@/server/subscriptions/subscribers/subscriptions";

export const dynamic = "force-dynamic";

const gifts = apiRoute(
  {
    auth: "client+optionalUser",
    query: ZClientQuery,
    cors: true,
    rateLimit: READER_READ_LIMIT,
    summary:
      "The subscriptions the reader gave as gifts, newest first → [Subscription]; [] without a JWT or for a reader never seen. POST answers the same (the spec's sample command uses POST).",
  },
  async ({ db, account, user }) => {
    const member = await readerMember(db, account.id, user);
    const list = member
      ? await listGiftedSubscriptions(db, { accountId: account.id, gifterMemberId: member.id, now: new Date() })
      : [];
    return json(list, PRIVATE_NO_STORE);
  },
);

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({ GET: gifts, POST: gifts });
