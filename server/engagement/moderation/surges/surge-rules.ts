/**
 * Shifts, surges and the queue-age alert as pure rules (docs/engagement.md "Shifts and surges"):
 * given the account's settings, a reading of the queue and the time, what the surge watch
 * (surges.ts) does. No IO, so every rule is tested on its own (surge-rules.test.ts).
 *
 * Vocabulary:
 * - shift: a weekly span of a day in the account's time zone when moderators are on duty; none at
 *   all means always staffed. A shift ending before it starts runs past midnight.
 * - pending: a comment unpublished, undecided and not deleted (the queue's pending tab).
 * - queue surge: a page with at least `surgePendingMin` pending comments, whose arrivals in the
 *   last `surgeWindowMinutes` are at least `surgeArrivalRatio` times the decisions on its comments
 *   in that time (no decision: any arrival). It ends once the page's pending comments have stayed
 *   under `surgePendingMin` for `surgeCalmMinutes`.
 * - off-shift surge: the account's, for every page, from the end of a shift to the start of the
 *   next.
 * - episode (alert): from the moment a pending comment has waited longer than `alertAfterMinutes`
 *   until no pending comment has; one e-mail per episode.
 */
import { ownValue } from "@/server/own-keys";

import type { PageRules } from "../rules/rules";
import type { TShift, TSurgeSettings } from "./surge-settings.schema";

const MINUTE_MS = 60_000;
const WEEKDAY_NUMBER: Record<string, number> = { Mon: 1, Tue: 2, Wed: 3, Thu: 4, Fri: 5, Sat: 6, Sun: 7 };

const formats = new Map<string, Intl.DateTimeFormat>();

function formatIn(timeZone: string): Intl.DateTimeFormat {
  let format = formats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", {
      timeZone,
      weekday: "short",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
    });
    formats.set(timeZone, format);
  }
  return format;
}

/** The weekday (Monday 1 … Sunday 7) and minute of the day (0 … 1439) of `now` on the zone's clocks. */
export function wallClock(now: Date, timeZone: string): { day: number; minute: number } {
  const parts = formatIn(timeZone).formatToParts(now);
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? "";
  const day = ownValue(WEEKDAY_NUMBER, part("weekday")) ?? 1;
  return { day, minute: Number(part("hour")) * 60 + Number(part("minute")) };
}

/** "09:30" → 570; "24:00" → 1440. */
function minutesOf(clock: string): number {
  const [h, m] = clock.split(":");
  return Number(h) * 60 + Number(m);
}

/** Whether a shift covers the zone's weekday and minute (a shift past midnight goes on into the next day). */
function shiftCovers(shift: TShift, at: { day: number; minute: number }): boolean {
  const from = minutesOf(shift.from);
  const to = minutesOf(shift.to);
  if (from < to) return at.day === shift.day && at.minute >= from && at.minute < to;
  const nextDay = (shift.day % 7) + 1;
  return (at.day === shift.day && at.minute >= from) || (at.day === nextDay && at.minute < to);
}

/** Whether moderators are on shift at `now` (no shifts: always). */
export function isOnShift(args: { shifts: readonly TShift[]; timeZone: string; now: Date }): boolean {
  if (args.shifts.length === 0) return true;
  const at = wallClock(args.now, args.timeZone);
  return args.shifts.some((shift) => shiftCovers(shift, at));
}

/** A page's queue over the surge window. */
type QueueReading = {
  /** Pending comments on the page now. */
  pending: number;
  /** Comments created on the page in the window (held or not). */
  arrivals: number;
  /** Moderators' decisions on the page's comments in the window. */
  decisions: number;
};

type SurgeThresholds = Pick<
  TSurgeSettings,
  "surgePendingMin" | "surgeArrivalRatio" | "surgeWindowMinutes" | "surgeCalmMinutes"
>;

/** Comments arrive faster than moderators clear them. */
export function isQueueSurging(reading: QueueReading, settings: SurgeThresholds): boolean {
  return (
    reading.pending >= settings.surgePendingMin &&
    reading.arrivals > 0 &&
    reading.arrivals >= settings.surgeArrivalRatio * reading.decisions
  );
}

export type SurgeStep =
  | { kind: "none" }
  | { kind: "start" }
  /** The queue went under the threshold: the calm starts now. */
  | { kind: "calm" }
  /** The queue went back over the threshold before the calm lasted: it starts over next time. */
  | { kind: "unsettle" }
  | { kind: "end" };

/** What a page's queue surge does now, given the open surge (if any) and its calm. */
export function queueSurgeStep(args: {
  open: { calmSince: Date | null } | null;
  reading: QueueReading;
  settings: SurgeThresholds;
  now: Date;
}): SurgeStep {
  const { open, reading, settings, now } = args;
  if (!open) return isQueueSurging(reading, settings) ? { kind: "start" } : { kind: "none" };
  if (reading.pending >= settings.surgePendingMin) return open.calmSince ? { kind: "unsettle" } : { kind: "none" };
  if (!open.calmSince) return settings.surgeCalmMinutes <= 0 ? { kind: "end" } : { kind: "calm" };
  return now.getTime() - open.calmSince.getTime() >= settings.surgeCalmMinutes * MINUTE_MS
    ? { kind: "end" }
    : { kind: "none" };
}

/** What the account's off-shift surge does now: starts when a shift ends, ends when one starts. */
export function offShiftStep(args: { open: boolean; onShift: boolean }): SurgeStep {
  if (!args.open && !args.onShift) return { kind: "start" };
  if (args.open && args.onShift) return { kind: "end" };
  return { kind: "none" };
}

/** What a surge imposes on a page (and why, for the reason a held comment gets). */
type SurgeRules = {
  action: "pre_moderation" | "slow_mode";
  slowModeSeconds: number;
  reason?: "queue" | "off_shift";
};

const STRICTNESS = { open: 0, pre_moderation: 1, closed: 2 } as const;

/**
 * The rules a new comment meets: the page's own (a moderator's) and its surges', the stricter of
 * each. A surge never opens a closed page nor shortens a page's own slow mode.
 */
export function strictestRules(page: PageRules, surges: readonly SurgeRules[]): PageRules {
  let mode = page.mode;
  let slowModeSeconds = page.slowModeSeconds;
  let heldBySurge: PageRules["heldBySurge"];
  for (const surge of surges) {
    if (surge.action === "pre_moderation" && STRICTNESS.pre_moderation > STRICTNESS[mode]) {
      mode = "pre_moderation";
      heldBySurge = surge.reason;
    }
    if (surge.action === "slow_mode") slowModeSeconds = Math.max(slowModeSeconds, surge.slowModeSeconds);
  }
  // The held comment's reason names the surge only when the page's own rules would not hold it.
  return heldBySurge ? { mode, slowModeSeconds, heldBySurge } : { mode, slowModeSeconds };
}

type AlertStep = { kind: "none" } | { kind: "start" } | { kind: "end" };

/**
 * The queue-age alert: an episode starts when the oldest pending comment has waited longer than
 * `alertAfterMinutes`, and ends once none has (the queue cleared below the age), or the alert was
 * turned off. One e-mail per episode: while it lasts, nothing more is sent.
 */
export function alertStep(args: {
  open: boolean;
  oldestPendingAt: Date | null;
  alertAfterMinutes: number | null;
  now: Date;
}): AlertStep {
  const { open, oldestPendingAt, alertAfterMinutes, now } = args;
  const waitedTooLong =
    alertAfterMinutes !== null &&
    oldestPendingAt !== null &&
    now.getTime() - oldestPendingAt.getTime() > alertAfterMinutes * MINUTE_MS;
  if (waitedTooLong) return open ? { kind: "none" } : { kind: "start" };
  return open ? { kind: "end" } : { kind: "none" };
}

/** A duration in words for moderators' e-mails and the dashboard: "3 h 05 min", "12 min", "40 s". */
export function durationInWords(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000));
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h ${String(minutes % 60).padStart(2, "0")} min`;
  return `${Math.floor(hours / 24)} d ${hours % 24} h`;
}
