/**
 * The DSA transparency report of the account's illegal-content notices (arts. 15 and 24; docs/privacy.md,
 * "Illegal-content notices"), for a period of days on the account's clocks:
 *
 * - notices received in the period, by the notifier's category;
 * - of those, the decided ones by decision (remove, restrict, none) and by ground (legal, terms),
 *   the undecided count, the median and 90th percentile of hours from notice to decision, and how
 *   many decisions used automated means;
 * - appeals submitted in the period, and their outcomes (upheld, reversed, pending).
 *
 * Counts only: no name or address is read, so erasing a reader's data (./erasure.ts) keeps them.
 * Reading it and exporting it (CSV, JSON) are audited.
 */
import "server-only";

import { recordAudit } from "../../audit/audit-log";
import type { StaffActor } from "../../auth/actor";
import type { CsvValue } from "../../csv";
import type { Db } from "../../db/client";
import { parseInput } from "../../validation";
import { requireModerator } from "../moderation/moderator";
import {
  DSA_ACTIONS,
  DSA_GROUNDS,
  DSA_NOTICE_CATEGORIES,
  ZDsaReportInput,
  type TDsaReport,
  type TDsaReportInput,
} from "./dsa.schema";
import { countBy, hoursBetween, median, percentile, periodBounds, twoDecimals } from "./transparency-figures";

/** The report for the period (days both included). `format`: how it is taken, for the audit entry. */
export async function dsaTransparencyReport(
  db: Db,
  args: { actor: StaffActor; input: TDsaReportInput; format: "view" | "csv" | "json"; now: Date },
): Promise<TDsaReport> {
  const { actor } = args;
  requireModerator(actor);
  const input = parseInput(ZDsaReportInput, args.input);
  const account = await db.account.findUniqueOrThrow({ where: { id: actor.accountId }, select: { timeZone: true } });
  const timeZone = account.timeZone || "UTC";
  const { start, end } = periodBounds(input.from, input.to, timeZone);
  const [notices, appeals] = await Promise.all([
    db.dsaNotice.findMany({
      where: { accountId: actor.accountId, createdAt: { gte: start, lt: end } },
      select: { category: true, action: true, ground: true, automated: true, createdAt: true, decidedAt: true },
    }),
    db.dsaAppeal.findMany({
      where: { accountId: actor.accountId, submittedAt: { gte: start, lt: end } },
      select: { outcome: true },
    }),
  ]);
  const decided = notices.filter((n) => n.decidedAt !== null && n.action !== null);
  const hours = decided.map((n) => hoursBetween(n.createdAt, n.decidedAt!));
  const report: TDsaReport = {
    from: input.from,
    to: input.to,
    timeZone,
    notices: notices.length,
    byCategory: countBy(
      notices.map((n) => n.category),
      DSA_NOTICE_CATEGORIES,
    ),
    byDecision: countBy(
      decided.map((n) => n.action!),
      DSA_ACTIONS,
    ),
    byGround: countBy(
      decided.map((n) => n.ground ?? "legal"),
      DSA_GROUNDS,
    ),
    undecided: notices.length - decided.length,
    hoursToDecide: { median: twoDecimals(median(hours)), p90: twoDecimals(percentile(hours, 90)) },
    automatedDecisions: decided.filter((n) => n.automated === true).length,
    appeals: {
      submitted: appeals.length,
      upheld: appeals.filter((a) => a.outcome === "upheld").length,
      reversed: appeals.filter((a) => a.outcome === "reversed").length,
      pending: appeals.filter((a) => a.outcome === null).length,
    },
  };
  await recordAudit(db, {
    actor,
    action: args.format === "view" ? "dsa.report.viewed" : "dsa.report.exported",
    targetType: "dsa_report",
    metadata: { from: input.from, to: input.to, format: args.format },
    now: args.now,
  });
  return report;
}

export const DSA_REPORT_CSV_HEADER = ["section", "key", "value"] as const;

/** The report as CSV rows (section, key, value): one figure a line. */
export function dsaReportRows(report: TDsaReport): CsvValue[][] {
  const rows: CsvValue[][] = [
    ["period", "from", report.from],
    ["period", "to", report.to],
    ["period", "time_zone", report.timeZone],
    ["notices", "total", report.notices],
    ["notices", "undecided", report.undecided],
  ];
  for (const c of report.byCategory) rows.push(["category", c.key, c.count]);
  for (const c of report.byDecision) rows.push(["decision", c.key, c.count]);
  for (const c of report.byGround) rows.push(["ground", c.key, c.count]);
  rows.push(
    ["hours_to_decide", "median", report.hoursToDecide.median],
    ["hours_to_decide", "p90", report.hoursToDecide.p90],
    ["automated", "decisions", report.automatedDecisions],
    ["appeals", "submitted", report.appeals.submitted],
    ["appeals", "upheld", report.appeals.upheld],
    ["appeals", "reversed", report.appeals.reversed],
    ["appeals", "pending", report.appeals.pending],
  );
  return rows;
}
