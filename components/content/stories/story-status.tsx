"use client";

/** A story's workflow status as a coloured badge. */
import { Badge } from "@/components/ui";
import type { TStoryStatus } from "@/server/publishing/editorial/stories.schema";

export const STATUS_TONE = {
  DRAFT: "gray",
  SUBMITTED: "amber",
  APPROVED: "blue",
  PUBLISHED: "green",
  RETRACTED: "red",
} as const;
export const STATUS_LABEL: Record<TStoryStatus, string> = {
  DRAFT: "Draft",
  SUBMITTED: "Submitted",
  APPROVED: "Approved",
  PUBLISHED: "Published",
  RETRACTED: "Retracted",
};

export function StoryStatus({ status }: { status: TStoryStatus }) {
  return (
    <span data-testid="story-status" data-status={status}>
      <Badge tone={STATUS_TONE[status]}>{STATUS_LABEL[status]}</Badge>
    </span>
  );
}
