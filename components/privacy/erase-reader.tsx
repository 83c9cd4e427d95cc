"use client";

/**
 * A reader's erasure from the dashboard's subscriber detail (tRPC erasure.status/erase; docs/privacy.md
 * "Erasure"): where it stands, and for owners, on the reader's request, erasing them with their
 * e-mail typed again. Audited; runs in the background (the "privacy.erase" job).
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";

import { useTRPC } from "@/components/trpc/react";
import { Alert, Button, ErrorAlert, FormField, Input } from "@/components/ui";

export function EraseReader({ memberId }: { memberId: number }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const status = useQuery(trpc.erasure.status.queryOptions({ memberId }));
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState("");
  const erase = useMutation(
    trpc.erasure.erase.mutationOptions({
      onSuccess: async () => {
        setOpen(false);
        await queryClient.invalidateQueries({ queryKey: trpc.erasure.status.pathKey() });
        await queryClient.invalidateQueries({ queryKey: trpc.subscribers.pathKey() });
      },
    }),
  );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    erase.mutate({ memberId, confirmEmail: typed });
  };
  const request = status.data;
  return (
    <section data-testid="erase-reader">
      <h3 className="mb-2 font-medium text-gray-900">Erasure</h3>
      {request ? (
        <Alert tone={request.state === "done" ? "success" : "info"} data-testid="erase-status">
          {request.state === "done"
            ? "Erased: this record is a tombstone that keeps invoices and kept comments."
            : `Erasure under way (${request.steps_done.length} steps done)${request.last_error ? `; last stop: ${request.last_error}` : ""}.`}
        </Alert>
      ) : open ? (
        <form onSubmit={submit} className="space-y-3" data-testid="erase-form">
          <p className="text-gray-600">
            On the reader&apos;s request, erase them: their personal data goes, live subscriptions are cancelled at the
            gateway, invoices stay without their e-mail. This cannot be undone. Owners only.
          </p>
          <FormField label="Type the reader's e-mail to confirm">
            <Input type="email" required autoComplete="off" value={typed} onChange={(e) => setTyped(e.target.value)} />
          </FormField>
          <ErrorAlert error={erase.error} />
          <div className="flex flex-wrap gap-2">
            <Button type="submit" variant="danger" loading={erase.isPending} loadingText="Erasing…">
              Erase this reader
            </Button>
            <Button type="button" variant="secondary" onClick={() => setOpen(false)}>
              Cancel
            </Button>
          </div>
        </form>
      ) : (
        <Button variant="secondary" size="sm" onClick={() => setOpen(true)}>
          Erase on request…
        </Button>
      )}
    </section>
  );
}
