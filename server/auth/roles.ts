/**
 * Dashboard roles and the one rule that checks them. Pure (no I/O), shared by pages, tRPC
 * procedures and the navigation, so they can never disagree about who may open what.
 *
 *   OWNER      everything: users, keys, webhooks, settings, the audit log (and every other area)
 *   EDITOR     content: stories, collections, authors, sections, tags, entities
 *   MODERATOR  engagement: comments and moderation
 *   REVENUE    subscriptions: plans, subscribers, coupons, invoices, campaigns
 *   CONTRIBUTOR stories only: writes and submits their own drafts (server/publishing/editorial/
 *              authorship.ts); cannot approve, publish, schedule or edit others' stories
 */
import type { AdminRole as PrismaAdminRole } from "../generated/prisma/enums";

export const ADMIN_ROLES = ["OWNER", "EDITOR", "MODERATOR", "REVENUE", "CONTRIBUTOR"] as const;
export type AdminRole = (typeof ADMIN_ROLES)[number];

// The list above must name exactly the schema's roles: a role added to prisma/schema/accounts.prisma fails
// the type check here until it is added (and given a meaning) too.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const rolesMatchSchema: Same<AdminRole, PrismaAdminRole> = true;
void rolesMatchSchema;

export const ROLE_LABELS: Record<AdminRole, string> = {
  OWNER: "Owner",
  EDITOR: "Editor",
  MODERATOR: "Moderator",
  REVENUE: "Revenue",
  CONTRIBUTOR: "Contributor",
};

/**
 * True when a user holding `userRoles` may open something that requires one of `required`.
 * OWNER passes every check; an empty or missing `required` means "any admin user".
 */
export function hasAnyRole(userRoles: readonly AdminRole[], required?: readonly AdminRole[]): boolean {
  if (userRoles.includes("OWNER")) return true;
  if (!required || required.length === 0) return true;
  return required.some((role) => userRoles.includes(role));
}
