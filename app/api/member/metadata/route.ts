// GET /api/member/metadata – the logged-in member's metadata object
// POST /api/member/metadata – replace it (an object, at most 16 KB)
import { privateJson } from "@/server/http/member-session";
import { apiRoute, routes } from "@/server/http/route";
import { getMemberMetadata, setMemberMetadata } from "@/server/members/members";
import { MEMBER_METADATA_MAX_BYTES, ZMemberMetadataInput } from "@/server/members/members.schema";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: apiRoute(
    {
      auth: "member",
      cors: true,
      summary: "The logged-in member's metadata object ({} when none); 401 with an error message when not logged in.",
    },
    async ({ db, member }) => privateJson(await getMemberMetadata(db, { memberId: member.member.id })),
  ),
  POST: apiRoute(
    {
      auth: "member",
      body: ZMemberMetadataInput,
      cors: true,
      // The JSON of the object, plus room for a {"metadata": …} wrapper and whitespace.
      maxBodyBytes: MEMBER_METADATA_MAX_BYTES + 1024,
      rateLimit: { name: "member.metadata", limit: 120, windowSeconds: 60, by: "ip" },
      summary:
        'Replace the logged-in member\'s metadata with the body (an object; {"metadata": {...}} is unwrapped; at most 16 KB); answers the stored object.',
    },
    async ({ db, member, body }) =>
      privateJson(await setMemberMetadata(db, { memberId: member.member.id, metadata: body })),
  ),
});
