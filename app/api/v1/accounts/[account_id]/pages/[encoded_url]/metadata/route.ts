// PUT /api/v1/accounts/{account_id}/pages/{b64 url}/metadata – talktype.pageMetadataSetter: a page's metadata
import { setPageMetadata } from "@/server/engagement/page-metadata";
import { PAGE_METADATA_LIMITS, ZPageMetadataBody, ZPageMetadataParams } from "@/server/engagement/page-metadata.schema";
import { ENGAGEMENT_RATE_LIMITS } from "@/server/http/engagement-limits";
import { json } from "@/server/http/respond";
import { apiRoute, routes } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  PUT: apiRoute(
    {
      auth: "publisherJwt",
      params: ZPageMetadataParams,
      body: ZPageMetadataBody,
      maxBodyBytes: PAGE_METADATA_LIMITS.maxBodyBytes,
      cors: true,
      rateLimit: ENGAGEMENT_RATE_LIMITS.pageMetadata,
      summary:
        "Replace the page's metadata (flat: strings, numbers, arrays of them; at most 50 keys, 10 kB): {metadata, metadata_jwt?, jwt?} → {page: {id, page_url, headline, hero_image_url, metadata, author_ids_count}, ignored}. og:title sets the headline, og:image (http(s)) the hero image. The page's author_ids come only from metadata_jwt (signed with the shared key, claims {page_url, author_ids}); author_ids in metadata is ignored. Creates the page on the publication's hosts only (403).",
    },
    async ({ db, account, params, body }) =>
      json(
        await setPageMetadata(db, {
          accountId: account.id,
          encodedUrl: params.encoded_url,
          input: body,
          now: new Date(),
        }),
        { headers: { "Cache-Control": "no-store" } },
      ),
  ),
});
