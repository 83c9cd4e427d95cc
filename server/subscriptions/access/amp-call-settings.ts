/**
 * The owner's setting "AMP paywall calls" (Settings): whether AMP's paywall endpoints answer
 * calls without X-SUBAUTH (./amp-calls.ts). Off by default; each change is audited.
 */
import "server-only";

import { z } from "zod";

import { recordAudit } from "../../audit/audit-log";
import type { Actor } from "../../auth/actor";
import type { Db } from "../../db/client";
import { withTransaction } from "../../db/transaction";
import { AppError } from "../../errors";
import { parseInput } from "../../validation";

export const ZAmpCallSettings = z.strictObject({
  /** AMP's calls may come without X-SUBAUTH, with the client key alone. */
  ampDirectCalls: z.boolean(),
});
type TAmpCallSettings = z.infer<typeof ZAmpCallSettings>;

/** The account's AMP call setting (owners). */
export async function getAmpCallSettings(db: Db, args: { actor: Actor }): Promise<TAmpCallSettings> {
  const row = await db.account.findUnique({ where: { id: args.actor.accountId }, select: { ampDirectCalls: true } });
  if (!row) throw new AppError("NOT_FOUND", "Account not found.");
  return row;
}

/** Allow or refuse direct AMP calls (owners; audited as account.amp-calls when it changes). */
export async function setAmpCallSettings(
  db: Db,
  args: { actor: Actor; input: TAmpCallSettings; now: Date },
): Promise<TAmpCallSettings> {
  const input = parseInput(ZAmpCallSettings, args.input);
  const { actor, now } = args;
  return withTransaction(db, async (tx) => {
    const before = await tx.account.findUnique({ where: { id: actor.accountId }, select: { ampDirectCalls: true } });
    if (!before) throw new AppError("NOT_FOUND", "Account not found.");
    if (before.ampDirectCalls === input.ampDirectCalls) return before;
    const after = await tx.account.update({
      where: { id: actor.accountId },
      data: { ampDirectCalls: input.ampDirectCalls },
      select: { ampDirectCalls: true },
    });
    await recordAudit(tx, {
      actor,
      action: "account.amp-calls",
      targetType: "account",
      targetId: String(actor.accountId),
      metadata: { ampDirectCalls: after.ampDirectCalls },
      now,
    });
    return after;
  });
}
