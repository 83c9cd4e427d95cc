/**
 * Reads asked in the same turn of the event loop, answered by one statement: requests that arrive
 * together (a front page's paywall checks, readers signing in at once) share its round trip and
 * the socket writes it costs, which on a hot path outweigh the statement's own work. A caller
 * waits at most that one turn. Batches are per client and per account (a statement reads one
 * account); `read` answers each item of a batch by its position, and a failure fails the batch.
 */
import type { Db } from "./client";

type Waiting<I, O> = { item: I; resolve: (value: O) => void; reject: (error: unknown) => void };

export function perTurn<I, O>(
  read: (db: Db, accountId: number, items: I[]) => Promise<O[]>,
): (db: Db, accountId: number, item: I) => Promise<O> {
  const waiting = new WeakMap<Db, Map<number, Waiting<I, O>[]>>();
  return (db, accountId, item) =>
    new Promise<O>((resolve, reject) => {
      let byAccount = waiting.get(db);
      if (!byAccount) waiting.set(db, (byAccount = new Map<number, Waiting<I, O>[]>()));
      let queue = byAccount.get(accountId);
      if (!queue) {
        const batch: Waiting<I, O>[] = (queue = []);
        byAccount.set(accountId, batch);
        setImmediate(() => {
          byAccount.delete(accountId);
          read(
            db,
            accountId,
            batch.map((entry) => entry.item),
          ).then(
            (answers) => batch.forEach((entry, n) => entry.resolve(answers[n]!)),
            (error: unknown) => batch.forEach((entry) => entry.reject(error)),
          );
        });
      }
      queue.push({ item, resolve, reject });
    });
}
