/**
 * The member endpoints both API flavours serve, each made once here: the content API's
 * (/api/member..., answering {member}) and bridgekeeper's (/api/auth/v1/..., answering {user},
 * ../shared/research/real-clients.md §5). Their route files pick the body key and the summary.
 * Every one is `auth: "publisher"` (the reader is on the publisher's site) or "member".
 */
import { getEnv } from "../../env.js";
import { signUpLocaleOf } from "../i18n/locale-settings";
import {
  OTP_SENT_MESSAGE,
  resetPasswordWithOtp,
  sendOtp,
  sendVerificationLink,
  updateMemberProfile,
  updateWithOtp,
  VERIFICATION_SENT_MESSAGE,
  verifyEmail,
} from "../members/member-account";
import {
  ZResetPasswordWithOtpInput,
  ZSendOtpInput,
  ZSendVerificationLinkInput,
  ZUpdateProfileInput,
  ZUpdateWithOtpInput,
  ZVerifyEmailQuery,
} from "../members/member-account.schema";
import {
  FORGOT_PASSWORD_MESSAGE,
  logInMember,
  logOutMember,
  memberToWire,
  requestPasswordReset,
  resetPasswordWithToken,
  signUpMember,
} from "../members/members";
import {
  ZBridgekeeperResetInput,
  ZForgotPasswordInput,
  ZMemberLoginInput,
  ZMemberSignupInput,
  ZResetPasswordInput,
} from "../members/members.schema";
import { countLiveSessions } from "../members/sessions";
import { logInWithProvider } from "../members/social-login";
import { ZSocialLoginInput, ZSocialLoginParams } from "../members/social-login.schema";
import { assertSignUpNewsletters, joinSignUpNewsletters } from "../newsletters/signup-newsletters";
import { linkReader, type LinkVia } from "../subscriptions/reports/conversion-record";
import { ZReaderIdQuery } from "../subscriptions/reports/conversions.schema";
import { jsonWithMemberSession, loggedOutResponse, privateJson } from "./member-session";
import { apiRoute, type RouteHandler } from "./route";

/** The key the member goes under in the body: {member} (content API) or {user} (bridgekeeper). */
type MemberBodyKey = "member" | "user";

const perIp = (name: string, limit: number) => ({ name, limit, windowSeconds: 60, by: "ip" as const });

/**
 * Sign-up and log-in bodies may name the browser's anonymous reader id (`readerId`, optional):
 * it is linked to the member, so the story whose wall it hit gets the conversion.
 */
async function linkBrowser(
  db: Parameters<typeof linkReader>[0],
  args: { accountId: number; readerId: string | null; memberId: number; via: LinkVia; now: Date },
): Promise<void> {
  if (args.readerId) await linkReader(db, { ...args, readerId: args.readerId });
}

/** POST: sign up; 201 with the member, logged in (X-QT-AUTH and cookies) unless "dont-login". */
export function signUpRoute(key: MemberBodyKey, summary: string): RouteHandler {
  return apiRoute(
    {
      auth: "publisher",
      body: ZMemberSignupInput.and(ZReaderIdQuery),
      cors: true,
      rateLimit: perIp("member.signup", 30),
      summary,
    },
    async ({ req, db, publisher, body }) => {
      const newsletters = body.newsletters ?? [];
      await assertSignUpNewsletters(db, publisher.accountId, newsletters);
      const locale = await signUpLocaleOf(db, publisher.accountId, req);
      const now = new Date();
      const { member, session } = await signUpMember(db, { publisher, input: body, locale, now });
      await joinSignUpNewsletters(db, { accountId: publisher.accountId, member, slugs: newsletters, now });
      const link = { accountId: publisher.accountId, readerId: body.readerId, memberId: member.id, now };
      await linkBrowser(db, { ...link, via: "signup" });
      return jsonWithMemberSession(req, { [key]: memberToWire(member) }, session, { status: 201 });
    },
  );
}

/** POST: log in by e-mail or username; 200 with the member and a new session. */
export function logInRoute(key: MemberBodyKey, summary: string): RouteHandler {
  return apiRoute(
    {
      auth: "publisher",
      body: ZMemberLoginInput.and(ZReaderIdQuery),
      cors: true,
      rateLimit: perIp("member.login", 60),
      summary,
    },
    async ({ req, db, publisher, ip, body }) => {
      const now = new Date();
      const { member, session } = await logInMember(db, { publisher, input: body, ip, now });
      const link = { accountId: publisher.accountId, readerId: body.readerId, memberId: member.id, now };
      await linkBrowser(db, { ...link, via: "login" });
      return jsonWithMemberSession(req, { [key]: memberToWire(member) }, session);
    },
  );
}

/** GET or POST: end the session the request carries and clear the cookies; 204 either way. */
export function logOutRoute(summary: string): RouteHandler {
  return apiRoute({ auth: "member?", cors: true, summary }, async ({ req, db, member }) => {
    if (member) await logOutMember(db, { sessionId: member.sessionId, now: new Date() });
    return loggedOutResponse(req);
  });
}

/** POST {email}: a reset link by e-mail when the e-mail is a member's; the same answer either way. */
export function forgotPasswordRoute(summary: string): RouteHandler {
  return apiRoute(
    {
      auth: "publisher",
      body: ZForgotPasswordInput,
      cors: true,
      rateLimit: perIp("member.forgot-password", 20),
      summary,
    },
    async ({ db, publisher, body }) => {
      await requestPasswordReset(db, { publisher, email: body.email, page: body.page, now: new Date() });
      return privateJson({ message: FORGOT_PASSWORD_MESSAGE });
    },
  );
}

/** A password reset, by e-mailed token or one-time code: signed in or not, 30 a minute per IP address. */
const PASSWORD_RESET = { auth: "member?", cors: true, rateLimit: perIp("member.password-reset", 30) } as const;
const passwordChanged = () => privateJson({ message: "Your password has been changed. Log in with the new password." });

/** POST: a new password with a reset token; the member's other sessions end. */
export function resetPasswordRoute(flavour: "content" | "bridgekeeper", summary: string): RouteHandler {
  return apiRoute(
    { ...PASSWORD_RESET, body: flavour === "content" ? ZResetPasswordInput : ZBridgekeeperResetInput, summary },
    async ({ db, publisher, member, body }) => {
      await resetPasswordWithToken(db, {
        publisher,
        token: body.token,
        password: body.password,
        // A signed-in member resetting keeps the session they are using; every other one ends.
        keepSessionId: member?.sessionId,
        now: new Date(),
      });
      return passwordChanged();
    },
  );
}

/** GET: the signed-in member; bridgekeeper's form adds the live session count and the source. */
export function currentMemberRoute(key: MemberBodyKey, summary: string): RouteHandler {
  return apiRoute({ auth: "member", cors: true, summary }, async ({ db, member }) => {
    const wire = memberToWire(member.member);
    if (key === "member") return privateJson({ member: wire });
    const count = await countLiveSessions(db, { memberId: member.member.id, now: new Date() });
    return privateJson({ user: wire, "active-sessions-count": count, source: member.member.source });
  });
}

/**
 * POST /api/login/<provider>: log in with a social or OpenID Connect token. Answers the member
 * under both keys, since both real clients read it: quintype-ruby `member`, bridgekeeper `user`.
 */
export function socialLoginRoute(summary: string): RouteHandler {
  return apiRoute(
    {
      auth: "publisher",
      params: ZSocialLoginParams,
      body: ZSocialLoginInput.and(ZReaderIdQuery),
      cors: true,
      rateLimit: perIp("member.social-login", 60),
      summary,
    },
    async ({ req, db, publisher, params, body }) => {
      const env = getEnv();
      const { member, session } = await logInWithProvider(db, {
        publisher,
        providerName: params.provider,
        token: body.token,
        nonce: body.nonce,
        setSession: body["set-session"] === true,
        sessionDays: env.MEMBER_SESSION_DAYS,
        allowPrivate: env.SOCIAL_LOGIN_ALLOW_PRIVATE_URLS,
        locale: await signUpLocaleOf(db, publisher.accountId, req),
        now: new Date(),
      });
      const link = { accountId: publisher.accountId, readerId: body.readerId, memberId: member.id };
      await linkBrowser(db, { ...link, via: "social", now: new Date() });
      const wire = memberToWire(member);
      return jsonWithMemberSession(req, { member: wire, user: wire }, session);
    },
  );
}

// ─── bridgekeeper's account calls (server/members/member-account.ts) ────────────────────────

/** POST send-otp: a 6-digit code by e-mail; the same answer whether or not one was sent. */
export function sendOtpRoute(summary: string): RouteHandler {
  return apiRoute(
    { auth: "member?", body: ZSendOtpInput, cors: true, rateLimit: perIp("member.send-otp", 20), summary },
    async ({ db, publisher, member, ip, body }) => {
      await sendOtp(db, { publisher, member: member?.member ?? null, email: body.email, ip, now: new Date() });
      return privateJson({ message: OTP_SENT_MESSAGE });
    },
  );
}

/** POST update-with-otp {otp, user}: change e-mail, phone number or name; answers {user}. */
export function updateWithOtpRoute(summary: string): RouteHandler {
  return apiRoute(
    { auth: "member", body: ZUpdateWithOtpInput, cors: true, rateLimit: perIp("member.update-with-otp", 30), summary },
    async ({ db, member, body }) => {
      const updated = await updateWithOtp(db, { member: member.member, input: body, now: new Date() });
      return privateJson({ user: memberToWire(updated) });
    },
  );
}

/** POST profile: the signed-in member's name, avatar, bio…; answers {user}. */
export function profileRoute(summary: string): RouteHandler {
  return apiRoute(
    { auth: "member", body: ZUpdateProfileInput, cors: true, rateLimit: perIp("member.profile", 60), summary },
    async ({ db, member, body }) => {
      const updated = await updateMemberProfile(db, { member: member.member, input: body });
      return privateJson({ user: memberToWire(updated) });
    },
  );
}

/** POST reset-password {email, otp, "new-password"}: answers {message}; the other sessions end. */
export function resetPasswordWithOtpRoute(summary: string): RouteHandler {
  return apiRoute(
    { ...PASSWORD_RESET, body: ZResetPasswordWithOtpInput, summary },
    async ({ db, publisher, member, body }) => {
      await resetPasswordWithOtp(db, {
        publisher,
        email: body.email,
        otp: body.otp,
        password: body["new-password"],
        keepSessionId: member?.member.email === body.email ? member.sessionId : undefined,
        now: new Date(),
      });
      return passwordChanged();
    },
  );
}

/** POST send-verification-link {email, "redirect-url"}: the same answer whether or not one was sent. */
export function sendVerificationLinkRoute(summary: string): RouteHandler {
  return apiRoute(
    {
      auth: "publisher",
      body: ZSendVerificationLinkInput,
      cors: true,
      rateLimit: perIp("member.send-verification-link", 20),
      summary,
    },
    async ({ db, publisher, ip, body }) => {
      await sendVerificationLink(db, {
        publisher,
        email: body.email,
        redirectUrl: body["redirect-url"],
        ip,
        now: new Date(),
      });
      return privateJson({ message: VERIFICATION_SENT_MESSAGE });
    },
  );
}

/** GET verify-email?token=: marks the e-mail verified; 303 to the redirect given, else {message}. */
export function verifyEmailRoute(summary: string): RouteHandler {
  return apiRoute(
    { auth: "publisher", query: ZVerifyEmailQuery, rateLimit: perIp("member.verify-email", 60), summary },
    async ({ db, publisher, query }) => {
      const { redirectUrl } = await verifyEmail(db, { publisher, token: query.token, now: new Date() });
      if (redirectUrl) {
        return new Response(null, { status: 303, headers: { Location: redirectUrl, "Cache-Control": "no-store" } });
      }
      return privateJson({ message: "Your e-mail address is verified." });
    },
  );
}
