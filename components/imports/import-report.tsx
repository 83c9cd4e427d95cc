/**
 * An import's report (a dry run's or a run's): the counts per kind and action as a table, then the
 * report as the command line prints it (report.ts formatReport: the first lines of each action
 * with their reasons, the file's problems, the notes).
 */
import { Table } from "@/components/ui";
import type { TImportReportView } from "@/server/imports/dashboard/dashboard.schema";

const ACTIONS = ["create", "update", "skip", "refuse"] as const;
type Action = (typeof ACTIONS)[number];

const HEADERS: Record<Action, [string, string]> = {
  create: ["Would create", "Created"],
  update: ["Would update", "Updated"],
  skip: ["Would skip", "Skipped"],
  refuse: ["Would refuse", "Refused"],
};

export const formatCount = (n: number) => n.toLocaleString("en");

/** "13 comments, 5 members and 1 page": what a dry run would create, for the Import button. */
export function createdSummary(report: TImportReportView): string {
  const parts = Object.entries(report.kinds)
    .filter(([, counts]) => counts.create > 0)
    .map(([kind, counts]) => `${formatCount(counts.create)} ${counts.create === 1 ? kind : `${kind}s`}`);
  if (parts.length === 0) return "nothing new";
  return parts.length === 1 ? parts[0]! : `${parts.slice(0, -1).join(", ")} and ${parts.at(-1)!}`;
}

export function ImportReport({ report, title }: { report: TImportReportView; title: string }) {
  const rows = Object.entries(report.kinds).map(([kind, counts]) => ({ kind, ...counts }));
  return (
    <div className="space-y-3" data-testid={report.dryRun ? "dry-run-report" : "import-report"}>
      <h3 className="text-sm font-semibold text-gray-900">{title}</h3>
      <Table
        label={title}
        rows={rows}
        rowKey={(row) => row.kind}
        rowProps={(row) => ({ "data-testid": `report-kind-${row.kind}` })}
        columns={[
          { header: "Kind", cell: (row) => row.kind, className: "font-medium text-gray-900" },
          ...ACTIONS.map((action) => ({
            header: HEADERS[action][report.dryRun ? 0 : 1],
            cell: (row: (typeof rows)[number]) => (
              <span data-testid={`count-${action}`}>{formatCount(row[action])}</span>
            ),
            className: "text-right tabular-nums",
          })),
        ]}
      />
      <details className="rounded-md border border-gray-200 bg-gray-50" open={report.problemCount > 0}>
        <summary className="cursor-pointer rounded px-3 py-2 text-sm font-medium text-gray-800 focus-visible:ring-2 focus-visible:ring-brand-600 focus-visible:outline-none">
          The whole report: each action&apos;s first lines with their reasons, the file&apos;s problems and the notes
        </summary>
        <pre
          tabIndex={0}
          aria-label={`${title}, as the command line prints it`}
          className="max-h-96 overflow-auto border-t border-gray-200 px-3 py-2 font-mono text-xs whitespace-pre-wrap text-gray-800 focus-visible:ring-2 focus-visible:ring-brand-600 focus-visible:outline-none"
          data-testid="report-text"
        >
          {report.text}
        </pre>
      </details>
    </div>
  );
}
