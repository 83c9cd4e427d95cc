"use client";

/** The account's import runs, newest first (tRPC imports.runs): the dashboard's and the command line's. */
import { useQuery } from "@tanstack/react-query";

import { useTRPC } from "@/components/trpc/react";
import { Badge, DateTime, Panel, QueryTable, type BadgeTone } from "@/components/ui";
import type { TImportRunView } from "@/server/imports/dashboard/dashboard.schema";

import { formatCount } from "./import-report";

const STATUS_WORD: Record<TImportRunView["status"], string> = {
  running: "Running",
  completed: "Completed",
  interrupted: "Interrupted",
  failed: "Failed",
};

const STATUS_TONE: Record<TImportRunView["status"], BadgeTone> = {
  running: "blue",
  completed: "green",
  interrupted: "amber",
  failed: "red",
};

/** "12 created, 3 skipped, 1 refused" over every kind. */
function countsSummary(run: TImportRunView): string {
  const total = { create: 0, update: 0, skip: 0, refuse: 0 };
  for (const counts of Object.values(run.counts))
    for (const action of Object.keys(total) as (keyof typeof total)[]) total[action] += counts[action];
  const words = [
    [total.create, "created"],
    [total.update, "updated"],
    [total.skip, "skipped"],
    [total.refuse, "refused"],
  ] as const;
  const said = words.filter(([n]) => n > 0).map(([n, word]) => `${formatCount(n)} ${word}`);
  return said.length ? said.join(", ") : "nothing";
}

/** `polling`: an import is under way, its run's progress moves. */
export function ImportRuns({ polling }: { polling: boolean }) {
  const trpc = useTRPC();
  const runs = useQuery({ ...trpc.imports.runs.queryOptions({}), refetchInterval: polling ? 2000 : false });
  const rows = runs.data ?? [];
  return (
    <Panel title="Past runs">
      <QueryTable
        query={runs}
        what="runs"
        emptyText="No import has run yet. Imports run on the server itself are listed here too."
        label="Past runs"
        rows={rows}
        rowKey={(run) => run.id}
        rowProps={() => ({ "data-testid": "import-run" })}
        columns={[
          {
            header: "Started",
            cell: (run) => <DateTime value={run.startedAt} />,
            className: "whitespace-nowrap text-gray-600",
          },
          { header: "Who", cell: (run) => run.actor ?? "Command line" },
          { header: "Source", cell: (run) => run.source },
          { header: "File", cell: (run) => <span className="break-all">{run.fileName}</span> },
          {
            header: "Status",
            cell: (run) => <Badge tone={STATUS_TONE[run.status]}>{STATUS_WORD[run.status]}</Badge>,
          },
          {
            header: "Counts",
            cell: (run) => (
              <span data-testid="import-run-counts">
                {countsSummary(run)}
                {run.problems > 0 ? `; ${formatCount(run.problems)} problems in the file` : ""}
              </span>
            ),
          },
        ]}
      />
    </Panel>
  );
}
