/**
 * Staff management inputs (server/auth/staff.ts): changing a dashboard user's password or roles,
 * disabling a user. zod only, so the staff forms can import them.
 */
import { z } from "zod";

import { ADMIN_ROLES } from "./roles";

/** A new dashboard password: the same rule as the first owner's (npm run admin:create). */
export const ZAdminPassword = z
  .string()
  .min(12, "must be at least 12 characters")
  .max(200, "must be at most 200 characters");

export const ZChangeAdminPasswordInput = z.object({
  userId: z.uuid("is not a user id"),
  /** Required when users change their own password; an owner resetting someone else's gives none. */
  currentPassword: z.string().max(1024).optional(),
  newPassword: ZAdminPassword,
});
export type TChangeAdminPasswordInput = z.input<typeof ZChangeAdminPasswordInput>;

export const ZSetAdminRolesInput = z.object({
  userId: z.uuid("is not a user id"),
  /** At least one role; duplicates are dropped and the list comes back in ADMIN_ROLES order. */
  roles: z
    .array(z.enum(ADMIN_ROLES))
    .min(1, "give at least one role")
    .max(16)
    .transform((roles) => ADMIN_ROLES.filter((role) => roles.includes(role))),
});
export type TSetAdminRolesInput = z.input<typeof ZSetAdminRolesInput>;

export const ZDisableAdminUserInput = z.object({ userId: z.uuid("is not a user id") });
export type TDisableAdminUserInput = z.input<typeof ZDisableAdminUserInput>;
