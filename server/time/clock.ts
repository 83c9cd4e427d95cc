/**
 * The one "now" of time-driven domain work (the subscription lifecycle): real time by
 * default; tests (and only tests) set it, so a year of a subscription runs in seconds without
 * sleeping. Jobs read it through their context's `clock` (server/jobs/background.ts passes `now`),
 * so the engine's idea of "due" and the lifecycle's agree.
 *
 *   setClock(new Date("2026-01-01T00:00:00Z"));  // frozen
 *   advanceClock(30 * DAY_MS);                    // a month later
 *   resetClock();                                 // real time again
 */
export const DAY_MS = 86_400_000;

const globalForClock = globalThis as unknown as { mastheadClockOffsetMs?: number; mastheadClockFrozenAt?: number };

/** The current time: real time, or the time a test set. */
export function now(): Date {
  const frozen = globalForClock.mastheadClockFrozenAt;
  if (frozen !== undefined) return new Date(frozen);
  return new Date(Date.now() + (globalForClock.mastheadClockOffsetMs ?? 0));
}

/** Freeze the clock at `at` (tests). */
export function setClock(at: Date): void {
  globalForClock.mastheadClockFrozenAt = at.getTime();
}

/** Move the clock forward by `ms` (frozen: from the frozen time; otherwise an offset to real time). */
export function advanceClock(ms: number): Date {
  if (globalForClock.mastheadClockFrozenAt !== undefined) globalForClock.mastheadClockFrozenAt += ms;
  else globalForClock.mastheadClockOffsetMs = (globalForClock.mastheadClockOffsetMs ?? 0) + ms;
  return now();
}

/** Real time again. */
export function resetClock(): void {
  globalForClock.mastheadClockFrozenAt = undefined;
  globalForClock.mastheadClockOffsetMs = undefined;
}
