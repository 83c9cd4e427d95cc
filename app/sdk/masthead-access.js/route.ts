// GET /sdk/masthead-access.js – the AccessType browser SDK at Masthead's stable path (key from data-key or AccessType.init)
import { routes } from "@/server/http/route";
import { accessTypeSdkRoute } from "@/server/http/static-asset";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: accessTypeSdkRoute(
    "The AccessType browser SDK (window.AccessType) at a stable path: the same script as /frontend/v2/accesstype.js; give the account key as ?key=, data-key or AccessType.init({key}).",
  ),
});
