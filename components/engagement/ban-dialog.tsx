"use client";

/**
 * Ban a comment's author from the queue (the `b` key): a reason, how long (whole days, or for
 * good), an optional message the reader is shown once in the comment widget with until when, and
 * "Also reject their N pending comments". The same actions as the Community page
 * (community.suspend with the end computed from the days, community.ban), so the notice and the
 * rejections are written in the ban's one transaction.
 */
import { useMutation, useQuery } from "@tanstack/react-query";
import { useState } from "react";

import { useTRPC } from "@/components/trpc/react";
import {
  Button,
  Checkbox,
  Dialog,
  ErrorAlert,
  FormActions,
  FormField,
  Select,
  serverErrors,
  Textarea,
  useDateTimeFormat,
} from "@/components/ui";
import { MESSAGE_MAX } from "@/server/engagement/community/community.schema";
import { BAN_DURATIONS_DAYS, type TQueueItem } from "@/server/engagement/moderation/queue/queue.schema";

const DAY_MS = 86_400_000;
const DURATION_LABEL = (days: number) => (days === 1 ? "1 day" : days === 365 ? "1 year" : `${days} days`);
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

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
  const [message, setMessage] = useState("");
  const [duration, setDuration] = useState("7");
  const [rejectPending, setRejectPending] = useState(false);
  // The reader's row (an exact member id), for the number of their comments waiting in the queue.
  const row = useQuery(trpc.community.readers.queryOptions({ q: `#${author.memberId}`, limit: 50 }, { staleTime: 0 }));
  const pendingCount = row.data?.items.find((r) => r.memberId === author.memberId)?.counts.pending ?? 0;
  const formatTime = useDateTimeFormat();
  const rejectedText = (rejected: number) => (rejected ? ` ${plural(rejected, "pending comment")} rejected.` : "");
  const done = (text: string) => {
    onBanned(text);
    onClose();
  };
  const suspend = useMutation(
    trpc.community.suspend.mutationOptions({
      onSuccess: (result) =>
        done(
          `${author.name} is banned until ${result.ban.expiresAt ? formatTime(result.ban.expiresAt) : "later"}.${rejectedText(result.rejected)}`,
        ),
    }),
  );
  const ban = useMutation(
    trpc.community.ban.mutationOptions({
      onSuccess: (result) => done(`${author.name} is banned for good.${rejectedText(result.rejected)}`),
    }),
  );
  const forGood = duration === "forever";
  const pending = forGood ? ban : suspend;
  const errors = serverErrors(pending.error, ["reason", "message", "until"]);
  return (
    <form
      className="space-y-4"
      onSubmit={(event) => {
        event.preventDefault();
        const common = { memberId: author.memberId, reason, message, rejectPending: rejectPending && pendingCount > 0 };
        if (forGood) ban.mutate(common);
        else suspend.mutate({ ...common, until: new Date(Date.now() + Number(duration) * DAY_MS) });
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
      <FormField label="For" error={errors.fields.until}>
        <Select value={duration} onChange={(e) => setDuration(e.target.value)}>
          {BAN_DURATIONS_DAYS.map((days) => (
            <option key={days} value={String(days)}>
              {DURATION_LABEL(days)}
            </option>
          ))}
          <option value="forever">For good</option>
        </Select>
      </FormField>
      <FormField
        label="Message to the reader"
        optional
        hint="Shown once in the comment widget, with until when, in the reader's language and time zone."
        error={errors.fields.message}
      >
        <Textarea value={message} onChange={(e) => setMessage(e.target.value)} rows={2} maxLength={MESSAGE_MAX} />
      </FormField>
      {pendingCount > 0 ? (
        <Checkbox
          label={`Also reject their ${plural(pendingCount, "pending comment")}`}
          checked={rejectPending}
          onChange={(e) => setRejectPending(e.target.checked)}
        />
      ) : null}
      <ErrorAlert errors={errors} />
      <FormActions>
        <Button type="submit" variant="danger" loading={pending.isPending} loadingText="Banning…">
          Ban
        </Button>
        <Button onClick={onClose}>Cancel</Button>
      </FormActions>
    </form>
  );
}
