import type { Metadata } from "next";

import { PageHeader } from "@/components/admin/page-header";
import { AuditLogTable } from "@/components/audit/audit-log-table";
import { requireAdmin } from "@/server/auth/next-auth";

import { getArea } from "../_lib/areas";

export const metadata: Metadata = { title: "Audit log" };

const area = getArea("audit-log");

export default async function AuditLogPage() {
  await requireAdmin({ from: area.href, roles: area.roles });
  return (
    <>
      <PageHeader title="Audit log" description="Who did what in this publication's dashboard: sign-ins and every change, newest first. Entries are never edited or removed." />
      <AuditLogTable />
    </>
  );
}
