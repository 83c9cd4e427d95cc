"use client";

/**
 * A newsletter's subscribers, newest first, filtered by status: e-mail, name, status, the consent
 * (source and time, in the account's zone) and how they left. Staff add a reader (consent source
 * "dashboard": active when the member's e-mail is verified, else pending with a confirmation mail)
 * or unsubscribe one.
 */
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";

import { useTRPC } from "@/components/trpc/react";
import {
  Alert,
  Badge,
  Button,
  DateTime,
  ErrorAlert,
  FilterDisclosure,
  FormField,
  Input,
  LoadMore,
  LoadState,
  Panel,
  PanelList,
  PanelSection,
  serverErrors,
  StatusFilter,
  SubmitActions,
  useConfirm,
} from "@/components/ui";
import type { TSubscriberView } from "@/server/newsletters/newsletters.schema";
import { ownValue } from "@/server/own-keys";

type Status = TSubscriberView["status"];
const STATUS_LABEL: Record<Status, string> = { ACTIVE: "Active", PENDING: "Pending", UNSUBSCRIBED: "Unsubscribed" };
const STATUS_TONE = { ACTIVE: "green", PENDING: "amber", UNSUBSCRIBED: "gray" } as const;

const SOURCE_LABEL: Record<string, string> = {
  widget: "widget",
  self_service: "self-service page",
  dashboard: "dashboard",
  one_click: "one-click unsubscribe",
  link: "unsubscribe page",
  bounce: "bounce",
  complaint: "spam complaint",
  suppressed: "suppressed address",
  audience: "audience",
};
const source = (s: string) => ownValue(SOURCE_LABEL, s) ?? s;

export function SubscriberList({ newsletterId }: { newsletterId: number }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const confirm = useConfirm();
  const [status, setStatus] = useState<Status | "">("");
  const [adding, setAdding] = useState(false);
  const [added, setAdded] = useState<string | null>(null);
  const newsletter = useQuery(trpc.newsletters.get.queryOptions({ id: newsletterId }));
  const subscribers = useInfiniteQuery(
    trpc.newsletters.subscribers.infiniteQueryOptions(
      { newsletterId, status: status || undefined, limit: 50 },
      { getNextPageParam: (page) => page.nextCursor ?? undefined },
    ),
  );
  const rows = subscribers.data?.pages.flatMap((p) => p.items) ?? [];
  const refresh = async () => {
    await queryClient.invalidateQueries({ queryKey: trpc.newsletters.subscribers.pathKey() });
    await queryClient.invalidateQueries({ queryKey: trpc.newsletters.get.queryKey({ id: newsletterId }) });
  };
  const unsubscribe = useMutation(trpc.newsletters.unsubscribe.mutationOptions({ onSuccess: refresh }));
  const onUnsubscribe = async (s: TSubscriberView) => {
    if (await confirm({ title: `Unsubscribe ${s.email}?`, confirmLabel: "Unsubscribe" }))
      unsubscribe.mutate({ newsletterId, subscriptionId: s.id });
  };
  const counts = newsletter.data?.counts;

  return (
    <Panel
      title="Subscribers"
      titleId="subscribers-title"
      actions={
        <>
          <FilterDisclosure active={status ? 1 : 0}>
            <StatusFilter
              value={status}
              onChange={setStatus}
              labels={STATUS_LABEL}
              counts={
                counts
                  ? { ACTIVE: counts.active, PENDING: counts.pending, UNSUBSCRIBED: counts.unsubscribed }
                  : undefined
              }
            />
          </FilterDisclosure>
          {!adding ? <Button onClick={() => setAdding(true)}>Add reader</Button> : null}
        </>
      }
    >
      {adding ? (
        <PanelSection title="Add a reader">
          <AddReaderForm
            newsletterId={newsletterId}
            onAdded={async (message) => {
              setAdded(message);
              setAdding(false);
              await refresh();
            }}
            onCancel={() => setAdding(false)}
          />
        </PanelSection>
      ) : null}
      {added ? (
        <div className="px-4 pt-3">
          <Alert tone="success">{added}</Alert>
        </div>
      ) : null}
      {unsubscribe.error ? (
        <div className="px-4 pt-3">
          <ErrorAlert error={unsubscribe.error} />
        </div>
      ) : null}
      <LoadState
        query={subscribers}
        what="subscribers"
        empty={rows.length === 0}
        emptyText={status ? `No ${STATUS_LABEL[status].toLowerCase()} subscribers.` : "No subscribers yet."}
      />
      {rows.length ? (
        <PanelList items={rows} itemKey={(s) => s.id} labelledBy="subscribers-title" rowTestId="subscriber-row">
          {(s) => <SubscriberRow s={s} onUnsubscribe={() => void onUnsubscribe(s)} />}
        </PanelList>
      ) : null}
      <LoadMore query={subscribers} />
    </Panel>
  );
}

/** Add a reader: their e-mail and name; `onAdded` with what became of them. */
function AddReaderForm({
  newsletterId,
  onAdded,
  onCancel,
}: {
  newsletterId: number;
  onAdded: (message: string) => Promise<void>;
  onCancel: () => void;
}) {
  const trpc = useTRPC();
  const [email, setEmail] = useState("");
  const [name, setName] = useState("");
  const add = useMutation(
    trpc.newsletters.addSubscriber.mutationOptions({
      onSuccess: async (result) => {
        await onAdded(
          result.status === "ACTIVE"
            ? `${email} is subscribed.`
            : result.mailed
              ? `${email} must confirm: a confirmation mail is on its way.`
              : `${email} has not confirmed yet.`,
        );
      },
    }),
  );
  const errors = serverErrors(add.error, ["email", "name"]);
  return (
    <form
      className="space-y-4"
      onSubmit={(event) => {
        event.preventDefault();
        add.mutate({ newsletterId, email, name });
      }}
    >
      <ErrorAlert error={add.error} errors={errors} />
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField label="E-mail" error={errors.fields.email}>
          <Input type="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
        </FormField>
        <FormField label="Name" optional error={errors.fields.name}>
          <Input value={name} maxLength={200} onChange={(e) => setName(e.target.value)} />
        </FormField>
      </div>
      <p className="text-xs text-gray-600">
        Add only readers who asked you for this newsletter. A reader whose e-mail is not verified (or whose address
        bounced or complained) gets a mail to confirm first.
      </p>
      <SubmitActions label="Add reader" pending={add.isPending} pendingText="Adding…" onCancel={onCancel} />
    </form>
  );
}

function SubscriberRow({ s, onUnsubscribe }: { s: TSubscriberView; onUnsubscribe: () => void }) {
  return (
    <>
      <div className="min-w-0 text-sm">
        <p className="font-medium break-all text-gray-900">{s.email}</p>
        <p className="break-words text-gray-600">{s.name}</p>
        <p className="mt-1 text-xs text-gray-500">
          Consent: {source(s.consentSource)}, <DateTime value={s.consentedAt} />
          {s.confirmedAt ? (
            <>
              {" "}
              · confirmed <DateTime value={s.confirmedAt} />
            </>
          ) : null}
          {s.unsubscribedAt ? (
            <>
              {" "}
              · left by {source(s.unsubscribeSource ?? "")}, <DateTime value={s.unsubscribedAt} />
            </>
          ) : null}
        </p>
      </div>
      <div className="flex shrink-0 flex-wrap items-center gap-2">
        <Badge tone={STATUS_TONE[s.status]}>{STATUS_LABEL[s.status]}</Badge>
        {s.status !== "UNSUBSCRIBED" ? (
          <Button size="sm" aria-label={`Unsubscribe ${s.email}`} onClick={onUnsubscribe}>
            Unsubscribe
          </Button>
        ) : null}
      </div>
    </>
  );
}
