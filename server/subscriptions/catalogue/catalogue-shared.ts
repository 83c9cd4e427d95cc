/** What the catalogue's services share: the audit entry of a change, and account-scoped checks. */
import "server-only";

import { recordAudit } from "../../audit/audit-log";
import type { Actor } from "../../auth/actor";
import type { Db } from "../../db/client";
import { AppError } from "../../errors";
import type { Prisma } from "../../generated/prisma/client";

type CatalogueKind =
  "subscription_group" | "subscription_plan" | "subscription_asset" | "pricing_plan" | "coupon" | "tax_rule";

/** "<kind>.<change>" on the actor's account, in the change's transaction. */
export function auditCatalogue(
  tx: Db,
  args: {
    actor: Actor;
    kind: CatalogueKind;
    change: string;
    targetId: number;
    metadata?: Prisma.InputJsonObject;
    now?: Date;
  },
) {
  return recordAudit(tx, {
    actor: args.actor,
    action: `${args.kind}.${args.change}`,
    targetType: args.kind,
    targetId: args.targetId,
    metadata: args.metadata ?? {},
    now: args.now,
  });
}

export const notFound = (what: string) => new AppError("NOT_FOUND", `${what} not found.`);

/** Every id names an asset of the account (422 naming the field otherwise). */
export async function assertAssetsOfAccount(tx: Db, accountId: number, field: string, ids: readonly number[]) {
  const unique = [...new Set(ids)];
  if (!unique.length) return;
  const found = await tx.subscriptionAsset.count({ where: { accountId, id: { in: unique } } });
  if (found !== unique.length)
    throw new AppError("UNPROCESSABLE", "An asset does not exist.", {
      details: [{ field, issue: "names an unknown asset" }],
    });
}

/** The fields of an update that were sent (undefined means "keep"). */
export function sent<T extends object>(patch: T): Partial<T> {
  return Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)) as Partial<T>;
}

export const toEnum = (value: string) => value.toUpperCase();

/** The audit change of an update: "enable" or "disable" when only `enabled` was sent, else "update". */
export function updateChange(changes: { enabled?: boolean }): "enable" | "disable" | "update" {
  if (Object.keys(changes).length !== 1 || changes.enabled === undefined) return "update";
  return changes.enabled ? "enable" : "disable";
}
