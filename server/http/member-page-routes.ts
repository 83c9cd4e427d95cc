/**
 * The REST endpoints of the reader's own pages on the publisher's site (`/api/member/…`: the
 * account, language, privacy, newsletter and invoice pages, the signed card-update link, the DSA
 * appeal page) and the member's story votes, made here; their route files pick one
 * (`routes({ PUT: MEMBER_PAGES.locale })`). Each is `auth: "member"` (the signed-in reader: the
 * session cookie or X-QT-AUTH), "member?" or "publisher" (a signed link or token is the
 * permission), and answers private JSON (`privateJson`) unless it serves a document or a redirect.
 */
import { dsaAppealView, submitDsaAppeal } from "../engagement/dsa/appeals";
import { ZDsaAppealBody, ZDsaAppealQuery } from "../engagement/dsa/dsa.schema";
import { chooseReaderLocale, localeCookie } from "../members/locale-choice";
import { ZMemberLocaleInput } from "../members/locale-choice.schema";
import { getMemberMetadata, setMemberMetadata } from "../members/members";
import { MEMBER_METADATA_MAX_BYTES, ZMemberMetadataInput } from "../members/members.schema";
import { listMemberNewsletters, setMemberSubscription } from "../newsletters/subscriptions";
import { ZMemberNewsletterPut, ZNewsletterSlugParams } from "../newsletters/subscriptions.schema";
import { ZConfirmErasureBody } from "../privacy/erasure/erasure.schema";
import { confirmErasure } from "../privacy/erasure/reader-request";
import { ZRequestMemberExportBody } from "../privacy/exports/exports.schema";
import { latestMemberExport, requestMemberExport } from "../privacy/exports/requests";
import { ZStoryIdParams } from "../publishing/content.schema";
import { castVote, getStoryVotes } from "../publishing/votes";
import { ZVoteInput } from "../publishing/votes.schema";
import { getCreditNoteOrThrow } from "../subscriptions/invoices/credit-notes";
import { getInvoiceOrThrow } from "../subscriptions/invoices/invoices";
import { ZCreditNoteFileParams, ZInvoiceFileParams } from "../subscriptions/invoices/invoices.schema";
import { cardLinkView, hostedCardPageByLink, updateCardByLink } from "../subscriptions/self-service/card-link-access";
import { ZCardLinkParams, ZPaymentMethodInput } from "../subscriptions/self-service/self-service.schema";
import { creditNoteDocumentResponse, invoiceDocumentResponse, pdfHrefOf } from "./invoice-routes";
import { clearedSessionCookies, isSecureRequest, privateJson } from "./member-session";
import { apiRoute } from "./route";
import { SELF_SERVICE_READ_LIMIT, SELF_SERVICE_WRITE_LIMIT } from "./self-service-routes";

/** A few requests an hour: each one reads everything the reader has and mails them. */
const EXPORT_REQUEST_LIMIT = { name: "privacy.export.request", limit: 5, windowSeconds: 3600, by: "reader" } as const;

/**
 * GET …/invoices/<id>.pdf|.html and …/credit-notes/<id>.pdf|.html of the self-service page: one
 * of the signed-in member's documents, as a PDF attachment or a printable page (404 for another's).
 */
function memberDocumentRoute(kind: "invoice" | "creditNote", summary: string) {
  const options = { auth: "member", produces: "any", rateLimit: SELF_SERVICE_READ_LIMIT, summary } as const;
  if (kind === "invoice") {
    return apiRoute({ ...options, params: ZInvoiceFileParams }, async ({ db, publisher, member, params, url }) => {
      const { id, format } = params.invoice_file;
      const invoice = await getInvoiceOrThrow(db, { reader: readerOf(publisher, member), id });
      return invoiceDocumentResponse(db, invoice, format, pdfHrefOf(url));
    });
  }
  return apiRoute({ ...options, params: ZCreditNoteFileParams }, async ({ db, publisher, member, params, url }) => {
    const { id, format } = params.credit_note_file;
    const note = await getCreditNoteOrThrow(db, { reader: readerOf(publisher, member), id });
    return creditNoteDocumentResponse(db, note, format, pdfHrefOf(url));
  });
}

/** The signed-in member as the reader of their own invoices and credit notes. */
const readerOf = (publisher: { accountId: number }, member: { member: { id: number } }) => ({
  accountId: publisher.accountId,
  via: "subscriber" as const,
  memberId: member.member.id,
});

export const MEMBER_PAGES = {
  dsaAppeal: apiRoute(
    {
      auth: "publisher",
      body: ZDsaAppealBody,
      rateLimit: { name: "engagement.dsa_appeal", limit: 10, windowSeconds: 600, by: "ip" },
      maxBodyBytes: 16_384,
      summary:
        "{token (the appeal link's), text (10 to 2000 characters)} → 201 {appeal: {id, submitted_at}}: the comment's author or the notifier appeals the decision on an illegal-content notice, once, within six months of it. No session: the link's token (stored hashed) is the permission. 404 for a token that is not valid here, 409 when this party appealed already, 410 after six months.",
    },
    async ({ db, publisher, body }) =>
      privateJson(
        await submitDsaAppeal(db, {
          accountId: publisher.accountId,
          token: body.token,
          text: body.text,
          now: new Date(),
        }),
        201,
      ),
  ),
  dsaAppealView: apiRoute(
    {
      auth: "publisher",
      body: ZDsaAppealQuery,
      rateLimit: { name: "engagement.dsa_appeal.view", limit: 60, windowSeconds: 60, by: "ip" },
      maxBodyBytes: 1_024,
      summary:
        "{token} → {party, locale, headline, action, category, ground, ground_reference, facts, decided_at, appeal_until, submitted_at, outcome, can_appeal}: the decision on an illegal-content notice as its appeal link's page shows it. 404 for a token that is not valid here.",
    },
    async ({ db, publisher, body }) =>
      privateJson(await dsaAppealView(db, { accountId: publisher.accountId, token: body.token, now: new Date() })),
  ),
  locale: apiRoute(
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
  confirmDeletion: apiRoute(
    {
      auth: "member?",
      body: ZConfirmErasureBody,
      rateLimit: { name: "member.delete-account.confirm", limit: 20, windowSeconds: 3600, by: "ip" },
      summary:
        "{token} from the mailed link → {id, state, steps_done, last_error}: the account's erasure has started (the 'privacy.erase' job runs it), every session of the member ends and the session cookies are cleared. 422 for an invalid, expired or used token; 403 when another reader is signed in on this browser.",
    },
    async ({ db, req, publisher, member, body }) => {
      const view = await confirmErasure(db, {
        publisher,
        token: body.token,
        sessionMemberId: member?.member.id ?? null,
        now: new Date(),
      });
      const response = privateJson(view);
      for (const cookie of clearedSessionCookies({ secure: isSecureRequest(req) }))
        response.headers.append("Set-Cookie", cookie);
      return response;
    },
  ),
  metadata: apiRoute(
    {
      auth: "member",
      cors: true,
      summary: "The logged-in member's metadata object ({} when none); 401 with an error message when not logged in.",
    },
    async ({ db, member }) => privateJson(await getMemberMetadata(db, { memberId: member.member.id })),
  ),
  setMetadata: apiRoute(
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
  invoiceFile: memberDocumentRoute(
    "invoice",
    "One of the signed-in member's invoices: `<id>.pdf` (application/pdf, an attachment) or `<id>.html` (a printable page), as the client API's members/me/invoices/<id> answers it. Another member's or account's invoice is 404.",
  ),
  creditNoteFile: memberDocumentRoute(
    "creditNote",
    "One of the signed-in member's credit notes (a refund of an invoice): `<id>.pdf` (application/pdf, an attachment) or `<id>.html` (a printable page), as the client API's members/me/credit-notes/<id> answers it. Another member's or account's credit note is 404.",
  ),
  newsletters: apiRoute(
    {
      auth: "member",
      rateLimit: SELF_SERVICE_READ_LIMIT,
      summary:
        "The account's non-archived newsletters the signed-in reader may join (a PAYING one only with a paid plan it names, or while subscribed) → {newsletters: [{slug, name, description, status (none|pending|active|unsubscribed), subscribed}]}. 401 without a member session.",
    },
    async ({ db, publisher, member }) => {
      const list = await listMemberNewsletters(db, {
        accountId: publisher.accountId,
        memberId: member.member.id,
        now: new Date(),
      });
      return privateJson({ newsletters: list.map(({ newsletter: _n, ...view }) => view) });
    },
  ),
  setNewsletter: apiRoute(
    {
      auth: "member",
      params: ZNewsletterSlugParams,
      body: ZMemberNewsletterPut,
      rateLimit: SELF_SERVICE_WRITE_LIMIT,
      maxBodyBytes: 1_024,
      summary:
        '{subscribed: boolean} → {newsletter: {slug, name, description, status, subscribed}}. Joining with a verified e-mail (and an address not suppressed) is "active" at once (consent source "self_service"); otherwise "pending" and a confirmation mail is sent. Leaving records the time and source "self_service". Idempotent. 404 for a newsletter the reader may not see; 401 without a member session.',
    },
    async ({ db, publisher, member, params, body }) =>
      privateJson({
        newsletter: await setMemberSubscription(db, {
          accountId: publisher.accountId,
          member: member.member,
          slug: params.slug,
          subscribed: body.subscribed,
          now: new Date(),
        }),
      }),
  ),
  latestExport: apiRoute(
    {
      auth: "member",
      rateLimit: SELF_SERVICE_READ_LIMIT,
      summary:
        "The signed-in reader's latest own data export → {export: {id, status (pending|ready|expired), requested_at, ready_at, expires_at} | null}. 401 without a member session.",
    },
    async ({ db, publisher, member }) =>
      privateJson({
        export: await latestMemberExport(db, {
          accountId: publisher.accountId,
          memberId: member.member.id,
          now: new Date(),
        }),
      }),
  ),
  requestExport: apiRoute(
    {
      auth: "member",
      body: ZRequestMemberExportBody,
      rateLimit: EXPORT_REQUEST_LIMIT,
      maxBodyBytes: 1_024,
      summary:
        "{locale?} → 202 {export, created}: the signed-in reader asks for everything the publication holds about them. Built in the background and mailed as a link that works for 7 days (docs/privacy.md). While one request is pending, asking again answers it (created: false). 401 without a member session.",
    },
    async ({ db, publisher, member, body }) => {
      const result = await requestMemberExport(db, {
        accountId: publisher.accountId,
        memberId: member.member.id,
        locale: body.locale,
        now: new Date(),
      });
      return privateJson(result, 202);
    },
  ),
  cardLink: apiRoute(
    {
      auth: "publisher",
      params: ZCardLinkParams,
      rateLimit: { ...SELF_SERVICE_READ_LIMIT, by: "ip" },
      summary:
        "The subscription a signed 'update your card' link (the dunning e-mail, the paywall banner) names → {id, plan_name, summary, in_grace_period, payment_type, can_update_payment_method, payment_method_update, expires_at}. No session needed: the link is signed (HMAC), bound to the subscription and the reader, and expires with the grace period. 401 for a forged, altered or expired link.",
    },
    async ({ db, req, publisher, params }) =>
      privateJson(
        await cardLinkView(db, {
          token: params.token,
          accountId: publisher.accountId,
          now: new Date(),
          reader: { cookies: req.headers.get("cookie"), acceptLanguage: req.headers.get("accept-language") },
        }),
      ),
  ),
  updateCardByLink: apiRoute(
    {
      auth: "publisher",
      params: ZCardLinkParams,
      body: ZPaymentMethodInput,
      rateLimit: { ...SELF_SERVICE_WRITE_LIMIT, by: "ip" },
      maxBodyBytes: 4_096,
      summary:
        "{payment_token, signature?} → {subscription_id, label, message}: as PUT /api/member/subscriptions/{id}/payment-method, for the one subscription the signed link names (in grace, the unpaid period is charged again at once). 401 for a forged, altered or expired link; 422 when the gateway refuses the card; 503 when it cannot be reached.",
    },
    async ({ db, publisher, params, body }) => {
      const { payment_token, ...extra } = body;
      return privateJson(
        await updateCardByLink(db, {
          token: params.token,
          accountId: publisher.accountId,
          paymentToken: payment_token,
          extra,
          now: new Date(),
        }),
      );
    },
  ),
  hostedCardPage: apiRoute(
    {
      auth: "publisher",
      params: ZCardLinkParams,
      rateLimit: { ...SELF_SERVICE_READ_LIMIT, by: "ip" },
      summary:
        "303 to the gateway's hosted card page (Razorpay) of the subscription a signed 'update your card' link names. 401 for a forged, altered or expired link; 422 when its gateway has no such page.",
    },
    async ({ db, publisher, params }) => {
      const { url } = await hostedCardPageByLink(db, {
        token: params.token,
        accountId: publisher.accountId,
        now: new Date(),
      });
      return new Response(null, {
        status: 303,
        headers: { location: url, "cache-control": "private, no-store", "referrer-policy": "no-referrer" },
      });
    },
  ),
  vote: apiRoute(
    {
      auth: "member",
      params: ZStoryIdParams,
      body: ZVoteInput,
      cors: true,
      rateLimit: { name: "story.vote", limit: 120, windowSeconds: 60, by: "ip" },
      summary:
        'Vote {magnitude: "1" | "-1"} as the logged-in member: {vote: {story-id, magnitude, member-id}, votes: {total, up, down}}; 401 when not logged in, 404 for an unknown or unpublished story.',
    },
    async ({ db, publisher, member, params, body }) =>
      privateJson(
        await castVote(db, {
          accountId: publisher.accountId,
          storyId: params.storyId,
          memberId: member.member.id,
          magnitude: body.magnitude,
          now: new Date(),
        }),
      ),
  ),
  votes: apiRoute(
    {
      auth: "member",
      params: ZStoryIdParams,
      cors: true,
      summary:
        'The story\'s votes for the logged-in member: {votes: {total, up, down}, "my-vote": 1 | -1 | null}; total is up − down.',
    },
    async ({ db, publisher, member, params }) =>
      privateJson(
        await getStoryVotes(db, {
          accountId: publisher.accountId,
          storyId: params.storyId,
          memberId: member.member.id,
        }),
      ),
  ),
};
