/**
 * A clock for integration tests of time-driven work (the subscription lifecycle): a test freezes
 * it and moves it, and gives it to the jobs it runs (`testJobDeps({ clock: now })`), so a year of
 * a subscription runs in seconds without sleeping. Production code never reads it: the app's
 * jobs get real time (server/background/start.ts), and services take `now` from their caller.
 *
 *   setClock(new Date("2026-01-01T00:00:00Z"));  // frozen
 *   resetClock();                                 // real time again
 */
let frozenAt: number | undefined;

/** The current time: real time, or the time a test set. */
export function now(): Date {
  return new Date(frozenAt ?? Date.now());
}

/** Freeze the clock at `at`. */
export function setClock(at: Date): void {
  frozenAt = at.getTime();
}

/** Real time again. */
export function resetClock(): void {
  frozenAt = undefined;
}
