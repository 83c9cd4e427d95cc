// ANY /api/routed – not an endpoint: the static route serve.mjs hands the hottest dynamic paths to
// (the access checks and pingbacks, asked on every page view; a page's comments, read and posted;
// the comment counts), because Next.js prepares a dynamic path at a cost a static one does not pay
// (server/http/edge.js ROUTED_PATHS). It answers with the handlers of the path's own route file,
// the path, its parameters and its query taken from serve.mjs's ticket; without one, as the API
// answers a path it does not serve (404).
import { routedRoutes } from "@/server/http/route";

import * as unrouted from "../[...path]/route";
import * as access from "../access/v1/stories/[storyId]/access/route";
import * as ampAccess from "../access/v1/stories/[storyId]/amp-access/route";
import * as ampPingback from "../access/v1/stories/[storyId]/amp-pingback/route";
import * as pingback from "../access/v1/stories/[storyId]/pingback/route";
import * as comments from "../v1/accounts/[account_id]/pages/[encoded_url]/comments.json/route";
import * as counts from "../v1/accounts/[account_id]/pages/route";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routedRoutes(
  {
    "/api/access/v1/stories/[storyId]/access": access,
    "/api/access/v1/stories/[storyId]/amp-access": ampAccess,
    "/api/access/v1/stories/[storyId]/pingback": pingback,
    "/api/access/v1/stories/[storyId]/amp-pingback": ampPingback,
    "/api/v1/accounts/[account_id]/pages/[encoded_url]/comments.json": comments,
    "/api/v1/accounts/[account_id]/pages": counts,
  },
  unrouted,
);
