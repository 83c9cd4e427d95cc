"use client";

/**
 * The story editor's requests (./use-story-draft.ts): create, save, restore a revision, the
 * preview link, workflow moves and delete, with their errors shown by field, by card, or in the
 * alert.
 */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";

import { useTRPC } from "@/components/trpc/react";
import { serverErrors } from "@/components/ui";
import type { TStoryEditorView } from "@/server/publishing/editorial/stories.schema";

import { splitCardIssues } from "./card-issues";

/** The form's fields the server's `{ field, issue }` details can name; the rest show in the alert. */
const FIELDS = [
  "headline",
  "subheadline",
  "slug",
  "summary",
  "access",
  "paywallAt",
  "storyTemplate",
  "breakingNewsExpiresAt",
  "breakingNewsLinkedStoryId",
] as const;

/** `settle`: the editor takes a story a move answered, with the notice to show. */
export function useDraftRequests(settle: (next: TStoryEditorView, message: string | null) => Promise<void>) {
  const trpc = useTRPC();
  const router = useRouter();
  const queryClient = useQueryClient();
  const create = useMutation(
    trpc.stories.create.mutationOptions({
      onSuccess: async (result) => {
        queryClient.setQueryData(trpc.stories.get.queryKey({ id: result.story.id }), result.story);
        await queryClient.invalidateQueries({ queryKey: trpc.stories.list.queryKey() });
        router.replace(`/admin/content/stories/${result.story.id}`);
      },
    }),
  );
  const update = useMutation(trpc.stories.update.mutationOptions());
  const restore = useMutation(trpc.stories.restoreRevision.mutationOptions());
  const preview = useMutation(trpc.stories.previewLink.mutationOptions());
  const transition = useMutation(
    trpc.stories.transition.mutationOptions({
      onSuccess: (result) =>
        settle(
          result.story,
          `${result.story.status.charAt(0)}${result.story.status.slice(1).toLowerCase()}.${eventNotice(result)}`,
        ),
    }),
  );
  const remove = useMutation(
    trpc.stories.delete.mutationOptions({
      onSuccess: async () => {
        await queryClient.invalidateQueries({ queryKey: trpc.stories.list.queryKey() });
        router.push("/admin/content/stories");
      },
    }),
  );
  const saving = create.isPending || update.isPending || restore.isPending;
  const pending = saving || transition.isPending || remove.isPending;
  const error = create.error ?? update.error ?? restore.error ?? transition.error ?? remove.error;
  const allErrors = serverErrors(error, FIELDS);
  // Problems inside the cards show next to their card or element; the alert then only points at them.
  const cardIssues = splitCardIssues(allErrors.others);
  const errors = {
    ...allErrors,
    others: cardIssues.others,
    fields: cardIssues.byPosition.size ? { ...allErrors.fields, cards: "see the cards" } : allErrors.fields,
  };
  const resetErrors = () => {
    create.reset();
    update.reset();
    restore.reset();
    transition.reset();
    remove.reset();
  };
  return {
    create,
    update,
    restore,
    preview,
    transition,
    remove,
    saving,
    pending,
    errors,
    cardIssues: cardIssues.byPosition,
    resetErrors,
  };
}

/** What a write told the webhooks, as the notice after it says it (nothing when it sent no event). */
export function eventNotice({ event, notified }: { event: string | null; notified: number }): string {
  if (!event) return "";
  if (notified === 0) return ` No webhook subscribes to ${event}.`;
  return ` ${event} sent to ${notified === 1 ? "1 webhook" : `${notified} webhooks`}.`;
}
