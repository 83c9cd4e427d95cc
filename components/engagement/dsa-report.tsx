"use client";

/**
 * The DSA transparency report (tRPC dsa.report; docs/privacy.md, "Illegal-content notices") for a
 * period of days on the account's clocks, with its CSV and JSON downloads (/api/admin/dsa-transparency).
 * Viewing and downloading are audited.
 */
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";

import { useTRPC } from "@/components/trpc/react";
import { buttonClasses, FormField, Input, LoadState, Panel, Table } from "@/components/ui";

import { dsaLabel } from "./dsa-labels";

function monthStart(): string {
  const now = new Date();
  return `${now.getUTCFullYear()}-${String(now.getUTCMonth() + 1).padStart(2, "0")}-01`;
}

export function DsaReportPanel() {
  const trpc = useTRPC();
  const [from, setFrom] = useState(monthStart);
  const [to, setTo] = useState(() => new Date().toISOString().slice(0, 10));
  const query = useQuery({ ...trpc.dsa.report.queryOptions({ from, to }), enabled: Boolean(from && to) });
  const r = query.data;
  const download = (format: "csv" | "json") =>
    `/api/admin/dsa-transparency?${new URLSearchParams({ from, to, format }).toString()}`;
  const rows = r
    ? [
        { key: "Notices received", value: String(r.notices) },
        { key: "Not decided yet", value: String(r.undecided) },
        ...r.byCategory.map((c) => ({ key: `Category: ${dsaLabel(c.key)}`, value: String(c.count) })),
        ...r.byDecision.map((c) => ({ key: `Decision: ${dsaLabel(c.key)}`, value: String(c.count) })),
        ...r.byGround.map((c) => ({ key: `Ground: ${dsaLabel(c.key)}`, value: String(c.count) })),
        {
          key: "Median hours to decide",
          value: r.hoursToDecide.median === null ? "—" : String(r.hoursToDecide.median),
        },
        {
          key: "90th percentile hours to decide",
          value: r.hoursToDecide.p90 === null ? "—" : String(r.hoursToDecide.p90),
        },
        { key: "Decisions using automated means", value: String(r.automatedDecisions) },
        { key: "Appeals submitted", value: String(r.appeals.submitted) },
        { key: "Appeals upheld", value: String(r.appeals.upheld) },
        { key: "Appeals reversed", value: String(r.appeals.reversed) },
        { key: "Appeals waiting", value: String(r.appeals.pending) },
      ]
    : [];
  return (
    <Panel title="Transparency report" padded data-testid="dsa-report">
      <div className="flex flex-wrap items-end gap-3">
        <FormField label="From">
          <Input type="date" value={from} onChange={(e) => setFrom(e.target.value)} />
        </FormField>
        <FormField label="To">
          <Input type="date" value={to} onChange={(e) => setTo(e.target.value)} />
        </FormField>
        <a href={download("csv")} download className={buttonClasses({ variant: "secondary" })}>
          Download CSV
        </a>
        <a href={download("json")} download className={buttonClasses({ variant: "secondary" })}>
          Download JSON
        </a>
      </div>
      <p className="mt-2 text-sm text-gray-600">
        Notices received in the period (days in {r?.timeZone ?? "the account's time zone"}, both included) and what was
        decided on them; appeals submitted in the period.
      </p>
      <LoadState query={query} what="the report" />
      {r ? (
        <Table
          label="Transparency report"
          rows={rows}
          rowKey={(row) => row.key}
          columns={[
            { header: "Figure", cell: (row) => row.key },
            { header: "Value", cell: (row) => <span data-testid="dsa-figure">{row.value}</span> },
          ]}
        />
      ) : null}
    </Panel>
  );
}
