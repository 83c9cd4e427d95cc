"use client";

/**
 * "Seller on invoices" (invoices.seller, invoices.updateSeller; REVENUE staff, owners): the legal
 * name, postal address and tax id every invoice issued from now on names. Issued invoices keep the
 * seller they were issued with. Checked with the server's zod schema before sending.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";

import { useTRPC } from "@/components/trpc/react";
import {
  Alert,
  Button,
  ErrorAlert,
  FormActions,
  FormField,
  Input,
  LoadState,
  Panel,
  Textarea,
  useSettingsDraft,
} from "@/components/ui";
import {
  ZInvoiceSellerInput,
  type TInvoiceSellerInput,
  type TInvoiceSellerView,
} from "@/server/subscriptions/invoices/invoices.schema";

const FIELDS = ["legalName", "address", "taxId"] as const;

export function InvoiceSellerForm() {
  const trpc = useTRPC();
  const query = useQuery(trpc.invoices.seller.queryOptions());
  // Kept here: a save refetches the seller and remounts the editor (its key is updatedAt).
  const [saved, setSaved] = useState(false);
  return (
    <>
      <LoadState query={query} what="seller on invoices" />
      {query.data ? (
        <Editor key={query.data.updatedAt ?? "new"} view={query.data} saved={saved} setSaved={setSaved} />
      ) : null}
    </>
  );
}

function Editor({
  view,
  saved,
  setSaved,
}: {
  view: TInvoiceSellerView;
  saved: boolean;
  setSaved: (saved: boolean) => void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const save = useMutation(
    trpc.invoices.updateSeller.mutationOptions({
      onSuccess: async () => {
        setSaved(true);
        await queryClient.invalidateQueries({ queryKey: trpc.invoices.seller.pathKey() });
      },
    }),
  );
  const { draft, set, errors, error, check } = useSettingsDraft<TInvoiceSellerInput, (typeof FIELDS)[number]>({
    initial: { legalName: view.legalName, address: view.address, taxId: view.taxId },
    fields: FIELDS,
    serverError: save.error,
    onEdit: () => setSaved(false),
  });

  return (
    <Panel title="Seller on invoices" padded>
      <form
        noValidate
        className="space-y-4"
        data-testid="invoice-seller-form"
        onSubmit={(event) => {
          event.preventDefault();
          const checked = check(ZInvoiceSellerInput, draft);
          if (checked !== null) save.mutate(checked);
        }}
      >
        <p className="text-sm text-gray-600">
          Printed on every invoice issued from now on, and on its credit notes. Invoices already issued keep the seller
          they were issued with.
        </p>
        <FormField
          label="Legal name"
          hint={`Empty: invoices name the publication (“${view.fallbackName}”).`}
          error={error("legalName")}
        >
          <Input
            value={draft.legalName}
            maxLength={200}
            autoComplete="organization"
            onChange={(e) => set({ legalName: e.target.value })}
          />
        </FormField>
        <FormField label="Postal address" hint="One line per row, at most 8 lines." error={error("address")}>
          <Textarea
            rows={4}
            value={draft.address}
            autoComplete="street-address"
            onChange={(e) => set({ address: e.target.value })}
          />
        </FormField>
        <FormField label="Tax id (VAT number)" hint="For example GB123456789." error={error("taxId")}>
          <Input
            value={draft.taxId}
            maxLength={50}
            className="max-w-xs"
            onChange={(e) => set({ taxId: e.target.value })}
          />
        </FormField>
        <ErrorAlert errors={errors} />
        {saved ? <Alert tone="success">Saved: invoices issued from now on name this seller.</Alert> : null}
        <FormActions>
          <Button type="submit" variant="primary" loading={save.isPending} loadingText="Saving…">
            Save seller
          </Button>
        </FormActions>
      </form>
    </Panel>
  );
}
