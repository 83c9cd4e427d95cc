/**
 * An account's moderation shifts, surge rules and queue-age alert (docs/engagement.md "Shifts and
 * surges"), as the dashboard reads and changes them (owners and moderators). zod only, so a form
 * can import it; the service is surge-settings.ts, the rules surge-rules.ts.
 */
import { z } from "zod";

const SURGE_ACTIONS = ["off", "pre_moderation", "slow_mode"] as const;
export type TSurgeAction = (typeof SURGE_ACTIONS)[number];
const SHIFTS_MAX = 50;
/** Monday 1 … Sunday 7 (ISO). */
export const WEEKDAYS = [1, 2, 3, 4, 5, 6, 7] as const;

const zClock = z
  .string()
  .trim()
  .regex(/^([01]\d|2[0-3]):[0-5]\d$|^24:00$/, "must be a time such as 09:00 (24:00 for midnight at the end)");

/**
 * One weekly shift: from `from` to `to` on `day`, in the account's time zone. A shift whose end is
 * before its start runs past midnight into the next day ("22:00" to "06:00").
 */
export const ZShift = z
  .object({
    day: z.number().int("must be a weekday from 1 (Monday) to 7 (Sunday)").min(1).max(7),
    from: zClock,
    to: zClock,
  })
  .strict()
  .refine((shift) => shift.from !== shift.to, { message: "must end at another time than it starts", path: ["to"] });
export type TShift = z.output<typeof ZShift>;

/** Whether the runtime knows the zone (Intl: the IANA names, "UTC"). */
function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat("en-GB", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

export const ZTimeZone = z
  .string()
  .trim()
  .min(1, "is required")
  .max(64, "must be at most 64 characters")
  .refine(isTimeZone, "must be a time zone such as Europe/Madrid or UTC");

/** What an account has until someone changes it: always staffed, surges off, no alert. */
export const SURGE_DEFAULTS = {
  timeZone: "UTC",
  shifts: [],
  surgeAction: "off",
  surgeSlowModeSeconds: 60,
  surgePendingMin: 20,
  surgeArrivalRatio: 2,
  surgeWindowMinutes: 10,
  surgeCalmMinutes: 10,
  alertAfterMinutes: null,
} as const satisfies TSurgeSettings;

export const ZSurgeSettings = z.object({
  timeZone: ZTimeZone,
  /** The week's shifts (none: always staffed). */
  shifts: z.array(ZShift).max(SHIFTS_MAX, `at most ${SHIFTS_MAX} shifts`),
  /** What a surge, or nobody on shift, does to a page: nothing, hold every comment, or slow mode. */
  surgeAction: z.enum(SURGE_ACTIONS),
  surgeSlowModeSeconds: z.number().int("must be a whole number").min(5, "must be at least 5").max(3600),
  /** A page surges with at least this many pending comments… */
  surgePendingMin: z.number().int("must be a whole number").min(1).max(10_000),
  /** …and at least this many arrivals per decision in the window (decisions 0: any arrival). */
  surgeArrivalRatio: z.number().int("must be a whole number").min(1).max(100),
  surgeWindowMinutes: z.number().int("must be a whole number").min(1).max(120),
  /** The surge ends once the page's pending comments stayed under surgePendingMin this long. */
  surgeCalmMinutes: z.number().int("must be a whole number").min(1).max(240),
  /** One e-mail to subscribed staff when a pending comment has waited longer (null: off). */
  alertAfterMinutes: z.number().int("must be a whole number").min(1).max(10_080).nullable(),
});
export type TSurgeSettings = z.output<typeof ZSurgeSettings>;

/** An update: any of the fields; the others keep their values. */
export const ZUpdateSurgeSettingsInput = ZSurgeSettings.partial().strict();
export type TUpdateSurgeSettingsInput = z.output<typeof ZUpdateSurgeSettingsInput>;

export const ZSurgeSettingsView = ZSurgeSettings.extend({
  updatedAt: z.date().nullable(),
  /** Whether the signed-in staff member receives the queue-age e-mail. */
  alertSubscribed: z.boolean(),
});
export type TSurgeSettingsView = z.output<typeof ZSurgeSettingsView>;

export const ZUpdateSurgeSettingsResult = z.object({
  changed: z.array(z.string()),
  settings: ZSurgeSettingsView,
});

export const ZSetAlertSubscriptionInput = z.object({ subscribed: z.boolean() }).strict();

const SURGE_REASONS = ["queue", "off_shift"] as const;
export type TSurgeReason = (typeof SURGE_REASONS)[number];

/** A surge as moderators see it. */
const ZSurgeRow = z.object({
  id: z.number().int(),
  /** Null: every page of the account (nobody on shift). */
  pageId: z.number().int().nullable(),
  url: z.string().nullable(),
  headline: z.string().nullable(),
  reason: z.enum(SURGE_REASONS),
  action: z.enum(["pre_moderation", "slow_mode"]),
  slowModeSeconds: z.number().int(),
  pendingAtStart: z.number().int(),
  startedAt: z.date(),
  endedAt: z.date().nullable(),
});
export type TSurgeRow = z.output<typeof ZSurgeRow>;

export const ZListSurgesInput = z
  .object({
    /** Ended surges too (the most recent first), up to `limit`. */
    includeEnded: z.boolean().default(false),
    limit: z.number().int().min(1).max(200).default(50),
  })
  .strict();
export type TListSurgesInput = z.input<typeof ZListSurgesInput>;

export const ZSurgeList = z.object({ surges: z.array(ZSurgeRow), onShift: z.boolean(), timeZone: z.string() });
