/** A download of one of the revenue exports (GET /api/admin/exports/<kind>.csv, server/subscriptions/reports/exports.ts). */
import { buttonClasses } from "@/components/ui";
import type { TExportKind } from "@/server/subscriptions/reports/exports.schema";

export function ExportLink({ kind, query = "", label }: { kind: TExportKind; query?: string; label?: string }) {
  return (
    <a
      href={`/api/admin/exports/${kind}.csv${query}`}
      download
      className={buttonClasses({ variant: "secondary", size: "sm" })}
    >
      {label ?? `Download ${kind} (CSV)`}
    </a>
  );
}
