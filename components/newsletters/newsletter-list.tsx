"use client";

/** The account's newsletters with their subscribers counted, and the form to add one. */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";

import { useTRPC } from "@/components/trpc/react";
import { Badge, ListPanel, PanelList, TextLink, useAddForm } from "@/components/ui";
import { AUDIENCE_LABELS } from "@/server/newsletters/newsletters.schema";

import { NewsletterForm } from "./newsletter-form";

export function NewsletterList() {
  const trpc = useTRPC();
  const router = useRouter();
  const queryClient = useQueryClient();
  const list = useQuery(trpc.newsletters.list.queryOptions());
  const adding = useAddForm();
  const create = useMutation(
    trpc.newsletters.create.mutationOptions({
      onSuccess: async (created) => {
        adding.close();
        await queryClient.invalidateQueries({ queryKey: trpc.newsletters.list.queryKey() });
        router.push(`/admin/newsletters/${created.id}`);
      },
    }),
  );

  return (
    <ListPanel
      title="Newsletters"
      titleId="newsletters-title"
      add={{
        label: "New newsletter",
        formTitle: "New newsletter",
        ...adding.panel,
        form: <NewsletterForm submitLabel="Create newsletter" {...adding.formProps(create)} />,
      }}
      query={list}
      what="newsletters"
      emptyText="No newsletters yet. Create one, then readers can subscribe on the self-service page and in the widgets."
    >
      {(newsletters) => (
        <PanelList items={newsletters} itemKey={(n) => n.id} labelledBy="newsletters-title" rowTestId="newsletter-row">
          {(n) => (
            <>
              <div className="min-w-0">
                <TextLink href={`/admin/newsletters/${n.id}`} className="font-medium break-words">
                  {n.name}
                </TextLink>
                <p className="mt-0.5 text-xs break-words text-gray-500">
                  {n.slug} · {AUDIENCE_LABELS[n.audience]} · from {n.senderName}
                </p>
              </div>
              <div className="flex shrink-0 flex-wrap items-center gap-2 text-xs">
                {n.archivedAt ? <Badge tone="gray">Archived</Badge> : null}
                <Badge tone="green">{n.counts.active} active</Badge>
                {n.counts.pending ? <Badge tone="blue">{n.counts.pending} pending</Badge> : null}
                {n.counts.unsubscribed ? <Badge tone="gray">{n.counts.unsubscribed} unsubscribed</Badge> : null}
                <TextLink href={`/admin/newsletters/${n.id}/subscribers`}>Subscribers</TextLink>
              </div>
            </>
          )}
        </PanelList>
      )}
    </ListPanel>
  );
}
