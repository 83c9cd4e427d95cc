"use client";

/** One newsletter: its settings form, and archiving (readers no longer see it; nothing is deleted). */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";

import { useTRPC } from "@/components/trpc/react";
import { Alert, Button, ErrorAlert, LoadState, Panel, useConfirm } from "@/components/ui";

import { NewsletterForm } from "./newsletter-form";

export function NewsletterEditor({ id }: { id: number }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const confirm = useConfirm();
  const newsletter = useQuery(trpc.newsletters.get.queryOptions({ id }));
  const [saved, setSaved] = useState(false);
  const refresh = async () => {
    await queryClient.invalidateQueries({ queryKey: trpc.newsletters.get.queryKey({ id }) });
    await queryClient.invalidateQueries({ queryKey: trpc.newsletters.list.queryKey() });
  };
  const update = useMutation(
    trpc.newsletters.update.mutationOptions({
      onSuccess: async () => {
        setSaved(true);
        await refresh();
      },
    }),
  );
  const archive = useMutation(trpc.newsletters.archive.mutationOptions({ onSuccess: refresh }));

  if (!newsletter.data) return <LoadState query={newsletter} what="newsletter" />;
  const n = newsletter.data;
  return (
    <div className="space-y-6">
      {n.archivedAt ? (
        <Alert tone="info">This newsletter is archived: readers do not see it and cannot subscribe.</Alert>
      ) : null}
      <Panel title="Settings" padded>
        {saved ? <Alert tone="success">Saved.</Alert> : null}
        <NewsletterForm
          key={n.id}
          initial={n}
          submitLabel="Save"
          pending={update.isPending}
          error={update.error}
          onSubmit={(input) => {
            setSaved(false);
            update.mutate({ id: n.id, newsletter: input });
          }}
        />
      </Panel>
      <Panel title={n.archivedAt ? "Bring back" : "Archive"} padded>
        <p className="text-sm text-gray-600">
          {n.archivedAt
            ? "Readers will see it again on the self-service page and in the widgets."
            : "Readers no longer see it or subscribe to it. Its subscribers and past sends are kept."}
        </p>
        <ErrorAlert error={archive.error} />
        <Button
          loading={archive.isPending}
          onClick={async () => {
            const archived = !n.archivedAt;
            if (archived && !(await confirm({ title: `Archive "${n.name}"?`, confirmLabel: "Archive" }))) return;
            archive.mutate({ id: n.id, archived });
          }}
        >
          {n.archivedAt ? "Bring back" : "Archive newsletter"}
        </Button>
      </Panel>
    </div>
  );
}
