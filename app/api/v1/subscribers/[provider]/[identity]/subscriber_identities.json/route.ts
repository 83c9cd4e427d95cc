// GET|POST /api/v1/subscribers/{provider}/{identity}/subscriber_identities.json – a subscriber's identities (server API)
import { AppError } from "@/server/errors";
import { json } from "@/server/http/respond";
import { apiRoute, routes } from "@/server/http/route";
import {
  addSubscriberIdentity,
  listSubscriberIdentities,
  resolveSubscriber,
} from "@/server/subscriptions/subscribers/subscribers";
import {
  ZAddIdentityBody,
  ZAlternateIdentity,
  ZSubscriberPathParams,
} from "@/server/subscriptions/subscribers/subscribers.schema";

export const dynamic = "force-dynamic";

const RATE_LIMIT = { limit: 600, windowSeconds: 60, by: "key" } as const;

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: apiRoute(
    {
      auth: "server",
      params: ZSubscriberPathParams,
      query: ZAlternateIdentity,
      rateLimit: { name: "subscribers.identities.list", ...RATE_LIMIT },
      summary:
        "The identities of the subscriber at <provider>/<identity> (or, when none is there, at alternate_provider/alternate_identity) → {subscriber_identities: [{provider, value}]}. 404 when neither names a subscriber of the account. The first e-mail identity is the member's sign-in e-mail; further ones follow it.",
    },
    async ({ db, account, params, query }) => {
      const member = await resolveSubscriber(db, { accountId: account.id, ...params, ...query });
      if (!member) throw new AppError("NOT_FOUND", "No subscriber has this identity.");
      return json({ subscriber_identities: await listSubscriberIdentities(db, member) });
    },
  ),
  POST: apiRoute(
    {
      auth: "server",
      params: ZSubscriberPathParams,
      body: ZAddIdentityBody,
      rateLimit: { name: "subscribers.identities.add", ...RATE_LIMIT },
      summary:
        "Add {subscriber_identity: {provider, value}} to the subscriber at <provider>/<identity> (or at alternate_provider/alternate_identity, in the body), creating the subscriber at <provider>/<identity> when neither names one → {subscriber_identities} (the full list). A subscriber may hold several e-mails (the first is its sign-in e-mail) and any other identities; every one finds it. Idempotent; 409 when another subscriber holds the identity (two adds of one identity at once: one wins). E-mails are lower-cased; phone identities are E.164.",
    },
    async ({ db, account, params, body }) =>
      json({
        subscriber_identities: await addSubscriberIdentity(db, {
          accountId: account.id,
          at: params,
          alternate:
            body.alternate_provider && body.alternate_identity
              ? { provider: body.alternate_provider, identity: body.alternate_identity }
              : null,
          add: body.subscriber_identity,
          now: new Date(),
        }),
      }),
  ),
});
