/**
 * For API routes (apiRoute's "admin" scheme, server/http/route.ts): the signed-in staff member
 * holding one of `roles`, or UNAUTHORIZED (signed out) / FORBIDDEN (roles) as JSON errors, where
 * dashboard pages redirect instead (requireAdmin in ./next-auth.ts).
 */
import { AppError } from "../errors";
import { staffActor, type StaffActor } from "./actor";
import { getAdminSession } from "./next-auth";
import { hasAnyRole, type AdminRole } from "./roles";

export async function requireAdminActor(roles: readonly AdminRole[]): Promise<StaffActor> {
  const session = await getAdminSession();
  if (!session) throw new AppError("UNAUTHORIZED", "Sign in to the dashboard first.");
  if (!hasAnyRole(session.user.roles, roles)) throw new AppError("FORBIDDEN", "Your roles do not allow this.");
  return staffActor(session.user);
}
