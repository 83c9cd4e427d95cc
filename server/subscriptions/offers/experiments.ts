/**
 * A/B tests of two paywall offers (docs/subscriptions.md "Offers and experiments"). An owner
 * starts one for a segment with a split and a goal; readers of the segment are put in an arm by
 * ./assignment.ts and their first sight is an exposure (./reader-offer.ts); checkout records a
 * subscription started with the exposure (offer_conversions). The result counts, per arm, readers
 * exposed, readers who started a subscription with the test's exposure, and what those
 * subscriptions collected within 30 days of the exposure (captured payments less refunds, cents);
 * the difference B − A with its 95 % interval (./statistics.ts). A test stops when an owner asks,
 * or when the hourly job finds one arm clearly worse; both are one conditional UPDATE (stopping
 * twice is a 409, never two stops) and an audit entry.
 */
import "server-only";

import { recordAudit } from "../../audit/audit-log";
import { systemActor, type Actor } from "../../auth/actor";
import type { Db } from "../../db/client";
import { withTransaction } from "../../db/transaction";
import { AppError } from "../../errors";
import type { Experiment } from "../../generated/prisma/client";
import { defineSweepJob } from "../../jobs/define";
import { parseInput } from "../../validation";
import { segmentOf } from "./offers";
import { ZExperimentInput, type TExperimentInput, type TSegment } from "./offers.schema";
import { clearlyWorseArm, testResult, type ArmFigures, type TestResult } from "./statistics";

type TExperimentView = {
  id: string;
  name: string;
  offerAId: number;
  offerBId: number;
  splitA: number;
  goal: "subscriptions" | "revenue_30d";
  segment: TSegment;
  status: "running" | "stopped";
  startedAt: string;
  stoppedAt: string | null;
  stopReason: string | null;
  stopDetail: unknown;
};

type TExperimentResult = {
  experiment: TExperimentView;
  arms: { arm: "a" | "b"; offerId: number; exposures: number; conversions: number; revenueCents: number }[];
  result: TestResult;
  worseArm: "a" | "b" | null;
};

function experimentView(row: Experiment): TExperimentView {
  return {
    id: row.id,
    name: row.name,
    offerAId: row.offerAId,
    offerBId: row.offerBId,
    splitA: row.splitA,
    goal: row.goal === "revenue_30d" ? "revenue_30d" : "subscriptions",
    segment: segmentOf(row.segment),
    status: row.status === "stopped" ? "stopped" : "running",
    startedAt: row.startedAt.toISOString(),
    stoppedAt: row.stoppedAt?.toISOString() ?? null,
    stopReason: row.stopReason,
    stopDetail: row.stopDetail ?? null,
  };
}

export async function listExperiments(db: Db, args: { actor: Actor }): Promise<TExperimentView[]> {
  const rows = await db.experiment.findMany({
    where: { accountId: args.actor.accountId },
    orderBy: [{ startedAt: "desc" }],
  });
  return rows.map(experimentView);
}

export async function startExperiment(
  db: Db,
  args: { actor: Actor; input: TExperimentInput; now?: Date; ip?: string | null },
): Promise<TExperimentView> {
  const input = parseInput(ZExperimentInput, args.input);
  const accountId = args.actor.accountId;
  const now = args.now ?? new Date();
  return withTransaction(db, async (tx) => {
    for (const [field, id] of [
      ["offerAId", input.offerAId],
      ["offerBId", input.offerBId],
    ] as const) {
      const offer = await tx.offer.findFirst({ where: { id, accountId, archivedAt: null }, select: { id: true } });
      if (!offer)
        throw new AppError("UNPROCESSABLE", `${field} is not an offer of this publisher.`, {
          details: [{ field, issue: "is not an offer of this publisher" }],
        });
    }
    const row = await tx.experiment.create({
      data: {
        accountId,
        name: input.name,
        offerAId: input.offerAId,
        offerBId: input.offerBId,
        splitA: input.splitA,
        goal: input.goal,
        segment: input.segment,
        startedAt: now,
        startedBy: args.actor.kind === "staff" ? args.actor.id : null,
      },
    });
    await recordAudit(tx, {
      actor: args.actor,
      action: "experiment.start",
      targetType: "experiment",
      targetId: row.id,
      metadata: {
        name: input.name,
        offerAId: input.offerAId,
        offerBId: input.offerBId,
        splitA: input.splitA,
        goal: input.goal,
      },
      ip: args.ip,
      now,
    });
    return experimentView(row);
  });
}

type ArmRow = { arm: string; exposures: number; conversions: number; revenue: number; revenue_sq: number };

/** Per arm: readers exposed, readers converted, and the sums of revenue per reader in 30 days. */
async function armFigures(db: Db, experimentId: string): Promise<Map<string, ArmFigures>> {
  const rows = await db.$queryRaw<ArmRow[]>`
    SELECT e.arm, COUNT(*)::int AS exposures, COUNT(c.exposure_id)::int AS conversions,
      COALESCE(SUM(c.revenue), 0)::float8 AS revenue, COALESCE(SUM(c.revenue * c.revenue), 0)::float8 AS revenue_sq
    FROM experiment_exposures e
    LEFT JOIN (
      SELECT oc.exposure_id, COALESCE(SUM(p.amount_cents - p.refunded_cents), 0)::float8 AS revenue
      FROM offer_conversions oc
      JOIN experiment_exposures x ON x.id = oc.exposure_id
      LEFT JOIN payments p ON p.subscription_id = oc.subscription_id
        AND p.status IN ('captured', 'refunded') AND p.created_at < x.created_at + interval '30 days'
      WHERE x.experiment_id = ${experimentId}::uuid
      GROUP BY oc.exposure_id
    ) c ON c.exposure_id = e.id
    WHERE e.experiment_id = ${experimentId}::uuid
    GROUP BY e.arm`;
  return new Map(
    rows.map((r) => [
      r.arm,
      {
        exposures: Number(r.exposures),
        conversions: Number(r.conversions),
        revenue: { n: Number(r.exposures), sum: Number(r.revenue), sumSq: Number(r.revenue_sq) },
      },
    ]),
  );
}

const EMPTY: ArmFigures = { exposures: 0, conversions: 0, revenue: { n: 0, sum: 0, sumSq: 0 } };

async function resultOf(db: Db, row: Experiment): Promise<TExperimentResult> {
  const figures = await armFigures(db, row.id);
  const a = figures.get("a") ?? EMPTY;
  const b = figures.get("b") ?? EMPTY;
  const experiment = experimentView(row);
  const result = testResult(experiment.goal, a, b);
  return {
    experiment,
    arms: [
      {
        arm: "a",
        offerId: row.offerAId,
        exposures: a.exposures,
        conversions: a.conversions,
        revenueCents: a.revenue.sum,
      },
      {
        arm: "b",
        offerId: row.offerBId,
        exposures: b.exposures,
        conversions: b.conversions,
        revenueCents: b.revenue.sum,
      },
    ],
    result,
    worseArm: clearlyWorseArm(result, a, b),
  };
}

export async function experimentResult(db: Db, args: { actor: Actor; id: string }): Promise<TExperimentResult> {
  const row = await db.experiment.findFirst({ where: { id: args.id, accountId: args.actor.accountId } });
  if (!row) throw new AppError("NOT_FOUND", "There is no such test.");
  return resultOf(db, row);
}

/** Stop a running test, keeping its result as it was; a second stop is 409. */
async function stopWith(
  tx: Db,
  row: Experiment,
  args: { actor: Actor; reason: "owner" | "auto"; now: Date; ip?: string | null },
): Promise<TExperimentView> {
  const snapshot = await resultOf(tx, row);
  const detail = { arms: snapshot.arms, result: snapshot.result, worseArm: snapshot.worseArm };
  const { count } = await tx.experiment.updateMany({
    where: { id: row.id, status: "running" },
    data: { status: "stopped", stoppedAt: args.now, stopReason: args.reason, stopDetail: detail },
  });
  if (count === 0) throw new AppError("CONFLICT", "This test has already stopped.");
  await recordAudit(tx, {
    actor: args.actor,
    action: "experiment.stop",
    targetType: "experiment",
    targetId: row.id,
    metadata: {
      reason: args.reason,
      worseArm: snapshot.worseArm,
      diff: snapshot.result.diff,
      ci95: snapshot.result.ci95,
    },
    ip: args.ip,
    now: args.now,
  });
  return experimentView((await tx.experiment.findUnique({ where: { id: row.id } }))!);
}

export async function stopExperiment(
  db: Db,
  args: { actor: Actor; id: string; now?: Date; ip?: string | null },
): Promise<TExperimentView> {
  return withTransaction(db, async (tx) => {
    const row = await tx.experiment.findFirst({ where: { id: args.id, accountId: args.actor.accountId } });
    if (!row) throw new AppError("NOT_FOUND", "There is no such test.");
    if (row.status !== "running") throw new AppError("CONFLICT", "This test has already stopped.");
    return stopWith(tx, row, { actor: args.actor, reason: "owner", now: args.now ?? new Date(), ip: args.ip });
  });
}

/** The hourly check: every running test with one arm clearly worse is stopped. Returns the ids stopped. */
export async function autoStopExperiments(db: Db, args: { now: Date }): Promise<string[]> {
  const running = await db.experiment.findMany({ where: { status: "running" }, orderBy: { startedAt: "asc" } });
  const stopped: string[] = [];
  for (const row of running) {
    const { worseArm } = await resultOf(db, row);
    if (!worseArm) continue;
    const done = await withTransaction(db, async (tx) => {
      const fresh = await tx.experiment.findFirst({ where: { id: row.id, status: "running" } });
      if (!fresh) return false;
      await stopWith(tx, fresh, {
        actor: systemActor(row.accountId, "experiment_auto_stop"),
        reason: "auto",
        now: args.now,
      });
      return true;
    });
    if (done) stopped.push(row.id);
  }
  return stopped;
}

const EXPERIMENT_CHECK_EVERY_MS = 3600_000;

/** "offers.experiments.auto_stop", hourly (server/background/job-list.ts). */
export const experimentAutoStopJob = defineSweepJob({
  name: "offers.experiments.auto_stop",
  everyMs: EXPERIMENT_CHECK_EVERY_MS,
  async run(tx, _job, ctx) {
    await autoStopExperiments(tx, { now: ctx.clock() });
  },
});
