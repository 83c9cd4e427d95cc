/**
 * Background work when no Inngest is configured (the embedded default): a small poller in the
 * server process. It is not a second workflow engine: each tick calls the same domain functions
 * the Inngest functions call (processDueDeliveries, sendPendingEmails, purgeWebhookLogs), and all state is in the
 * database, so a process that dies loses nothing: its leases expire and the next tick, here or in
 * another process, picks the work up.
 */
import { randomUUID } from "node:crypto";

import type { Db } from "../db/client";
import { logMail, sendPendingEmails } from "../mail/outbox";
import { processDueDeliveries, purgeWebhookLogs, type Clock } from "../webhooks/deliveries";
import type { Sender } from "../webhooks/transport";

export type LocalRunnerOptions = {
  getDb: () => Promise<Db>;
  send: Sender;
  clock?: Clock;
  allowPrivate: boolean;
  pollIntervalMs: number;
  concurrency: number;
  retentionDays: number;
  log?: (message: string, error?: unknown) => void;
};

const PURGE_EVERY_MS = 3600_000;

export class LocalRunner {
  readonly workerId = `local:${process.pid}:${randomUUID().slice(0, 8)}`;
  private timer: NodeJS.Timeout | undefined;
  private running = false;
  private stopped = true;
  private wakeRequested = false;
  private lastPurge = 0;

  constructor(private readonly options: LocalRunnerOptions) {}

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.schedule(0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    while (this.running) await new Promise((resolve) => setTimeout(resolve, 20));
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

  /** One pass: attempt everything due (in batches until none is left), purge hourly. */
  async tick(): Promise<void> {
    if (this.running) return;
    this.running = true;
    const clock = this.options.clock ?? (() => new Date());
    try {
      const db = await this.options.getDb();
      for (;;) {
        this.wakeRequested = false;
        const { attempted } = await processDueDeliveries(db, {
          workerId: this.workerId,
          clock,
          send: this.options.send,
          allowPrivate: this.options.allowPrivate,
          limit: this.options.concurrency * 4,
          concurrency: this.options.concurrency,
        });
        if (attempted === 0 && !this.wakeRequested) break;
        if (this.stopped) break;
      }
      // Mail whose send right after its commit was lost (a crash, a failing transport) goes out here.
      await sendPendingEmails(db, { now: clock(), log: logMail });
      if (clock().getTime() - this.lastPurge >= PURGE_EVERY_MS) {
        this.lastPurge = clock().getTime();
        await purgeWebhookLogs(db, { now: clock(), retentionDays: this.options.retentionDays });
      }
    } catch (error) {
      this.options.log?.("background work failed; retrying at the next poll", error);
    } finally {
      this.running = false;
      if (!this.stopped) this.schedule(this.wakeRequested ? 0 : this.options.pollIntervalMs);
    }
  }
}
