/**
 * The plan mapping on the dashboard's Import page (the command line's `--plans MAPPING.json`):
 * a subscriptions CSV's old plans, or the tiers of a Ghost members file's complimentary members,
 * each matched to one of the account's plans. The dry run lists what the file names (its report's
 * `oldPlans`); the owner picks a plan for each, which is kept with the upload's options and
 * checked by a new dry run before the import can start.
 */
import "server-only";

import { recordAudit } from "../../audit/audit-log";
import type { StaffActor } from "../../auth/actor";
import type { Db } from "../../db/client";
import { withTransaction } from "../../db/transaction";
import { AppError } from "../../errors";
import { periodInWords } from "../../subscriptions/catalogue/catalogue.schema";
import { PLAN_SOURCES } from "../options";
import { ZImportOptions, type TImportOptions } from "./dashboard.schema";
import { uploadView } from "./operations";
import { queueOperation } from "./queue";

/** The account's plans an old plan can become: id and a label saying which. */
export async function listPlanChoices(db: Db, args: { actor: StaffActor }) {
  const plans = await db.subscriptionPlan.findMany({
    where: { accountId: args.actor.accountId, deletedAt: null },
    include: { group: { select: { name: true } } },
    orderBy: [{ groupId: "asc" }, { id: "asc" }],
  });
  return plans.map((p) => ({
    id: p.id,
    label: `${p.title} (${p.group.name}; ${periodInWords(p.durationLength, p.durationUnit.toLowerCase())}${p.recurring ? ", recurring" : ""}; #${p.id})`,
  }));
}

/**
 * Keep `plans` as the upload's plan mapping and queue its dry run again (409 while an operation of
 * the account is under way). 400 for another source, an old plan named twice, or a plan that is not
 * the account's; audited.
 */
export async function setPlanMapping(
  db: Db,
  args: { actor: StaffActor; uploadId: string; plans: NonNullable<TImportOptions["plans"]>; now: Date },
) {
  const { actor, now } = args;
  await withTransaction(db, async (tx) => {
    const upload = await tx.importUpload.findFirst({
      where: { id: args.uploadId, accountId: actor.accountId },
      select: { id: true, accountId: true, source: true, options: true },
    });
    if (!upload) throw new AppError("NOT_FOUND", "No such upload.");
    if (!PLAN_SOURCES.includes(upload.source))
      throw new AppError("BAD_REQUEST", `A ${upload.source} file has no plan mapping.`, {
        details: [{ field: "plans", issue: `is for ${PLAN_SOURCES.join(" and ")} files only` }],
      });
    const seen = new Set<string>();
    for (const choice of args.plans) {
      if (seen.has(choice.old))
        throw new AppError("BAD_REQUEST", `The old plan "${choice.old}" is mapped twice.`, {
          details: [{ field: "plans", issue: `names "${choice.old}" twice` }],
        });
      seen.add(choice.old);
    }
    const ids = [...new Set(args.plans.flatMap((c) => (c.plan === null ? [] : [c.plan])))];
    const found = await tx.subscriptionPlan.findMany({
      where: { id: { in: ids }, accountId: actor.accountId, deletedAt: null },
      select: { id: true },
    });
    const missing = ids.filter((id) => !found.some((p) => p.id === id));
    if (missing.length > 0)
      throw new AppError("BAD_REQUEST", `No plan of this account has the id ${missing.join(", ")}.`, {
        details: missing.map((id) => ({ field: "plans", issue: `plan #${id} is not one of the account's plans` })),
      });
    const before = ZImportOptions.safeParse(upload.options);
    const options: TImportOptions = { ...(before.success ? before.data : { announce: false }), plans: args.plans };
    await tx.importUpload.update({ where: { id: upload.id }, data: { options } });
    await queueOperation(tx, { actor, upload, operation: "dry-run", now });
    await recordAudit(tx, {
      actor,
      action: "import.plans_mapped",
      targetType: "import_upload",
      targetId: upload.id,
      metadata: {
        source: upload.source,
        mapped: args.plans.filter((c) => c.plan !== null).length,
        unmapped: args.plans.filter((c) => c.plan === null).length,
      },
      now,
    });
  });
  return uploadView(db, args.uploadId, actor.accountId, now);
}
