/**
 * The dashboard's "Paywall meter" (REVENUE; OWNER passes): read and save an account's meter
 * settings, the registration wall's with them. A save is audited (`meter_settings.update`); the cached settings are dropped on every
 * instance when it commits (the database announces it: topic "meter"), so the next access check
 * uses them.
 */
import "server-only";

import { recordAudit } from "../../audit/audit-log";
import type { Actor } from "../../auth/actor";
import type { Db } from "../../db/client";
import { withTransaction } from "../../db/transaction";
import type { DurationUnit } from "../../generated/prisma/enums";
import { parseInput } from "../../validation";
import { ZMeterSettingsInput, type TMeterSettingsInput, type TMeterSettingsView } from "./access.schema";

const UNIT_TO_DB: Record<TMeterSettingsInput["periodUnit"], DurationUnit> = {
  days: "DAYS",
  weeks: "WEEKS",
  months: "MONTHS",
  years: "YEARS",
};

function unitFromDb(unit: DurationUnit): TMeterSettingsInput["periodUnit"] {
  return unit === "DAYS" ? "days" : unit === "WEEKS" ? "weeks" : unit === "YEARS" ? "years" : "months";
}

/** What the form shows before anything is saved (metering stays off until a save). */
const DEFAULTS: TMeterSettingsInput = {
  enabled: true,
  freeStories: 3,
  periodLength: 1,
  periodUnit: "months",
  meterAnonymous: true,
  registrationWall: false,
  registrationFreeStories: 3,
};

export async function getMeterSettings(db: Db, args: { actor: Actor }): Promise<TMeterSettingsView> {
  const row = await db.meterSettings.findUnique({ where: { accountId: args.actor.accountId } });
  if (!row) return { ...DEFAULTS, configured: false, updatedAt: null };
  return {
    enabled: row.enabled,
    freeStories: row.freeStories,
    periodLength: row.periodLength,
    periodUnit: unitFromDb(row.periodUnit),
    meterAnonymous: row.meterAnonymous,
    registrationWall: row.registrationWall,
    registrationFreeStories: row.registrationFreeStories,
    configured: true,
    updatedAt: row.updatedAt.toISOString(),
  };
}

export async function updateMeterSettings(
  db: Db,
  args: { actor: Actor; input: TMeterSettingsInput; now?: Date; ip?: string | null },
): Promise<TMeterSettingsView> {
  const input = parseInput(ZMeterSettingsInput, args.input);
  const accountId = args.actor.accountId;
  await withTransaction(db, async (tx) => {
    const before = await tx.meterSettings.findUnique({ where: { accountId } });
    const data = { ...input, periodUnit: UNIT_TO_DB[input.periodUnit] };
    await tx.meterSettings.upsert({ where: { accountId }, create: { accountId, ...data }, update: data });
    await recordAudit(tx, {
      actor: args.actor,
      action: "meter_settings.update",
      targetType: "meter_settings",
      targetId: accountId,
      metadata: {
        ...input,
        previous: before
          ? {
              enabled: before.enabled,
              freeStories: before.freeStories,
              periodLength: before.periodLength,
              periodUnit: unitFromDb(before.periodUnit),
              meterAnonymous: before.meterAnonymous,
              registrationWall: before.registrationWall,
              registrationFreeStories: before.registrationFreeStories,
            }
          : null,
      },
      ip: args.ip,
      now: args.now,
    });
  });
  return getMeterSettings(db, { actor: args.actor });
}
