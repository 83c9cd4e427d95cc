// GET|POST|PUT /api/access/v1/members/me/metadata – the signed-in reader's subscriber metadata (client API)
import { json, noContent } from "@/server/http/respond";
import { apiRoute, routes } from "@/server/http/route";
import { findJwtMember, findOrCreateJwtMember } from "@/server/members/identities";
import { getSubscriberMetadata, setSubscriberMetadata } from "@/server/subscriptions/subscribers/subscribers";
import {
  METADATA_LIMITS,
  ZClientQuery,
  ZSubscriberMetadataInput,
} from "@/server/subscriptions/subscribers/subscribers.schema";

export const dynamic = "force-dynamic";

const RATE_LIMIT = { limit: 120, windowSeconds: 60, by: "ip+key" } as const;

/** POST merges, PUT replaces: the reader of the JWT (created on first sight), 204 on success. */
function write(mode: "merge" | "replace", summary: string) {
  return apiRoute(
    {
      auth: "client+user",
      query: ZClientQuery,
      body: ZSubscriberMetadataInput,
      maxBodyBytes: METADATA_LIMITS.maxBodyBytes,
      cors: true,
      rateLimit: { name: "subscribers.metadata.set", ...RATE_LIMIT },
      summary,
    },
    async ({ db, account, user, body }) => {
      const member = await findOrCreateJwtMember(db, {
        accountId: account.id,
        user,
        now: new Date(),
        linkProviderClaim: true,
      });
      await setSubscriberMetadata(db, { memberId: member.id, input: body, mode });
      return noContent({ headers: { "Cache-Control": "no-store" } });
    },
  );
}

const WRITE_SUMMARY =
  "{address?: {line1, line2, city, state, country, pincode} (other keys dropped), phone_number? (E.164), other? (at most 50 keys, 8 kB)}; the reader comes from the JWT (created on first sight). 204 with an empty body on success, the JSON error otherwise.";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: apiRoute(
    {
      auth: "client+optionalUser",
      query: ZClientQuery,
      cors: true,
      rateLimit: { name: "subscribers.metadata.get", ...RATE_LIMIT },
      summary:
        "The reader's subscriber metadata → {address, phone_number, other} (each null when unset). Without a JWT, or for a reader never seen, all three are null.",
    },
    async ({ db, account, user }) => {
      const member = user ? await findJwtMember(db, { accountId: account.id, userId: user.id }) : null;
      const metadata = member
        ? await getSubscriberMetadata(db, member.id)
        : { address: null, phone_number: null, other: null };
      return json(metadata, { headers: { "Cache-Control": "private, no-store" } });
    },
  ),
  POST: write(
    "merge",
    `Merge into the reader's subscriber metadata: each part sent replaces that part, parts not sent are kept, null clears one. ${WRITE_SUMMARY}`,
  ),
  PUT: write("replace", `Replace the reader's subscriber metadata: parts not sent are cleared. ${WRITE_SUMMARY}`),
});
