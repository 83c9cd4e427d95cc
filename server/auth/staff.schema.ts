/**
 * Staff management inputs (server/auth/staff.ts): changing a dashboard user's password or roles,
 * disabling a user. zod only, so the staff forms can import them.
 */
import { z } from "zod";

import { ADMIN_ROLES } from "./roles";

// The staff forms (components/) read the roles from here: components import only schema files.
export { ADMIN_ROLES, ROLE_LABELS, type AdminRole } from "./roles";

/** A new dashboard password: the same rule as the first owner's (npm run admin:create). */
const ZAdminPassword = z.string().min(12, "must be at least 12 characters").max(200, "must be at most 200 characters");

export const ZChangeAdminPasswordInput = z.object({
  userId: z.uuid("is not a user id"),
  /** Required when users change their own password; an owner resetting someone else's gives none. */
  currentPassword: z.string().max(1024).optional(),
  newPassword: ZAdminPassword,
});
export type TChangeAdminPasswordInput = z.input<typeof ZChangeAdminPasswordInput>;

/**
 * Roles that contradict each other: a contributor "cannot publish", which an editor or owner
 * can (roles.ts), so Contributor goes alone or with Moderator or Revenue.
 */
const CONTRADICTING_ROLES =
  "Contributor cannot be combined with Editor or Owner: a contributor cannot publish, an editor or owner can";

/**
 * At least one role; duplicates are dropped and the list comes back in ADMIN_ROLES order;
 * Contributor together with Editor or Owner is refused.
 */
const ZRoles = z
  .array(z.enum(ADMIN_ROLES))
  .min(1, "give at least one role")
  .max(16)
  .refine((roles) => !(roles.includes("CONTRIBUTOR") && (roles.includes("EDITOR") || roles.includes("OWNER"))), {
    message: CONTRADICTING_ROLES,
  })
  .transform((roles) => ADMIN_ROLES.filter((role) => roles.includes(role)));

export const ZSetAdminRolesInput = z.object({
  userId: z.uuid("is not a user id"),
  /** At least one role; duplicates are dropped and the list comes back in ADMIN_ROLES order. */
  roles: ZRoles,
});
export type TSetAdminRolesInput = z.input<typeof ZSetAdminRolesInput>;

export const ZDisableAdminUserInput = z.object({ userId: z.uuid("is not a user id") });
export type TDisableAdminUserInput = z.input<typeof ZDisableAdminUserInput>;

export const ZEnableAdminUserInput = z.object({ userId: z.uuid("is not a user id") });
export type TEnableAdminUserInput = z.input<typeof ZEnableAdminUserInput>;

/** A dashboard e-mail: trimmed and lower-cased, as stored (sign-in compares it so). */
const ZAdminEmail = z
  .string()
  .trim()
  .toLowerCase()
  .min(1, "is required")
  .max(254, "must be at most 254 characters")
  .pipe(z.email("is not an e-mail address"));

/**
 * Add a dashboard user (owners only). Without a password they get an invitation e-mail with a
 * link to choose one (valid INVITE_TTL); with one, they can sign in at once.
 */
export const ZCreateAdminUserInput = z.object({
  name: z.string().trim().min(1, "is required").max(200, "must be at most 200 characters"),
  email: ZAdminEmail,
  roles: ZRoles,
  /** Empty or missing: send an invitation instead. */
  password: z
    .union([z.literal(""), ZAdminPassword])
    .optional()
    .transform((value) => value || undefined),
});
export type TCreateAdminUserInput = z.input<typeof ZCreateAdminUserInput>;

/** An owner sends someone a password reset e-mail. */
export const ZSendAdminPasswordResetInput = z.object({ userId: z.uuid("is not a user id") });
export type TSendAdminPasswordResetInput = z.input<typeof ZSendAdminPasswordResetInput>;

/** "Forgot password?" on the sign-in page. Malformed e-mails get the same answer as unknown ones. */
export const ZAdminForgotPasswordInput = z.object({ email: z.string().trim().toLowerCase().min(1).max(320) });
export type TAdminForgotPasswordInput = z.input<typeof ZAdminForgotPasswordInput>;

/** The dashboard's reset page: the token from the link and the new password (typed twice by the form). */
export const ZAdminResetPasswordInput = z.object({
  token: z.string().trim().min(1, "is required").max(200, "is not a reset token"),
  password: ZAdminPassword,
});
export type TAdminResetPasswordInput = z.input<typeof ZAdminResetPasswordInput>;

/** One dashboard user as the Users page lists them. */
export const ZStaffMemberView = z.object({
  id: z.uuid(),
  name: z.string(),
  email: z.string(),
  roles: z.array(z.enum(ADMIN_ROLES)),
  disabledAt: z.date().nullable(),
  lastLoginAt: z.date().nullable(),
  createdAt: z.date(),
  /** Invited and not yet signed in or set a password through the invitation. */
  invitePending: z.boolean(),
});
export type TStaffMemberView = z.infer<typeof ZStaffMemberView>;

export const ZStaffChangeResult = z.object({
  userId: z.uuid(),
  changed: z.boolean(),
  revokedSessions: z.number().int(),
});

/** The answer to "forgot password": the same whatever the e-mail. */
export const ADMIN_FORGOT_PASSWORD_MESSAGE =
  "If this e-mail belongs to a dashboard user, we have sent a link to choose a new password. It is valid for one hour.";
export const ADMIN_BAD_RESET_TOKEN_MESSAGE =
  "This link is invalid, expired or already used. Ask for a new one from the sign-in page.";
