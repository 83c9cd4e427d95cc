// PUT /api/v1/accounts/{account_id}/pages/{b64 url}/metadata – talktype.pageMetadataSetter: a page's metadata
import { READER_ACTIONS } from "@/server/http/reader-action-routes";
import { routes } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({ PUT: READER_ACTIONS.setPageMetadata });
