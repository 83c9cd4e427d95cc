/**
 * The account's paywall point settings: its default free elements and what the public content
 * API serves of a closed story (docs/subscriptions.md, "Who gets the paid part"). Read by revenue
 * staff, changed by owners. A change is audited (`paywall_point.update`) and announced as a
 * "config-update" content event that purges every kept answer (here and in a CDN in front): a
 * story's free part is cut again at the new point, and a switch to "free_part" leaves no full
 * story kept for the public.
 */
import "server-only";

import { recordAudit } from "../audit/audit-log";
import type { StaffActor } from "../auth/actor";
import { hasAnyRole } from "../auth/roles";
import type { Db } from "../db/client";
import { withTransaction } from "../db/transaction";
import { AppError } from "../errors";
import { parseInput } from "../validation";
import { ZPaywallPointInput, type TPaywallPointInput, type TPaywallPointView } from "./paywall-settings.schema";
import { emitConfigUpdate } from "./settings";

async function load(db: Db, accountId: number): Promise<TPaywallPointInput> {
  const row = await db.account.findUniqueOrThrow({
    where: { id: accountId },
    select: { paywallDefaultElements: true, contentApiAccess: true },
  });
  return {
    paywallDefaultElements: row.paywallDefaultElements,
    contentApiAccess: row.contentApiAccess === "full" ? "full" : "free_part",
  };
}

export async function getPaywallPointSettings(db: Db, args: { actor: StaffActor }): Promise<TPaywallPointView> {
  return { ...(await load(db, args.actor.accountId)), canEdit: hasAnyRole(args.actor.roles, ["OWNER"]) };
}

export async function updatePaywallPointSettings(
  db: Db,
  args: { actor: StaffActor; input: TPaywallPointInput; now?: Date; ip?: string | null },
): Promise<TPaywallPointView> {
  const { actor } = args;
  if (!hasAnyRole(actor.roles, ["OWNER"]))
    throw new AppError("FORBIDDEN", "Only the publication's owners change the paywall point settings.");
  const input = parseInput(ZPaywallPointInput, args.input);
  const now = args.now ?? new Date();
  await withTransaction(db, async (tx) => {
    const before = await load(tx, actor.accountId);
    const changed = (Object.keys(input) as (keyof TPaywallPointInput)[]).filter((key) => input[key] !== before[key]);
    if (changed.length === 0) return;
    await tx.account.update({ where: { id: actor.accountId }, data: input });
    await recordAudit(tx, {
      actor,
      action: "paywall_point.update",
      targetType: "account",
      targetId: actor.accountId,
      metadata: { changed, ...input, previous: before },
      ip: args.ip,
      now,
    });
    await emitConfigUpdate(tx, { actor, changed, purgeAll: true, now });
  });
  return getPaywallPointSettings(db, { actor });
}
