/** An account's surge settings row as settings (surge-settings.schema.ts); no row: the defaults. */
import type { ModerationSurgeSettings } from "../../../generated/prisma/client";
import { SURGE_DEFAULTS, ZShift, type TSurgeSettings } from "./surge-settings.schema";

const ACTION_FROM_DB = { PRE_MODERATION: "pre_moderation", SLOW_MODE: "slow_mode" } as const;

/** A stored row as settings (stored shifts were validated when saved; anything unreadable is left out). */
export function surgeSettingsOf(row: ModerationSurgeSettings | null): TSurgeSettings {
  if (!row) return { ...SURGE_DEFAULTS, shifts: [] };
  const shifts = Array.isArray(row.shifts)
    ? row.shifts.flatMap((shift) => {
        const parsed = ZShift.safeParse(shift);
        return parsed.success ? [parsed.data] : [];
      })
    : [];
  return {
    timeZone: row.timeZone,
    shifts,
    surgeAction: row.surgeAction ? ACTION_FROM_DB[row.surgeAction] : "off",
    surgeSlowModeSeconds: row.surgeSlowModeSeconds,
    surgePendingMin: row.surgePendingMin,
    surgeArrivalRatio: row.surgeArrivalRatio,
    surgeWindowMinutes: row.surgeWindowMinutes,
    surgeCalmMinutes: row.surgeCalmMinutes,
    alertAfterMinutes: row.alertAfterMinutes,
  };
}
