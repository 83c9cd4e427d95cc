// POST /api/newsletters/subscribe – a reader signs up from a widget or a page (double opt-in)
import { AppError } from "@/server/errors";
import { json } from "@/server/http/respond";
import { apiRoute, routes } from "@/server/http/route";
import { signUpLocaleOf } from "@/server/i18n/locale-settings";
import { publicSubscribe } from "@/server/newsletters/subscriptions";
import { PUBLIC_SUBSCRIBE_MESSAGE, ZPublicSubscribeInput } from "@/server/newsletters/subscriptions.schema";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  POST: apiRoute(
    {
      auth: "public",
      body: ZPublicSubscribeInput,
      cors: true,
      maxBodyBytes: 4_096,
      rateLimit: [
        { name: "newsletters.subscribe", limit: 10, windowSeconds: 60, by: "ip" },
        { name: "newsletters.subscribe.hourly", limit: 60, windowSeconds: 3600, by: "ip" },
      ],
      summary:
        '{account_id, email, newsletters: [slug], name?, locale?} → 202 {message}: a new reader is saved with `locale` (the widget sends its own), else the locale cookie or Accept-Language, when the account offers it and it is not its default, so their mail (the confirmation first) is in it; every named newsletter becomes "pending" with a confirmation mail (at most one an hour per newsletter and address), unless already active. The same answer whether or not the e-mail is known. 404 for an unknown account or a newsletter readers cannot join (archived, or for paying subscribers); 400 for a bad body.',
    },
    async ({ db, req, body }) => {
      const account = await db.account.findUnique({ where: { id: body.account_id }, select: { id: true } });
      if (!account) throw new AppError("NOT_FOUND", "No such account.");
      await publicSubscribe(db, {
        accountId: account.id,
        email: body.email,
        name: body.name,
        slugs: body.newsletters,
        source: "widget",
        locale: await signUpLocaleOf(db, account.id, req, body.locale),
        now: new Date(),
      });
      return json({ message: PUBLIC_SUBSCRIBE_MESSAGE }, { status: 202, headers: { "Cache-Control": "no-store" } });
    },
  ),
});
