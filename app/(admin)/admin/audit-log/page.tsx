import type { Metadata } from "next";

import { AuditLogTable } from "@/components/audit/audit-log-table";

import { AdminPage } from "../_lib/admin-page";

export const metadata: Metadata = { title: "Audit log" };

export default function AuditLogPage() {
  return (
    <AdminPage
      area="audit-log"
      title="Audit log"
      description="Who did what in this publication's dashboard: sign-ins and every change, newest first. Entries are never edited or removed."
    >
      <AuditLogTable />
    </AdminPage>
  );
}
