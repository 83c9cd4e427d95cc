/**
 * The mappings of a run: which Masthead row each item of the source became (import_records),
 * with what this run did so far. Read through a bounded cache, so a 200,000-comment file does not
 * ask the database again for the page and the member of every comment, nor keep them all.
 *
 * - `staged`: what the batch in progress recorded; it becomes `committed` when its transaction
 *   commits, and is dropped when it rolls back (nothing of a rolled-back item is remembered).
 * - `committed`: a cache of mappings read or written, at most CACHE_LIMIT, the least recently
 *   used dropped first.
 * - `absent`: what a batch's preload found missing, so its items do not ask again (cleared after
 *   every batch).
 * - `simulated`: a dry run's mappings, as if its plans had been applied (nothing is written).
 *
 * Records are scoped by **site** (the site the source's ids belong to: two WordPress blogs each
 * have a post 42). A run writes its site's records and reads them first; records of the empty site
 * (written before sites were told apart) are read when its site has none for the item, so a run
 * of a file imported before still skips what that run did.
 */
import "server-only";

import type { Db, TransactionClient } from "../db/client";
import { Prisma } from "../generated/prisma/client";
import type { Mapping, RecordManyOptions } from "./types";

const CACHE_LIMIT = 100_000;
/** What a dry run's lookups answer for what it would have created. */
export const DRY_RUN_ID = "(dry run)";

const keyOf = (m: Mapping) => `${m.kind}\u0000${m.sourceId}`;

export class MappingStore {
  private readonly committed = new Map<string, string>();
  private staged = new Map<string, string>();
  private absent = new Set<string>();
  private readonly simulatedKeys = new Set<string>();

  constructor(
    private readonly accountId: number,
    private readonly source: string,
    private readonly site = "",
  ) {}

  /** The sites whose records this run reads: its own, then the empty one. */
  private get sites(): string[] {
    return this.site === "" ? [""] : [this.site, ""];
  }

  /** The Masthead id of `m`, or null. */
  async lookup(db: Db, m: Mapping): Promise<string | null> {
    const key = keyOf(m);
    const staged = this.staged.get(key);
    if (staged !== undefined) return staged;
    const hit = this.committed.get(key);
    if (hit !== undefined) {
      this.committed.delete(key);
      this.committed.set(key, hit);
      return hit;
    }
    if (this.simulatedKeys.has(key)) return DRY_RUN_ID;
    if (this.absent.has(key)) return null;
    // Its own site's record before the empty site's ("" sorts first ascending).
    const row = await db.importRecord.findFirst({
      where: {
        accountId: this.accountId,
        source: this.source,
        kind: m.kind,
        sourceId: m.sourceId,
        site: { in: this.sites },
      },
      orderBy: { site: "desc" },
      select: { targetId: true },
    });
    if (row) this.keep(key, row.targetId);
    return row?.targetId ?? null;
  }

  /** The Masthead id `m` is known to have (committed or staged) without asking the database; null when not known. */
  known(m: Mapping): string | null {
    const key = keyOf(m);
    return this.staged.get(key) ?? this.committed.get(key) ?? null;
  }

  /** Read in one statement the mappings of `sourceIds` of `kind` that are not known yet. */
  async preload(db: Db, kind: string, sourceIds: readonly string[]): Promise<void> {
    const wanted = [...new Set(sourceIds.filter((id) => !this.committed.has(keyOf({ kind, sourceId: id }))))];
    if (wanted.length === 0) return;
    // One index lookup per id (a join on the ids rather than `source_id = ANY(…)`: PostgreSQL's
    // generic plan of the prepared statement scanned every record of the kind with that).
    const rows = await db.$queryRaw<{ source_id: string; target_id: string }[]>(Prisma.sql`
      SELECT r.source_id, r.target_id FROM unnest(${wanted}::text[]) AS w(id)
      JOIN import_records r ON r.account_id = ${this.accountId} AND r.source = ${this.source}
        AND r.kind = ${kind} AND r.source_id = w.id AND r.site = ANY(${this.sites}::text[])
      ORDER BY r.site ASC`);
    const found = new Set<string>();
    // The empty site's rows first, so the run's own site's row is the one kept.
    for (const row of rows) {
      found.add(row.source_id);
      this.keep(keyOf({ kind, sourceId: row.source_id }), row.target_id);
    }
    for (const id of wanted) if (!found.has(id)) this.absent.add(keyOf({ kind, sourceId: id }));
  }

  /** Write the mapping of a created or matched row, in the item's transaction. */
  async record(
    tx: TransactionClient,
    row: Mapping & {
      targetId: string | number;
      created: boolean;
      sourceParentId?: string | null;
      runId: string | null;
    },
  ): Promise<void> {
    const targetId = String(row.targetId);
    await tx.importRecord.create({
      data: {
        accountId: this.accountId,
        source: this.source,
        kind: row.kind,
        sourceId: row.sourceId,
        site: this.site,
        targetId,
        created: row.created,
        sourceParentId: row.sourceParentId ?? null,
        runId: row.runId,
      },
    });
    this.staged.set(keyOf(row), targetId);
  }

  /**
   * Write the mappings of many rows in one statement (a batch's comments, a story's thread keys).
   * `skipDuplicates`: a mapping the run's site already has is left as it is (a second run, or two
   * items naming one key: the first keeps it); those rows are not cached, as which row holds the
   * key is not known without asking.
   */
  async recordMany(
    tx: TransactionClient,
    rows: (Mapping & { targetId: string | number; created: boolean; sourceParentId?: string | null })[],
    runId: string | null,
    options: RecordManyOptions = {},
  ): Promise<void> {
    if (rows.length === 0) return;
    await tx.importRecord.createMany({
      skipDuplicates: options.skipDuplicates === true,
      data: rows.map((row) => ({
        accountId: this.accountId,
        source: this.source,
        kind: row.kind,
        sourceId: row.sourceId,
        site: this.site,
        targetId: String(row.targetId),
        created: row.created,
        sourceParentId: row.sourceParentId ?? null,
        runId,
      })),
    });
    if (options.skipDuplicates) return;
    for (const row of rows) this.staged.set(keyOf(row), String(row.targetId));
  }

  /** A dry run's plan would have created `m`. */
  simulate(m: Mapping): void {
    this.simulatedKeys.add(keyOf(m));
  }

  simulated(m: Mapping): boolean {
    return this.simulatedKeys.has(keyOf(m));
  }

  /** The batch committed: what it recorded is known from now on. */
  commit(): void {
    for (const [key, id] of this.staged) this.keep(key, id);
    this.staged = new Map();
    this.absent = new Set();
  }

  /** The batch rolled back: nothing it recorded exists. */
  rollback(): void {
    this.staged = new Map();
    this.absent = new Set();
  }

  private keep(key: string, id: string): void {
    this.committed.delete(key);
    this.committed.set(key, id);
    this.absent.delete(key);
    if (this.committed.size > CACHE_LIMIT) this.committed.delete(this.committed.keys().next().value!);
  }
}
