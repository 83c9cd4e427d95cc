import type { Metadata } from "next";

import { ExportLink } from "@/components/subscriptions/export-link";
import { InvoiceSellerForm } from "@/components/subscriptions/invoice-seller-form";
import { InvoicesList } from "@/components/subscriptions/invoices-list";

import { AdminPage } from "../../_lib/admin-page";

export const metadata: Metadata = { title: "Invoices" };

export default function InvoicesPage() {
  return (
    <AdminPage
      area="subscriptions"
      actions={<ExportLink kind="invoices" />}
      path="/admin/subscriptions/invoices"
      title="Invoices"
      description="One invoice per captured payment, numbered in sequence: download it as a PDF or open its printable page. The seller they name is set below."
    >
      <div className="space-y-6">
        <InvoicesList />
        <InvoiceSellerForm />
      </div>
    </AdminPage>
  );
}
