import type { Metadata } from "next";

import { ApiKeysPanel } from "@/components/staff/api-keys-panel";
import { EditorialRulesPanel } from "@/components/staff/editorial-rules-panel";
import { StaffManager } from "@/components/staff/staff-manager";
import { requireAdmin } from "@/server/auth/next-auth";

import { AdminPage } from "../_lib/admin-page";

export const metadata: Metadata = { title: "Users & keys" };

export default async function UsersPage() {
  const { user } = await requireAdmin({ from: "/admin/users", roles: ["OWNER"] });
  return (
    <AdminPage
      area="users"
      title="Users & keys"
      description="Who may use the dashboard, with which roles, and the account's API keys. An account always keeps an active owner. Every change is in the audit log."
    >
      <div className="space-y-6">
        <StaffManager currentUserId={user.id} />
        <EditorialRulesPanel />
        <ApiKeysPanel />
      </div>
    </AdminPage>
  );
}
