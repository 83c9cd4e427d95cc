"use client";

/**
 * A reader's card on the Community page (community.reader): who they are, their standing and
 * comment counts, and the moderator's actions on them (warn, suspend until a time, ban for good,
 * lift, reject their pending comments or all of them); then their history: comments with state
 * and page, decisions and who made them, notices sent to them, bans and reports.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type ReactNode } from "react";

import { useTRPC } from "@/components/trpc/react";
import {
  Alert,
  Badge,
  Button,
  Checkbox,
  DateTime,
  DetailList,
  DetailSection,
  Dialog,
  ErrorAlert,
  FormEnd,
  FormField,
  Input,
  LoadState,
  serverErrors,
  Textarea,
  textLinkClasses,
  useConfirm,
  useDateTimeFormat,
  useTimeZone,
} from "@/components/ui";
import { fromZonedInput, toZonedInput } from "@/server/dates.schema";
import { MESSAGE_MAX, type TReaderCard } from "@/server/engagement/community/community.schema";

import { CommentBody } from "./comment-body";
import { ReportsAgainst } from "./reader-history-dialog";
import { BanLine, ReaderStanding } from "./reader-standing";

type Action = "warn" | "suspend" | "ban" | null;

export function ReaderCardDialog({ memberId, onClose }: { memberId: number | null; onClose: () => void }) {
  return (
    <Dialog open={memberId !== null} onClose={onClose} title="Reader" size="lg">
      {memberId !== null ? <Card memberId={memberId} /> : null}
    </Dialog>
  );
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

function Card({ memberId }: { memberId: number }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const confirm = useConfirm();
  const card = useQuery(trpc.community.reader.queryOptions({ memberId }));
  const [action, setAction] = useState<Action>(null);
  const [said, setSaid] = useState<string | null>(null);

  const refresh = async (message: string) => {
    setSaid(message);
    setAction(null);
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: trpc.community.pathKey() }),
      queryClient.invalidateQueries({ queryKey: trpc.moderation.pathKey() }),
    ]);
  };
  const lift = useMutation(
    trpc.community.lift.mutationOptions({
      onSuccess: (result) => refresh(result.lifted ? "The ban is lifted." : "There was no ban in force."),
    }),
  );
  const reject = useMutation(
    trpc.community.rejectComments.mutationOptions({
      onSuccess: (result) => refresh(`Rejected ${plural(result.rejected, "comment")}.`),
    }),
  );

  const data = card.data;
  if (!data) return <LoadState query={card} what="reader" />;
  const { reader } = data;
  const banned = reader.status === "banned" || reader.status === "suspended";

  const rejectAll = async (scope: "pending" | "all") => {
    const ok = await confirm({
      title:
        scope === "pending"
          ? `Reject ${reader.name}'s ${plural(reader.counts.pending, "pending comment")}?`
          : `Reject all of ${reader.name}'s comments?`,
      body:
        scope === "pending"
          ? "They leave the pending queue, rejected. Each is audited as a rejection from the queue."
          : "Every comment of theirs that is not already rejected or marked spam is rejected, published ones too: they leave the page. Approved comments are rejected as well.",
      confirmLabel: scope === "pending" ? "Reject pending comments" : "Reject all",
    });
    if (ok) reject.mutate({ memberId, scope });
  };

  return (
    <div className="space-y-5 text-sm">
      <section aria-labelledby="reader-card-name" className="space-y-1">
        <h3 id="reader-card-name" className="text-base font-semibold break-words text-gray-900">
          {reader.name} <span className="font-normal text-gray-600">(reader {reader.memberId})</span>
        </h3>
        {reader.username || reader.email ? (
          <p className="break-all text-gray-700">
            {[reader.username ? `@${reader.username}` : null, reader.email].filter(Boolean).join(" · ")}
          </p>
        ) : null}
        <ReaderStanding reader={reader} />
      </section>

      <section aria-label="Actions" className="space-y-3">
        <div className="flex flex-wrap gap-2">
          <Button size="sm" onClick={() => setAction("warn")} aria-expanded={action === "warn"}>
            Warn
          </Button>
          <Button size="sm" onClick={() => setAction("suspend")} aria-expanded={action === "suspend"}>
            Suspend
          </Button>
          <Button size="sm" variant="danger" onClick={() => setAction("ban")} aria-expanded={action === "ban"}>
            Ban
          </Button>
          {banned ? (
            <Button size="sm" onClick={() => lift.mutate({ memberId })} loading={lift.isPending} loadingText="Lifting…">
              {reader.status === "banned" ? "Lift the ban" : "Lift the suspension"}
            </Button>
          ) : null}
          <Button
            size="sm"
            onClick={() => void rejectAll("pending")}
            disabled={reader.counts.pending === 0 || reject.isPending}
          >
            Reject {plural(reader.counts.pending, "pending comment")}
          </Button>
          <Button size="sm" variant="danger" onClick={() => void rejectAll("all")} loading={reject.isPending}>
            Reject all their comments
          </Button>
        </div>
        {said ? (
          <Alert tone="success" role="status">
            {said}
          </Alert>
        ) : null}
        <ErrorAlert error={lift.error ?? reject.error} />
        {action === "warn" ? <WarnForm memberId={memberId} onDone={refresh} onCancel={() => setAction(null)} /> : null}
        {action === "suspend" || action === "ban" ? (
          <SanctionForm kind={action} reader={reader} onDone={refresh} onCancel={() => setAction(null)} />
        ) : null}
      </section>

      <History data={data} />
    </div>
  );
}

function ActionBox({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="rounded border border-gray-200 bg-gray-50 p-3">
      <h4 className="mb-2 font-semibold text-gray-900">{title}</h4>
      {children}
    </div>
  );
}

function WarnForm({
  memberId,
  onDone,
  onCancel,
}: {
  memberId: number;
  onDone: (message: string) => Promise<void>;
  onCancel: () => void;
}) {
  const trpc = useTRPC();
  const [message, setMessage] = useState("");
  const warn = useMutation(
    trpc.community.warn.mutationOptions({
      onSuccess: () => onDone("Warned: they see it the next time they open the comments."),
    }),
  );
  const errors = serverErrors(warn.error, ["message"]);
  return (
    <ActionBox title="Warn this reader">
      <form
        className="space-y-3"
        onSubmit={(event) => {
          event.preventDefault();
          warn.mutate({ memberId, message });
        }}
      >
        <FormField
          label="Message to the reader"
          hint="Shown once in the comment widget, as text; they acknowledge it."
          error={errors.fields.message}
        >
          <Textarea
            value={message}
            onChange={(e) => setMessage(e.target.value)}
            rows={3}
            maxLength={MESSAGE_MAX}
            required
            data-autofocus
          />
        </FormField>
        <FormEnd
          errors={errors}
          label="Send the warning"
          pending={warn.isPending}
          pendingText="Warning…"
          onCancel={onCancel}
        />
      </form>
    </ActionBox>
  );
}

function SanctionForm({
  kind,
  reader,
  onDone,
  onCancel,
}: {
  kind: "suspend" | "ban";
  reader: TReaderCard["reader"];
  onDone: (message: string) => Promise<void>;
  onCancel: () => void;
}) {
  const trpc = useTRPC();
  const [reason, setReason] = useState("");
  const [message, setMessage] = useState("");
  // The time is typed on the account's clocks.
  const zone = useTimeZone() ?? "UTC";
  const [until, setUntil] = useState(() => toZonedInput(new Date(Date.now() + 7 * 86_400_000), zone));
  const [rejectPending, setRejectPending] = useState(false);
  const formatTime = useDateTimeFormat();
  const said = (rejected: number) => (rejected ? ` ${plural(rejected, "pending comment")} rejected.` : "");
  const suspend = useMutation(
    trpc.community.suspend.mutationOptions({
      onSuccess: (result) =>
        onDone(
          `${reader.name} is suspended until ${result.ban.expiresAt ? formatTime(result.ban.expiresAt) : "later"}.${said(result.rejected)}`,
        ),
    }),
  );
  const ban = useMutation(
    trpc.community.ban.mutationOptions({
      onSuccess: (result) => onDone(`${reader.name} is banned for good.${said(result.rejected)}`),
    }),
  );
  const pending = kind === "suspend" ? suspend : ban;
  const errors = serverErrors(pending.error, ["reason", "message", "until"]);
  return (
    <ActionBox title={kind === "suspend" ? "Suspend this reader" : "Ban this reader for good"}>
      <form
        className="space-y-3"
        onSubmit={(event) => {
          event.preventDefault();
          const common = { memberId: reader.memberId, reason, message, rejectPending };
          if (kind === "ban") {
            ban.mutate(common);
            return;
          }
          // The field is required: a browser sends only a whole datetime-local value.
          const end = fromZonedInput(until, zone);
          if (end) suspend.mutate({ ...common, until: end });
        }}
      >
        {kind === "suspend" ? (
          <FormField
            label="Until"
            hint={`In ${zone}, the account's time zone. The reader sees it in theirs.`}
            error={errors.fields.until}
          >
            <Input
              type="datetime-local"
              value={until}
              min={toZonedInput(new Date(), zone)}
              onChange={(e) => setUntil(e.target.value)}
              required
              data-autofocus
            />
          </FormField>
        ) : null}
        <FormField label="Reason" hint="Kept in the reader's history and the audit log." error={errors.fields.reason}>
          <Textarea
            value={reason}
            onChange={(e) => setReason(e.target.value)}
            rows={2}
            maxLength={500}
            required
            data-autofocus={kind === "ban" ? true : undefined}
          />
        </FormField>
        <FormField
          label="Message to the reader"
          optional
          hint="Shown once in the comment widget, with until when."
          error={errors.fields.message}
        >
          <Textarea value={message} onChange={(e) => setMessage(e.target.value)} rows={2} maxLength={MESSAGE_MAX} />
        </FormField>
        {reader.counts.pending > 0 ? (
          <Checkbox
            label={`Also reject their ${plural(reader.counts.pending, "pending comment")}`}
            checked={rejectPending}
            onChange={(e) => setRejectPending(e.target.checked)}
          />
        ) : null}
        {reader.status === "banned" || reader.status === "suspended" ? (
          <p className="text-gray-700">
            This replaces the reader&apos;s current {reader.status === "banned" ? "ban" : "suspension"}.
          </p>
        ) : null}
        <FormEnd
          errors={errors}
          variant="danger"
          label={kind === "suspend" ? "Suspend" : "Ban for good"}
          pending={pending.isPending}
          pendingText={kind === "suspend" ? "Suspending…" : "Banning…"}
          onCancel={onCancel}
        />
      </form>
    </ActionBox>
  );
}

const STATE_TONE = { undecided: "gray", approved: "green", rejected: "red", spam: "amber" } as const;
const NOTICE_LABEL = { warning: "Warning", ban: "Ban", suspension: "Suspension" } as const;

function History({ data }: { data: TReaderCard }) {
  const { history, decisions, notices } = data;
  return (
    <>
      <DetailSection id="card-comments" title={`Recent comments (${history.comments.length})`}>
        {history.comments.length ? (
          <ul className="divide-y divide-gray-200 rounded border border-gray-200">
            {history.comments.map((c) => (
              <li key={c.id} className="min-w-0 space-y-1 px-3 py-2" data-testid="card-comment">
                <div className="flex flex-wrap items-center gap-1 text-xs text-gray-600">
                  <span>#{c.id}</span> · <DateTime value={c.createdAt} /> ·{" "}
                  <Badge tone={STATE_TONE[c.state]}>{c.state}</Badge>
                  <Badge tone={c.deleted ? "red" : c.isPublished ? "green" : "gray"}>
                    {c.deleted ? "deleted" : c.isPublished ? "published" : "unpublished"}
                  </Badge>
                  {c.isSpam ? <Badge tone="amber">spam</Badge> : null}
                </div>
                <p className="text-xs break-all text-gray-600">
                  on{" "}
                  <a href={c.page.url} rel="nofollow noopener noreferrer" className={textLinkClasses}>
                    {c.page.headline ?? c.page.url}
                  </a>
                </p>
                <CommentBody ops={c.ops} />
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-gray-600">No comments.</p>
        )}
      </DetailSection>

      <DetailList
        id="card-decisions"
        title="Decisions on their comments"
        items={decisions}
        itemKey={(d) => d.commentId}
      >
        {(d) => (
          <>
            Comment #{d.commentId} {d.state} by {d.decidedBy ?? "a former moderator"} on{" "}
            <DateTime value={d.decidedAt} />
          </>
        )}
      </DetailList>

      <DetailList id="card-notices" title="Warnings and messages" items={notices} itemKey={(n) => n.id}>
        {(n) => (
          <>
            {NOTICE_LABEL[n.kind]}
            {n.message ? `: “${n.message}”` : ""} · by {n.createdBy ?? "a former moderator"} on{" "}
            <DateTime value={n.createdAt} /> ·{" "}
            {n.acknowledgedAt ? (
              <>
                seen <DateTime value={n.acknowledgedAt} />
              </>
            ) : (
              "not seen yet"
            )}
          </>
        )}
      </DetailList>

      <DetailList id="card-bans" title="Bans and suspensions" items={history.bans} itemKey={(b) => b.id}>
        {(b) => (
          <BanLine
            ban={b}
            since={
              <>
                {" "}
                · <DateTime value={b.createdAt} />
              </>
            }
            inForce="in force"
          />
        )}
      </DetailList>

      <ReportsAgainst id="card-reports" title="Reports against their comments" reports={history.reportsAgainst} />
    </>
  );
}
