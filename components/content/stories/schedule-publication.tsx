"use client";

/**
 * Scheduled publishing for an approved story: pick a time, or see and call off the one set. The
 * scheduler publishes the story at that time as Publish would (server/publishing/editorial/scheduling.ts).
 */
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";

import { useTRPC } from "@/components/trpc/react";
import { Button, DateTime, ErrorAlert, FormField, Input, serverErrors, useConfirm, useTimeZone } from "@/components/ui";
import { fromZonedInput, toZonedInput } from "@/server/dates.schema";
import type { TStoryEditorView } from "@/server/publishing/editorial/stories.schema";

export function SchedulePublication({
  story,
  disabled,
  onChanged,
}: {
  story: TStoryEditorView;
  disabled: boolean;
  onChanged: (next: TStoryEditorView, message: string) => Promise<void>;
}) {
  const trpc = useTRPC();
  const confirm = useConfirm();
  // The time is typed on the account's clocks.
  const zone = useTimeZone() ?? "UTC";
  const [when, setWhen] = useState(() => toZonedInput(new Date(Date.now() + 60 * 60_000), zone));
  const publishAt = fromZonedInput(when, zone);
  const schedule = useMutation(
    trpc.stories.schedule.mutationOptions({
      onSuccess: (result) => onChanged(result.story, "Scheduled."),
    }),
  );
  const unschedule = useMutation(
    trpc.stories.unschedule.mutationOptions({
      onSuccess: (result) => onChanged(result.story, "Schedule cancelled: the story stays approved."),
    }),
  );
  const errors = serverErrors(schedule.error ?? unschedule.error, ["publishAt"]);
  const busy = disabled || schedule.isPending || unschedule.isPending;

  if (story.publishAt) {
    return (
      <div className="border-brand-200 space-y-2 rounded-md border bg-brand-50 p-3" data-testid="story-schedule">
        <p className="text-sm text-gray-900">
          Scheduled to publish <DateTime value={story.publishAt} />
        </p>
        <Button
          variant="secondary"
          size="sm"
          disabled={busy}
          onClick={async () => {
            const ok = await confirm({
              title: "Cancel the scheduled publication?",
              body: "The story stays approved; you can publish or schedule it again.",
              confirmLabel: "Cancel schedule",
            });
            if (ok) unschedule.mutate({ id: story.id, version: story.version });
          }}
        >
          Cancel schedule
        </Button>
        <ErrorAlert errors={errors} />
      </div>
    );
  }
  return (
    <div className="space-y-2 rounded-md border border-gray-200 p-3">
      <FormField
        label="Publish at"
        error={errors.fields.publishAt}
        hint={`In ${zone}. The story is published then, as Publish would.`}
      >
        <Input type="datetime-local" value={when} onChange={(e) => setWhen(e.target.value)} />
      </FormField>
      <Button
        variant="secondary"
        size="sm"
        disabled={busy || !publishAt}
        onClick={() => publishAt && schedule.mutate({ id: story.id, version: story.version, publishAt })}
      >
        Schedule
      </Button>
      <ErrorAlert errors={errors} />
    </div>
  );
}
