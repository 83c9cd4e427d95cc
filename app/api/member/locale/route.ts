// PUT /api/member/locale – the reader's language for the member pages (saved on the member record when signed in)
import { isSecureRequest, privateJson } from "@/server/http/member-session";
import { apiRoute, routes } from "@/server/http/route";
import { chooseReaderLocale, localeCookie } from "@/server/members/locale-choice";
import { ZMemberLocaleInput } from "@/server/members/locale-choice.schema";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  PUT: apiRoute(
    {
      auth: "member?",
      body: ZMemberLocaleInput,
      rateLimit: { name: "members.locale", limit: 30, windowSeconds: 60, by: "ip" },
      maxBodyBytes: 256,
      summary:
        '{locale: "en"|"hi"|"ta"|"es"|"fr"|"de"|"pt-BR"|"ar" or null} → {locale, saved, offered}: the language of the member pages. Signed in (the member session), it is saved on the member record (mail follows it; `saved: true`); signed in or not, it is kept in the masthead_locale cookie. null follows the browser again. 400 for anything else in the body; 422 for a locale the publication does not offer.',
    },
    async ({ db, req, publisher, member, body }) => {
      const choice = await chooseReaderLocale(db, {
        accountId: publisher.accountId,
        memberId: member?.member.id ?? null,
        locale: body.locale,
      });
      const response = privateJson(choice);
      response.headers.append("Set-Cookie", localeCookie(body.locale, isSecureRequest(req)));
      return response;
    },
  ),
});
