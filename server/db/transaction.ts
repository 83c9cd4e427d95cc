/**
 * The one way to write several things at once, and to say what happened after they committed.
 *
 *   withTransaction(db, async (tx) => {            a service's write
 *     await tx.story.update(…);
 *     await emitWebhookEvent(tx, …);               records outbox rows and, with afterCommit(tx, …),
 *   });                                            wakes the job engine once the commit is done
 *
 * - On the client, it opens a transaction; when that commits, the hooks registered in it with
 *   `afterCommit` run (never before, never after a rollback).
 * - On a transaction client (a caller's transaction), it runs `fn` in that transaction: the
 *   caller's commit is the one that counts, and the hooks wait for it. Prisma's transaction
 *   clients keep a `$transaction` method (for savepoints, which PGlite's adapter refuses), so
 *   "is this a transaction" is told by the client's `$connect`, which only the root client has.
 * - `retryUniqueClashes`: rerun the whole transaction (up to 3 times) when a unique index refused
 *   a row that a concurrent transaction committed between this one's checks and its writes (a
 *   slug generated from a headline, a tag found or created by name). Inside a caller's
 *   transaction there is nothing to rerun: the clash is the caller's.
 *
 * - Once it committed, it waits until this process has heard what the commit announced to caches
 *   (`afterEveryCommit`, set by server/cache/start.ts: the cache layer's ownWritesHeard), so the
 *   caller reads back what it wrote.
 *
 * Lint forbids `$transaction` anywhere else (eslint.config.js), so every write goes through here.
 */
import { log } from "../log";
import type { AppPrismaClient, Db, TransactionClient } from "./client";

type AfterCommitHook = () => void | Promise<void>;

/** Hooks of the transactions this process has open, by their transaction client. */
const pending = new WeakMap<object, AfterCommitHook[]>();

/** Whether `db` is a transaction client rather than the root client. */
export function isTransaction(db: Db): db is TransactionClient {
  return !("$connect" in db);
}

type TransactionOptions = {
  /** Milliseconds the transaction may run (default 20 s; PostgreSQL's locks are held that long at most). */
  timeout?: number;
  retryUniqueClashes?: boolean;
};

const MAX_CLASH_ATTEMPTS = 3;

/** Milliseconds a transaction may run unless its caller says otherwise. */
const DEFAULT_TIMEOUT_MS = 20_000;

/**
 * Milliseconds a transaction may wait for a connection of the pool before it fails. Prisma's
 * default (2 s) failed a burst larger than the pool (DEFAULT_POOL_MAX) as soon as each
 * transaction took a little longer on a busy machine: twenty concurrent payments issuing their
 * invoices twice at once, on two busy cores. A burst waits its turn instead, for at most the
 * time one transaction may run.
 */
const MAX_WAIT_FOR_CONNECTION_MS = DEFAULT_TIMEOUT_MS;

/**
 * What every commit of withTransaction awaits before it returns (server/cache/start.ts sets it).
 * On globalThis: Next.js loads this module once per bundle, and instrumentation sets it for all.
 */
const globalForCommits = globalThis as unknown as { mastheadAfterEveryCommit?: (db: Db) => Promise<void> };

export function afterEveryCommit(wait: ((db: Db) => Promise<void>) | undefined): void {
  globalForCommits.mastheadAfterEveryCommit = wait;
}

/** Run `fn` in a transaction: a new one on the client, or the caller's when `db` is one. */
export async function withTransaction<T>(
  db: Db,
  fn: (tx: TransactionClient) => Promise<T>,
  options: TransactionOptions = {},
): Promise<T> {
  if (isTransaction(db)) return fn(db);
  for (let attempt = 1; ; attempt++) {
    let hooks: AfterCommitHook[] = [];
    try {
      const result = await (db as AppPrismaClient).$transaction(
        async (tx) => {
          hooks = [];
          pending.set(tx, hooks);
          return fn(tx);
        },
        { timeout: options.timeout ?? DEFAULT_TIMEOUT_MS, maxWait: MAX_WAIT_FOR_CONNECTION_MS },
      );
      runHooks(hooks);
      await globalForCommits.mastheadAfterEveryCommit?.(db);
      return result;
    } catch (error) {
      if (!options.retryUniqueClashes || attempt >= MAX_CLASH_ATTEMPTS || !isUniqueClash(error)) throw error;
    }
  }
}

/**
 * Run `hook` once what `db` wrote is committed: after the commit of the transaction `db` belongs
 * to, or at once when `db` is the client (each statement commits on its own). A hook never fails
 * the write: what it does (waking the engine) must be safe to lose, because the rows it points
 * at are in the database and the engine's sweep finds them anyway.
 */
export function afterCommit(db: Db, hook: AfterCommitHook): void {
  if (!isTransaction(db)) {
    runHooks([hook]);
    return;
  }
  const hooks = pending.get(db);
  // A transaction opened without withTransaction: nobody would run the hook after its commit.
  if (!hooks) throw new Error("afterCommit needs a transaction opened with withTransaction (server/db/transaction.ts)");
  hooks.push(hook);
}

function runHooks(hooks: AfterCommitHook[]): void {
  for (const hook of hooks) {
    try {
      void Promise.resolve(hook()).catch((error: unknown) => log.error("an after-commit hook failed", { error }));
    } catch (error) {
      log.error("an after-commit hook failed", { error });
    }
  }
}

/** A unique index refused a row (Prisma P2002). */
export function isUniqueClash(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as { code?: unknown }).code === "P2002";
}
