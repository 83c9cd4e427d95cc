/**
 * Social and OpenID Connect login for members (docs/engagement.md, "Social login"): POST
 * /api/login/<provider> with a token the provider gave the reader's browser.
 *
 * One reader, one member per account: the provider's (account, provider name, subject) is a
 * MemberIdentity row, like the publisher-JWT identities (identities.ts). On first sight:
 * - the member with the same e-mail in the account, when the provider vouches for the address
 *   (email_verified); an unverified claim never links (it would let anyone who can make such a
 *   claim take the account over). If that member had never proved the address, its password and
 *   sessions are ended: someone else may have signed up with the victim's address beforehand
 *   ("pre-account hijacking"); the owner can set a password again through forgot-password;
 * - else a new member: its sign-in e-mail is the verified address, or a reserved placeholder
 *   (`.invalid`) when there is none, the claimed address kept as the communication e-mail.
 * Found, linked or created in one transaction, rerun on a unique clash: two first logins of the
 * same person at once end on one member.
 *
 * Providers are configured per account by its OWNER (dashboard, tRPC loginProviders.*).
 */
import "server-only";

import { ownValue } from "@/server/own-keys";

import { getEnv } from "../../env.js";
import { recordAudit } from "../audit/audit-log";
import type { StaffActor } from "../auth/actor";
import type { Db } from "../db/client";
import { withTransaction } from "../db/transaction";
import { AppError } from "../errors";
import type { LoginProvider } from "../generated/prisma/client";
import type { Publisher } from "../publishing/publisher";
import { webUrlOrNull } from "../web-url";
import { assertPublicUrl } from "../webhooks/url-guard";
import { cut, findOrCreateMemberByIdentity, NO_PASSWORD, placeholderEmail } from "./identities";
import { emitMemberSignup, type MemberRecord } from "./members";
import { createMemberSession, revokeMemberSessions, type MemberSession } from "./sessions";
import {
  WELL_KNOWN_PROVIDERS,
  type TLoginProviderKind,
  type TLoginProviderView,
  type TSaveLoginProviderInput,
} from "./social-login.schema";
import {
  GOOGLE_ISSUER,
  GOOGLE_TOKENINFO_URL,
  verifyProviderToken,
  type ProviderToken,
  type SocialProfile,
} from "./social-tokens";

type SocialLoginResult = { member: MemberRecord; session: MemberSession | null };

/**
 * Log in with `token` from the account's provider `providerName`. NOT_FOUND for a name the
 * account has not configured (UNPROCESSABLE for google, facebook and apple, which merely lack
 * configuration), UNAUTHORIZED for a token that does not hold.
 */
export async function logInWithProvider(
  db: Db,
  args: {
    publisher: Publisher;
    providerName: string;
    token: ProviderToken;
    nonce?: string;
    setSession: boolean;
    sessionDays: number;
    allowPrivate: boolean;
    now: Date;
    /** A new member's locale (server/members/reader-locale.ts signUpLocaleOf). */
    locale?: string | null;
  },
): Promise<SocialLoginResult> {
  const { publisher, now } = args;
  const accountId = publisher.accountId;
  const name = args.providerName.trim().toLowerCase();
  const provider = await db.loginProvider.findUnique({ where: { accountId_name: { accountId, name } } });
  if (!provider || !provider.enabled) {
    if (ownValue(WELL_KNOWN_PROVIDERS, name)) {
      throw new AppError("UNPROCESSABLE", `Login with ${name} is not configured for this publication.`);
    }
    throw new AppError("NOT_FOUND", `No login provider "${name}" on this publication.`);
  }
  const profile = await verifyProviderToken(
    {
      name: provider.name,
      kind: provider.kind as TLoginProviderKind,
      issuer: provider.issuer,
      clientIds: provider.clientIds,
      clientSecret: provider.clientSecret,
      tokeninfoUrl: provider.issuer === GOOGLE_ISSUER ? GOOGLE_TOKENINFO_URL : undefined,
    },
    { token: args.token, nonce: args.nonce, allowPrivate: args.allowPrivate },
  );
  const member = await findOrLinkMember(db, { accountId, provider: provider.name, profile, now, locale: args.locale });
  const session = args.setSession
    ? await createMemberSession(db, { memberId: member.id, now, days: args.sessionDays })
    : null;
  return { member, session };
}

async function findOrLinkMember(
  db: Db,
  args: { accountId: number; provider: string; profile: SocialProfile; now: Date; locale?: string | null },
): Promise<MemberRecord> {
  const { accountId, provider, profile, now } = args;
  const email = cut(profile.email, 254)?.toLowerCase() ?? null;
  const verifiedEmail = profile.emailVerified ? email : null;
  const { member } = await findOrCreateMemberByIdentity(db, {
    key: { accountId, provider, externalId: profile.subject },
    now,
    identityEmail: email,
    create: {
      name: cut(profile.name, 200) ?? "Reader",
      avatarUrl: webUrlOrNull(profile.avatarUrl, { maxLength: 2048 }),
      email: verifiedEmail ?? placeholderEmail(provider),
      emailVerified: Boolean(verifiedEmail),
      communicationEmail: email,
      source: provider,
      locale: args.locale ?? null,
    },
    // The member with the address the provider vouches for.
    otherwise: async (tx) => {
      const existing = verifiedEmail
        ? await tx.member.findUnique({ where: { accountId_email: { accountId, email: verifiedEmail } } })
        : null;
      if (!existing) return null;
      if (existing.emailVerified) return { member: existing, link: true };
      // Whoever set this password never proved owning the address: they lose the account.
      const member = await tx.member.update({
        where: { id: existing.id },
        data: { emailVerified: true, passwordHash: NO_PASSWORD },
      });
      await revokeMemberSessions(tx, { memberId: existing.id, now });
      return { member, link: true };
    },
    then: async (tx, member, how) => {
      if (how === "created") {
        await emitMemberSignup(tx, member, now);
        return;
      }
      // The provider now vouches for the member's own sign-in address.
      if (verifiedEmail && member.email === verifiedEmail && !member.emailVerified) {
        return tx.member.update({ where: { id: member.id }, data: { emailVerified: true } });
      }
    },
  });
  return member;
}

// ─── Configuration (dashboard, OWNER) ────────────────────────────────────────────────────────

function toView(row: LoginProvider): TLoginProviderView {
  return {
    name: row.name,
    kind: row.kind as TLoginProviderKind,
    issuer: row.issuer,
    clientIds: row.clientIds,
    hasClientSecret: Boolean(row.clientSecret),
    enabled: row.enabled,
    updatedAt: row.updatedAt,
  };
}

/** The account's login providers, by name. */
export async function listLoginProviders(db: Db, args: { actor: StaffActor }): Promise<TLoginProviderView[]> {
  const rows = await db.loginProvider.findMany({
    where: { accountId: args.actor.accountId },
    orderBy: { name: "asc" },
  });
  return rows.map(toView);
}

/**
 * Create or replace a provider of the account (by name). A Facebook provider needs the app
 * secret; leaving clientSecret out keeps the stored one. Audited without the secret.
 */
export async function saveLoginProvider(
  db: Db,
  args: {
    actor: StaffActor;
    input: TSaveLoginProviderInput;
    now: Date;
    /** Private and loopback issuers allowed (default: the operator's SOCIAL_LOGIN_ALLOW_PRIVATE_URLS). */
    allowPrivate?: boolean;
  },
): Promise<TLoginProviderView> {
  const { actor, input, now } = args;
  const accountId = actor.accountId;
  // Sign-in calls the issuer from this server: never a loopback or private address unless the
  // operator allows it (SOCIAL_LOGIN_ALLOW_PRIVATE_URLS). A name that does not resolve from here is
  // saved: the sign-in says when the provider cannot be reached.
  await assertPublicUrl(input.issuer, args.allowPrivate ?? getEnv().SOCIAL_LOGIN_ALLOW_PRIVATE_URLS, {
    named: { field: "issuer", what: "The login provider's issuer" },
    unresolved: "allow",
  });
  return withTransaction(
    db,
    async (tx) => {
      const existing = await tx.loginProvider.findUnique({
        where: { accountId_name: { accountId, name: input.name } },
      });
      const clientSecret = input.clientSecret ?? existing?.clientSecret ?? null;
      if (input.kind === "facebook" && !clientSecret) {
        throw new AppError("BAD_REQUEST", "A Facebook login needs the app secret.", {
          details: [{ field: "clientSecret", issue: "is required for Facebook" }],
        });
      }
      const data = {
        kind: input.kind,
        issuer: input.issuer,
        clientIds: input.clientIds,
        clientSecret,
        enabled: input.enabled,
      };
      const row = await tx.loginProvider.upsert({
        where: { accountId_name: { accountId, name: input.name } },
        create: { accountId, name: input.name, ...data, createdAt: now },
        update: data,
      });
      await recordAudit(tx, {
        actor,
        action: existing ? "login-provider.update" : "login-provider.create",
        targetType: "login-provider",
        targetId: input.name,
        metadata: { kind: input.kind, issuer: input.issuer, clientIds: input.clientIds, enabled: input.enabled },
        now,
      });
      return toView(row);
    },
    { retryUniqueClashes: true },
  );
}

/** Remove a provider: its readers' members stay (they can reset a password or use another login). */
export async function deleteLoginProvider(db: Db, args: { actor: StaffActor; name: string; now: Date }) {
  const { actor, name, now } = args;
  await withTransaction(db, async (tx) => {
    const { count } = await tx.loginProvider.deleteMany({ where: { accountId: actor.accountId, name } });
    if (count === 0) throw new AppError("NOT_FOUND", "No such login provider.");
    await recordAudit(tx, {
      actor,
      action: "login-provider.delete",
      targetType: "login-provider",
      targetId: name,
      now,
    });
  });
}
