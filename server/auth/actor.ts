/**
 * Who a service acts for. Every service that changes something on someone's behalf takes
 * `actor` in its input (`createStory(db, { actor, input, now })`) and scopes what it reads and
 * writes to `actor.accountId` (another account's row is NOT_FOUND, never FORBIDDEN).
 *
 * - staff: a person signed in to the dashboard, with their roles. Transports check the roles a
 *   call needs (tRPC procedures, apiRoute's "admin" scheme); services trust the actor they get.
 * - system: Masthead itself, for an account (a scheduled publication, a lifecycle job). It has
 *   no user id: audit entries and "changed-by" name it by `name` instead.
 */
import type { AdminRole } from "./roles";

export type StaffActor = {
  kind: "staff";
  id: string;
  accountId: number;
  roles: readonly AdminRole[];
  /** The dashboard session they act through, when there is one (kept when they change their own password). */
  sessionId?: string;
};
type SystemActor = { kind: "system"; accountId: number; /** What acts, e.g. "scheduler". */ name: string };
export type Actor = StaffActor | SystemActor;

export function staffActor(user: {
  id: string;
  accountId: number;
  roles: readonly AdminRole[];
  sessionId?: string;
}): StaffActor {
  return {
    kind: "staff",
    id: user.id,
    accountId: user.accountId,
    roles: user.roles,
    ...(user.sessionId ? { sessionId: user.sessionId } : {}),
  };
}

export function systemActor(accountId: number, name: string): SystemActor {
  return { kind: "system", accountId, name };
}

/** The admin user behind an actor, or null for the system (audit entries, owners of new rows). */
export function actorUserId(actor: Actor): string | null {
  return actor.kind === "staff" ? actor.id : null;
}
