/**
 * The importer conformance suite (docs/migration.md "Run it again whenever you like"): the contract every import source keeps, run
 * by one describe block per source, next to its own field-by-field tests. Like the payment kit
 * (./payment-conformance/conformance.ts), it checks the promises every source makes:
 *
 *   dry run    a dry run changes no table and plans what the real run does: the same counts,
 *              refusals, creations and skips
 *   again      run a second time, an import changes no table but its own bookkeeping (its run row
 *              and two audit entries), leaves what it made as it was, and creates or updates
 *              nothing (the source's own counts of the second run are checked as given)
 *   resume     a run killed mid-way (after a number of items, as a kill would) and run again ends
 *              as an uninterrupted run does
 *
 * Usage, from a `*.int.test.ts`:
 *
 *   describeImportConformance("coral", { file: "coral-sample", account: (db) => …, again: {…}, resume: {…} });
 */
import { describe, expect, it } from "vitest";

import { getDb } from "../db";
import type { Db } from "../db/client";
import type { ImportReport } from "../imports/report";
import type { RunImportArgs } from "../imports/runner";
import type { IMPORT_SOURCES } from "../imports/sources";
import {
  expectDryRunPlansTheRun,
  expectResumedLikeWhole,
  expectRunAgainChangesNothing,
  importAccount,
} from "./imports";

type Counts = { create: number; update: number; skip: number; refuse: number };

type ImportConformance = {
  /** The fixture (or folder) imported, in server/imports/fixtures. */
  file: string;
  /** The account the dry-run and second-run checks import into, as the source's own tests make it. */
  account: (db: Db) => Promise<{ id: number }>;
  /** The two accounts of the resume check (default: plain import accounts by these slugs). */
  resumeAccount?: (db: Db, slug: "whole" | "killed") => Promise<{ id: number }>;
  /** Options of every run (a clock, a batch size…). */
  over?: Partial<RunImportArgs>;
  /** What the import made, compared between runs (default: records and comments by source id). */
  snapshot?: (db: Db, accountId: number) => Promise<unknown>;
  /** The second run's counts, by kind: every item skipped or refused again. */
  again: Record<string, Counts>;
  /** More the source checks of its second run's report. */
  afterAgain?: (again: ImportReport) => void;
  /** Where runs are killed (items applied), and the batch size they run with. */
  resume: { stopAts: number[]; batchSize: number };
  /** More the source checks once the killed run was resumed. */
  afterResume?: (db: Db, killed: { id: number }) => Promise<void>;
};

export function describeImportConformance(source: keyof typeof IMPORT_SOURCES, spec: ImportConformance): void {
  const { file, over = {}, snapshot } = spec;
  describe(`the import contract (${source})`, () => {
    it("plans in a dry run what a run does, changing nothing", async () => {
      const db = await getDb();
      const account = await spec.account(db);
      const { dry, real } = await expectDryRunPlansTheRun(db, { accountId: account.id, source, file, over });
      // A dry run makes no rows, so the ids a reason names (`under comment #12`) read `#(dry run)`.
      const withoutIds = (reason: string) => reason.replace(/#(?:\d+|\(dry run\))/g, "#…");
      expect(dry.lines.create.map((l) => withoutIds(l.reason))).toEqual(
        real.lines.create.map((l) => withoutIds(l.reason)),
      );
      expect(dry.lines.skip.map((l) => l.sourceId)).toEqual(real.lines.skip.map((l) => l.sourceId));
    });

    it("changes nothing when run again", async () => {
      const db = await getDb();
      const account = await spec.account(db);
      const again = await expectRunAgainChangesNothing(db, {
        accountId: account.id,
        source,
        file,
        over,
        ...(snapshot ? { snapshot } : {}),
      });
      for (const [kind, counts] of Object.entries(spec.again)) expect(again.kinds[kind]).toEqual(counts);
      spec.afterAgain?.(again);
    });

    it("resumes a run killed mid-way and ends as an uninterrupted run does", async () => {
      const db = await getDb();
      const make = spec.resumeAccount ?? ((d: Db, slug: string) => importAccount(d, slug));
      const whole = await make(db, "whole");
      const killed = await make(db, "killed");
      await expectResumedLikeWhole(db, {
        source,
        file,
        whole,
        killed,
        stopAts: spec.resume.stopAts,
        over: { ...over, batchSize: spec.resume.batchSize },
        ...(snapshot ? { snapshot } : {}),
      });
      await spec.afterResume?.(db, killed);
    });
  });
}
