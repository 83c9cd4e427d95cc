import type { Metadata } from "next";

import { ImportPage } from "@/components/imports/import-page";
import { getEnv } from "@/env.js";

import { AdminPage } from "../_lib/admin-page";

export const metadata: Metadata = { title: "Import" };

export default function ImportAdminPage() {
  return (
    <AdminPage
      area="import"
      title="Import"
      description="Bring comments, content and readers from the system you use today: upload its export, read what a dry run would do, then import. A file can be imported again: what is there already is skipped. Every import is in the audit log."
    >
      <ImportPage maxBytes={getEnv().IMPORT_UPLOAD_MAX_BYTES} />
    </AdminPage>
  );
}
