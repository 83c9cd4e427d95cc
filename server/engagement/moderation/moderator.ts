/** Who may moderate: owners and moderators (the dashboard's engagement area). */
import type { StaffActor } from "../../auth/actor";
import { hasAnyRole } from "../../auth/roles";
import { AppError } from "../../errors";

export function requireModerator(actor: StaffActor): void {
  if (!hasAnyRole(actor.roles, ["MODERATOR"])) {
    throw new AppError("FORBIDDEN", "Only owners and moderators can see or change comment moderation.");
  }
}
