/**
 * Background work when no Inngest is configured (the embedded default): a small poller in the
 * server process. It is not a second workflow engine: each pass calls the job engine
 * (./engine.ts) that Inngest's functions call too, and all state is in the database, so a process
 * that dies loses nothing: its leases expire and the next pass, here or in another process,
 * takes the work up. It polls every JOBS_POLL_INTERVAL_MS and is woken at once after each commit
 * that queues a job (./queue.ts).
 *
 * A runner works one pass at a time, so the server runs two: one for the long jobs (an import
 * that takes minutes, JobDefinition.long) and one for everything else, which therefore never
 * waits behind an import.
 */
import type { Db } from "../db/client";
import { log } from "../log";
import type { JobDeps } from "./define";
import { ensureRecurringJobs, newWorkerId, runDueJobs, type JobLane, type JobList } from "./engine";

type LocalRunnerOptions = {
  getDb: () => Promise<Db>;
  /** The jobs it runs (server/background/job-list.ts). */
  jobs: JobList;
  deps: JobDeps;
  pollIntervalMs: number;
  /** Jobs claimed per batch. */
  batchSize?: number;
  /** Which jobs it takes (default: all). */
  lane?: JobLane;
};

/** How often recurring jobs are checked for a pending run (they schedule their own next run). */
const RECURRING_CHECK_MS = 10 * 60_000;

export class LocalRunner {
  readonly workerId = newWorkerId("local");
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = true;
  private wakeRequested = false;
  private lastRecurringCheck = 0;

  constructor(private readonly options: LocalRunnerOptions) {}

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.schedule(0);
  }

  /** Stop polling and wait for the pass under way, if any. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  /** New work was just committed: look now instead of at the next poll. */
  wake(): void {
    if (this.stopped) return;
    if (this.running) {
      this.wakeRequested = true;
      return;
    }
    this.schedule(0);
  }

  private schedule(ms: number) {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.tick(), ms);
    this.timer.unref?.();
  }

  /** One pass: run everything due, in batches, until nothing is left. */
  async tick(): Promise<void> {
    if (this.running) return this.running;
    this.running = this.pass();
    try {
      await this.running;
    } finally {
      this.running = undefined;
      if (!this.stopped) this.schedule(this.wakeRequested ? 0 : this.options.pollIntervalMs);
    }
  }

  private async pass(): Promise<void> {
    const { deps, jobs } = this.options;
    try {
      const db = await this.options.getDb();
      const now = deps.clock().getTime();
      if (this.options.lane !== "long" && now - this.lastRecurringCheck >= RECURRING_CHECK_MS) {
        this.lastRecurringCheck = now;
        await ensureRecurringJobs(db, jobs, deps.clock());
      }
      for (;;) {
        this.wakeRequested = false;
        const { claimed } = await runDueJobs(db, {
          jobs,
          deps,
          workerId: this.workerId,
          limit: this.options.batchSize ?? 64,
          maxBatches: 1,
          lane: this.options.lane,
        });
        if ((claimed === 0 && !this.wakeRequested) || this.stopped) break;
      }
    } catch (error) {
      log.error("background work failed; retrying at the next poll", { error });
    }
  }
}
