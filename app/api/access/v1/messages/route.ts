// GET /api/access/v1/messages?key=&locale=&lang= – the browser SDK's words in the reader's locale, parsed
import { cachedRead } from "@/server/http/content-cache";
import { apiRoute, routes } from "@/server/http/route";
import { sdkMessages } from "@/server/subscriptions/access/sdk-messages";
import { ZSdkMessagesQuery } from "@/server/subscriptions/access/sdk-messages.schema";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: apiRoute(
    {
      auth: "client",
      query: ZSdkMessagesQuery,
      cors: true,
      summary:
        "The AccessType SDK's messages (its card form, its errors to readers) for the account whose client key is `key`: {locale, dir, messages: {\"sdk.<name>\": ICU syntax tree}}, the paywall catalogue in the locale chosen from `locale` (the page's explicit option), else `lang` (the page's language), else the account's default, among the locales it offers, with the account's overrides in force. A tag no offered locale matches is passed over; one that is not a language tag is 400. Public and cacheable (ETag, Cache-Tag messages, purged when an override or the account's locales change).",
    },
    async ({ db, req, url, account, query }) =>
      cachedRead(req, url, account.id, () => sdkMessages(db, account.id, query)),
  ),
});
