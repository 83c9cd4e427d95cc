/**
 * An import's report (a dry run's or a run's): the counts per kind and action as a table, then the
 * report as the command line prints it (report.ts formatReport: the first lines of each action
 * with their reasons, the file's problems, the notes).
 */
import { Table, TextLink } from "@/components/ui";
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
      <ImportedLinks report={report} />
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

/** The first rows of each action that have a dashboard page (a real run's stories, collections, members), linked. */
function ImportedLinks({ report }: { report: TImportReportView }) {
  const linked = ACTIONS.flatMap((action) =>
    report.lines[action].flatMap((line) => (line.href ? [{ ...line, href: line.href, action }] : [])),
  );
  if (linked.length === 0) return null;
  return (
    <div>
      <h4 className="text-sm font-medium text-gray-800">Open what was imported</h4>
      <ul className="mt-1 space-y-1 text-sm" data-testid="report-links">
        {linked.map((line) => (
          <li key={`${line.action}-${line.kind}-${line.sourceId ?? line.label}`}>
            <span className="text-gray-600">{HEADERS[line.action][1]}</span> {line.kind}{" "}
            <TextLink href={dashboardPath(line.href)}>{line.label}</TextLink>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** The report's absolute link (APP_URL's) as a path on this dashboard, whatever host it is opened on. */
function dashboardPath(href: string): string {
  const url = new URL(href, "http://dashboard.invalid");
  return `${url.pathname}${url.search}`;
}
