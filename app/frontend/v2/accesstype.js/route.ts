// GET /frontend/v2/accesstype.js?key=<account key>[&env=sandbox] – the AccessType browser SDK (docs/subscriptions.md "Browser SDK")
import { routes } from "@/server/http/route";
import { accessTypeSdkRoute } from "@/server/http/static-asset";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: accessTypeSdkRoute(
    "The AccessType browser SDK (window.AccessType), the path the AccessType React component loads. The script reads `key` (and `env`) from its own src in the browser; the bytes are the same for every account.",
  ),
});
