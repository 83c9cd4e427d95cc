"use client";

/**
 * The moderators' "Illegal-content notices" (tRPC dsa.*; docs/privacy.md, "Illegal-content
 * notices"): each notice with the comment it names, the notifier's category, law or reason and
 * contact; the decision form (action, category, ground and its reference, facts, automated means),
 * which mails the statement of reasons to the author and the decision to the notifier; and the
 * appeals waiting, decided upheld or reversed with reasons. Readers' text is shown as text.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";

import { useTRPC } from "@/components/trpc/react";
import {
  Badge,
  Button,
  Checkbox,
  DateTime,
  ErrorAlert,
  FormField,
  ListStatus,
  LoadState,
  Panel,
  Select,
  StatusFilter,
  Textarea,
} from "@/components/ui";
import {
  DSA_DECISION_CATEGORIES,
  type TDsaDecisionCategory,
  type TDsaNoticeRow,
} from "@/server/engagement/dsa/dsa.schema";

import { dsaLabel } from "./dsa-labels";

type Status = "open" | "decided" | "appealed" | "all";
const STATUS_LABEL: Record<Exclude<Status, "all">, string> = {
  open: "Waiting",
  appealed: "Appeal waiting",
  decided: "Decided",
};

export function DsaNotices() {
  const trpc = useTRPC();
  const [status, setStatus] = useState<Exclude<Status, "all"> | "">("open");
  const [done, setDone] = useState<string | null>(null);
  const list = useQuery(trpc.dsa.notices.queryOptions({ status: status || "all" }));
  const notices = list.data?.notices ?? [];
  return (
    <Panel
      title="Illegal-content notices"
      data-testid="dsa-notices"
      actions={<StatusFilter value={status} onChange={setStatus} labels={STATUS_LABEL} />}
    >
      <ListStatus message={done} />
      <LoadState
        query={list}
        what="notices"
        empty={notices.length === 0}
        emptyText="No notices here. Readers' notices of illegal content (EU Digital Services Act) appear here."
      />
      <ul className="divide-y divide-gray-100">
        {notices.map((n) => (
          <NoticeRow key={n.id} notice={n} onDone={setDone} />
        ))}
      </ul>
    </Panel>
  );
}

function NoticeRow({ notice: n, onDone }: { notice: TDsaNoticeRow; onDone: (text: string) => void }) {
  return (
    <li className="space-y-3 px-4 py-4" data-testid="dsa-notice">
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <span className="font-semibold text-gray-900">Notice {n.id}</span>
        <Badge tone="amber">{dsaLabel(n.category)}</Badge>
        <span className="text-gray-600">
          received <DateTime value={new Date(n.createdAt)} />
        </span>
      </div>
      {n.comment ? (
        <blockquote className="border-s-4 border-gray-200 ps-3 text-sm break-words whitespace-pre-wrap text-gray-800">
          {n.comment.text}
          <span className="mt-1 block text-xs break-all text-gray-500">
            {n.comment.headline ?? n.comment.url} · {n.comment.published ? "published" : "not published"}
          </span>
        </blockquote>
      ) : (
        <p className="text-sm text-gray-600">The comment no longer exists.</p>
      )}
      <p className="text-sm break-words whitespace-pre-wrap text-gray-800">
        <span className="font-medium">Law or reason: </span>
        {n.lawOrReason}
      </p>
      <p className="text-sm break-all text-gray-600">
        Notifier: {n.notifierName ?? "no name"} · {n.notifierEmail ?? "no e-mail"}
        {n.signedIn ? " · signed in" : ""}
      </p>
      {n.decision ? <DecisionSummary decision={n.decision} /> : <DecideForm notice={n} onDone={onDone} />}
      {n.appeals.map((a) => (
        <AppealBlock key={a.id} appeal={a} onDone={onDone} />
      ))}
    </li>
  );
}

function DecisionSummary({ decision: d }: { decision: NonNullable<TDsaNoticeRow["decision"]> }) {
  return (
    <div className="rounded-md bg-gray-50 p-3 text-sm break-words text-gray-800">
      <p>
        <span className="font-medium">Decided</span> <DateTime value={new Date(d.decidedAt)} />: {dsaLabel(d.action)} ·{" "}
        {dsaLabel(d.category)} · {dsaLabel(d.ground)}: {d.groundReference}
        {d.automated ? " · automated means used" : ""}
      </p>
      <p className="whitespace-pre-wrap">Facts: {d.facts}</p>
    </div>
  );
}

function useInvalidate() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: trpc.dsa.notices.pathKey() }),
      queryClient.invalidateQueries({ queryKey: trpc.dsa.report.pathKey() }),
    ]);
}

function DecideForm({ notice, onDone }: { notice: TDsaNoticeRow; onDone: (text: string) => void }) {
  const trpc = useTRPC();
  const invalidate = useInvalidate();
  const [action, setAction] = useState<"remove" | "restrict" | "none">("remove");
  const [category, setCategory] = useState<TDsaDecisionCategory>(notice.category as TDsaDecisionCategory);
  const [ground, setGround] = useState<"legal" | "terms">("legal");
  const [reference, setReference] = useState("");
  const [facts, setFacts] = useState("");
  const [automated, setAutomated] = useState(false);
  const decide = useMutation(
    trpc.dsa.decide.mutationOptions({
      onSuccess: async () => {
        onDone(`Notice ${notice.id} decided: the statement of reasons and the decision are mailed.`);
        await invalidate();
      },
    }),
  );
  return (
    <form
      className="grid gap-3 sm:grid-cols-2"
      aria-label={`Decide notice ${notice.id}`}
      onSubmit={(e) => {
        e.preventDefault();
        decide.mutate({
          noticeId: notice.id,
          action,
          category,
          ground,
          groundReference: reference,
          facts,
          automated,
        });
      }}
    >
      <FormField label="Action">
        <Select
          value={action}
          onChange={(e) => setAction(e.target.value as typeof action)}
          options={["remove", "restrict", "none"].map((v) => ({ value: v, label: dsaLabel(v) }))}
        />
      </FormField>
      <FormField label="Category">
        <Select
          value={category}
          onChange={(e) => setCategory(e.target.value as TDsaDecisionCategory)}
          options={DSA_DECISION_CATEGORIES.map((v) => ({ value: v, label: dsaLabel(v) }))}
        />
      </FormField>
      <FormField label="Ground">
        <Select
          value={ground}
          onChange={(e) => setGround(e.target.value as typeof ground)}
          options={["legal", "terms"].map((v) => ({ value: v, label: dsaLabel(v) }))}
        />
      </FormField>
      <FormField label={ground === "legal" ? "The law" : "The guidelines' clause"}>
        <Textarea rows={1} required maxLength={500} value={reference} onChange={(e) => setReference(e.target.value)} />
      </FormField>
      <FormField label="Facts and circumstances" className="sm:col-span-2">
        <Textarea rows={3} required maxLength={2000} value={facts} onChange={(e) => setFacts(e.target.value)} />
      </FormField>
      <Checkbox
        label="Automated means were used in this decision"
        checked={automated}
        onChange={(e) => setAutomated(e.target.checked)}
      />
      <div className="sm:col-span-2">
        {decide.error ? <ErrorAlert error={decide.error} /> : null}
        <Button type="submit" variant="primary" disabled={decide.isPending}>
          Decide and send the statement of reasons
        </Button>
      </div>
    </form>
  );
}

function AppealBlock({
  appeal: a,
  onDone,
}: {
  appeal: TDsaNoticeRow["appeals"][number];
  onDone: (text: string) => void;
}) {
  const trpc = useTRPC();
  const invalidate = useInvalidate();
  const [outcome, setOutcome] = useState<"upheld" | "reversed">("upheld");
  const [reasons, setReasons] = useState("");
  const decide = useMutation(
    trpc.dsa.decideAppeal.mutationOptions({
      onSuccess: async () => {
        onDone(`Appeal ${a.id} decided: both parties are told.`);
        await invalidate();
      },
    }),
  );
  return (
    <div className="rounded-md border border-amber-200 p-3 text-sm" data-testid="dsa-appeal">
      <p className="font-medium text-gray-900">
        Appeal by the {dsaLabel(a.party).toLowerCase()}
        {a.submittedAt ? (
          <>
            {" "}
            · <DateTime value={new Date(a.submittedAt)} />
          </>
        ) : null}
      </p>
      <p className="break-words whitespace-pre-wrap text-gray-800">{a.text}</p>
      {a.outcome ? (
        <p className="mt-2 break-words text-gray-800">
          {dsaLabel(a.outcome)}: {a.reasons}
        </p>
      ) : (
        <form
          className="mt-2 grid gap-3 sm:grid-cols-2"
          aria-label={`Decide appeal ${a.id}`}
          onSubmit={(e) => {
            e.preventDefault();
            decide.mutate({ appealId: a.id, outcome, reasons });
          }}
        >
          <FormField label="Outcome">
            <Select
              value={outcome}
              onChange={(e) => setOutcome(e.target.value as typeof outcome)}
              options={[
                { value: "upheld", label: "Uphold the decision" },
                { value: "reversed", label: "Reverse it" },
              ]}
            />
          </FormField>
          <FormField label="Reasons">
            <Textarea rows={2} required maxLength={2000} value={reasons} onChange={(e) => setReasons(e.target.value)} />
          </FormField>
          <div className="sm:col-span-2">
            {decide.error ? <ErrorAlert error={decide.error} /> : null}
            <Button type="submit" variant="primary" disabled={decide.isPending}>
              Decide the appeal
            </Button>
          </div>
        </form>
      )}
    </div>
  );
}
