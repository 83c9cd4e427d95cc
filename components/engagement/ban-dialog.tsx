"use client";

/** Ban a comment's author (moderation.ban): a reason and a duration, or for good. */
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";

import { useTRPC } from "@/components/trpc/react";
import { Button, Dialog, ErrorAlert, FormActions, FormField, Select, serverErrors, Textarea } from "@/components/ui";
import { BAN_DURATIONS_DAYS, type TQueueItem } from "@/server/engagement/moderation/queue.schema";

const DURATION_LABEL = (days: number) => (days === 1 ? "1 day" : days === 365 ? "1 year" : `${days} days`);

export function BanDialog({
  author,
  onClose,
  onBanned,
}: {
  author: TQueueItem["author"] | null;
  onClose: () => void;
  onBanned: (message: string) => void;
}) {
  return (
    <Dialog
      open={author !== null}
      onClose={onClose}
      title={author ? `Ban ${author.name}` : "Ban"}
      description="A banned reader cannot comment, edit, react or report until the ban ends or is lifted."
      size="sm"
    >
      {author ? <BanForm author={author} onClose={onClose} onBanned={onBanned} /> : null}
    </Dialog>
  );
}

function BanForm({
  author,
  onClose,
  onBanned,
}: {
  author: TQueueItem["author"];
  onClose: () => void;
  onBanned: (message: string) => void;
}) {
  const trpc = useTRPC();
  const [reason, setReason] = useState("");
  const [duration, setDuration] = useState("7");
  const ban = useMutation(
    trpc.moderation.ban.mutationOptions({
      onSuccess: (result) => {
        onBanned(
          result.expiresAt
            ? `${author.name} is banned until ${result.expiresAt.toLocaleString()}.`
            : `${author.name} is banned for good.`,
        );
        onClose();
      },
    }),
  );
  const errors = serverErrors(ban.error, ["reason", "durationDays"]);
  return (
    <form
      className="space-y-4"
      onSubmit={(event) => {
        event.preventDefault();
        ban.mutate({
          memberId: author.memberId,
          reason,
          durationDays: duration === "forever" ? null : Number(duration),
        });
      }}
    >
      {author.bannedUntil ? (
        <p className="text-sm text-gray-700">A new ban replaces the reader&apos;s current one.</p>
      ) : null}
      <FormField label="Reason" hint="Kept in the reader's history and the audit log." error={errors.fields.reason}>
        <Textarea
          value={reason}
          onChange={(e) => setReason(e.target.value)}
          rows={3}
          maxLength={500}
          required
          data-autofocus
        />
      </FormField>
      <FormField label="For" error={errors.fields.durationDays}>
        <Select value={duration} onChange={(e) => setDuration(e.target.value)}>
          {BAN_DURATIONS_DAYS.map((days) => (
            <option key={days} value={String(days)}>
              {DURATION_LABEL(days)}
            </option>
          ))}
          <option value="forever">For good</option>
        </Select>
      </FormField>
      <ErrorAlert errors={errors} />
      <FormActions>
        <Button type="submit" variant="danger" loading={ban.isPending} loadingText="Banning…">
          Ban
        </Button>
        <Button onClick={onClose}>Cancel</Button>
      </FormActions>
    </form>
  );
}
