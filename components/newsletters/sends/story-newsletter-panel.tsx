"use client";

/**
 * The story editor's Newsletter panel (docs/newsletters.md "Sending"): choose newsletters and a
 * subject (the headline when left empty), send a test to up to five staff addresses, then "Publish
 * and send" an approved story (one transaction) or "Send" a published one, after a confirmation that
 * shows the mail as readers get it and says how many readers it reaches. While the site URL is not
 * set, sending is not offered (the mail's story link would lead nowhere; the server refuses too) and
 * the panel says where to set it. Below, the story's sends with their state.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";

import type { StoryDraft } from "@/components/content/stories/use-story-draft";
import { useTRPC } from "@/components/trpc/react";
import type { RouterOutputs } from "@/components/trpc/types";
import {
  Alert,
  Button,
  Checkbox,
  DateTime,
  ErrorAlert,
  Fieldset,
  FormField,
  Input,
  serverErrors,
  TextLink,
  useConfirm,
} from "@/components/ui";

import { previewDocument } from "./mail-preview";
import { sendBlockedReason, testBlockedReason } from "./send-blocked";
import { SendStatus } from "./send-status";

const splitAddresses = (text: string) =>
  text
    .split(/[\s,;]+/)
    .map((a) => a.trim())
    .filter(Boolean);

type Draft = Pick<StoryDraft, "current" | "dirty" | "settle" | "options">;
type Story = NonNullable<StoryDraft["current"]>;
type Choice = RouterOutputs["newsletterSends"]["choices"][number];

export function StoryNewsletterPanel({ draft }: { draft: Draft }) {
  if (!draft.current) return null;
  // stories.options gives the site URL only when it is set (not Masthead's own address).
  const siteUrlMissing = Boolean(draft.options) && !draft.options?.siteUrl;
  return <NewsletterSending current={draft.current} draft={draft} siteUrlMissing={siteUrlMissing} />;
}

/** Test, send and publish-and-send, and what the last of them said. */
function useSendMutations(storyId: string, settle: Draft["settle"]) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [message, setMessage] = useState<string | null>(null);
  const refreshSends = () => queryClient.invalidateQueries({ queryKey: trpc.newsletterSends.list.queryKey() });
  const test = useMutation(
    trpc.newsletterSends.test.mutationOptions({
      onSuccess: (r) =>
        setMessage(`Test sent to ${r.queued} ${r.queued === 1 ? "address" : "addresses"}: see the Outbox.`),
    }),
  );
  const send = useMutation(
    trpc.newsletterSends.send.mutationOptions({
      onSuccess: async () => {
        setMessage("Sending: the send is listed below.");
        await refreshSends();
      },
    }),
  );
  const publishAndSend = useMutation(
    trpc.newsletterSends.publishAndSend.mutationOptions({
      onSuccess: async () => {
        await refreshSends();
        const next = await queryClient.fetchQuery({ ...trpc.stories.get.queryOptions({ id: storyId }), staleTime: 0 });
        await settle(next, "Published, and sending to the newsletter.");
      },
    }),
  );
  return { message, setMessage, test, send, publishAndSend };
}

/**
 * Send (or publish and send) after a confirmation that shows the mail as readers get it and how
 * many readers it reaches; a preview that cannot be made is said in `previewError`.
 */
function useConfirmedSend(args: {
  current: Story;
  chosen: number[];
  picked: Choice[];
  subject: string | undefined;
  mutations: ReturnType<typeof useSendMutations>;
}) {
  const { current, chosen, picked, subject, mutations } = args;
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const confirm = useConfirm();
  const [previewError, setPreviewError] = useState<string | null>(null);
  const storyId = current.id;
  const published = current.status === "PUBLISHED";
  const recipients = picked.reduce((sum, n) => sum + n.recipients, 0);
  const go = async () => {
    mutations.setMessage(null);
    setPreviewError(null);
    let preview: { subject: string; html: string };
    try {
      preview = await queryClient.fetchQuery({
        ...trpc.newsletterSends.preview.queryOptions({ storyId, newsletterId: chosen[0]!, subject }),
        staleTime: 0,
      });
    } catch (caught) {
      setPreviewError(caught instanceof Error ? caught.message : "The mail's preview could not be made.");
      return;
    }
    const ok = await confirm({
      title: `${published ? "Send" : "Publish and send"} to ${recipients.toLocaleString("en")} ${recipients === 1 ? "reader" : "readers"}?`,
      size: "lg",
      body: <SendPreview preview={preview} picked={picked} />,
      confirmLabel: published ? "Send" : "Publish and send",
      tone: "primary",
    });
    if (!ok) return;
    if (published) mutations.send.mutate({ storyId, newsletterIds: chosen, subject });
    else mutations.publishAndSend.mutate({ storyId, version: current.version, newsletterIds: chosen, subject });
  };
  return { go, previewError };
}

function SendPreview({ preview, picked }: { preview: { subject: string; html: string }; picked: Choice[] }) {
  return (
    <div className="space-y-3">
      <p>
        “{preview.subject}” goes to {picked.map((n) => `${n.name} (${n.recipients.toLocaleString("en")})`).join(", ")}.
        A send cannot be taken back once mails have left.
      </p>
      <p className="text-xs text-gray-600">The mail as readers get it ({picked[0]?.name}):</p>
      <iframe
        title="Preview of the mail"
        data-testid="newsletter-mail-preview"
        sandbox="allow-scripts"
        srcDoc={previewDocument(preview.html)}
        className="h-96 w-full rounded border border-gray-300 bg-white"
      />
    </div>
  );
}

function NewsletterSending({
  current,
  draft,
  siteUrlMissing,
}: {
  current: Story;
  draft: Draft;
  siteUrlMissing: boolean;
}) {
  const trpc = useTRPC();
  const [chosen, setChosen] = useState<number[]>([]);
  const [subject, setSubject] = useState("");
  const [testTo, setTestTo] = useState("");
  const storyId = current.id;
  const choices = useQuery(trpc.newsletterSends.choices.queryOptions());
  const mutations = useSendMutations(storyId, draft.settle);
  const { test, send, publishAndSend } = mutations;
  const newsletters = choices.data ?? [];
  const subjectValue = subject.trim() || undefined;
  const { go, previewError } = useConfirmedSend({
    current,
    chosen,
    picked: newsletters.filter((n) => chosen.includes(n.id)),
    subject: subjectValue,
    mutations,
  });
  const canPublish = current.moves.some((m) => m.action === "publish");
  // The self-approval rule: the writer sees "Publish and send" disabled, with why.
  const publishBlocked = current.blockedMoves.find((m) => m.action === "publish")?.reason ?? null;
  const published = current.status === "PUBLISHED";
  const sendable = Boolean(published || canPublish || publishBlocked);
  const sendLabel = published ? "Send" : "Publish and send";
  const busy = test.isPending || send.isPending || publishAndSend.isPending;
  const errors = serverErrors(test.error ?? send.error ?? publishAndSend.error, ["subject", "to", "newsletterIds"]);
  const testBlocked = testBlockedReason({ chosen: chosen.length, addresses: splitAddresses(testTo).length });
  const sendBlocked = sendBlockedReason({
    chosen: chosen.length,
    dirty: draft.dirty,
    blocked: published ? null : publishBlocked,
  });

  return (
    <div className="space-y-3 text-sm" data-testid="story-newsletter-panel">
      <ErrorAlert error={choices.error} />
      <NewsletterChoices
        newsletters={newsletters}
        none={newsletters.length === 0 && choices.isSuccess}
        chosen={chosen}
        setChosen={setChosen}
      />
      <FormField label="Subject" optional hint="The headline when left empty." error={errors.fields.subject}>
        <Input
          value={subject}
          placeholder={current.headline}
          maxLength={250}
          onChange={(e) => setSubject(e.target.value)}
        />
      </FormField>
      <FormField
        label="Test addresses"
        hint="Up to five staff addresses, separated by commas."
        error={errors.fields.to}
      >
        <Input value={testTo} type="text" inputMode="email" onChange={(e) => setTestTo(e.target.value)} />
      </FormField>
      <div className="flex flex-wrap gap-2">
        <Button
          size="sm"
          disabled={busy || testBlocked !== null}
          aria-describedby={testBlocked ? "newsletter-test-blocked" : undefined}
          loading={test.isPending}
          onClick={() => {
            mutations.setMessage(null);
            test.mutate({ storyId, newsletterId: chosen[0]!, subject: subjectValue, to: splitAddresses(testTo) });
          }}
        >
          Send test
        </Button>
        {sendable && !siteUrlMissing ? (
          <Button
            size="sm"
            variant="primary"
            disabled={busy || sendBlocked !== null}
            aria-describedby={sendBlocked ? "newsletter-send-blocked" : undefined}
            loading={send.isPending || publishAndSend.isPending}
            onClick={() => void go()}
          >
            {sendLabel}
          </Button>
        ) : null}
      </div>
      <SendNotes
        siteUrlMissing={siteUrlMissing && sendable}
        previewError={previewError}
        testBlocked={testBlocked}
        sendBlocked={sendable ? sendBlocked : null}
        sendLabel={sendLabel}
        unsendable={!sendable}
      />
      <p role="status" aria-live="polite" className="text-xs text-green-800" data-testid="newsletter-send-message">
        {mutations.message}
      </p>
      <ErrorAlert errors={errors} />
      <StorySends storyId={storyId} />
      <TextLink href="/admin/newsletters/sends" className="text-xs">
        All newsletter sends
      </TextLink>
    </div>
  );
}

function NewsletterChoices({
  newsletters,
  none,
  chosen,
  setChosen,
}: {
  newsletters: Choice[];
  none: boolean;
  chosen: number[];
  setChosen: (update: (chosen: number[]) => number[]) => void;
}) {
  if (none) return <p className="text-gray-600">No newsletters yet: an owner creates them under Newsletters.</p>;
  return (
    <Fieldset legend="Newsletters">
      {newsletters.map((n) => (
        <Checkbox
          key={n.id}
          label={n.name}
          description={`${n.recipients.toLocaleString("en")} ${n.recipients === 1 ? "reader" : "readers"}`}
          checked={chosen.includes(n.id)}
          onChange={(e) => setChosen((c) => (e.target.checked ? [...c, n.id] : c.filter((id) => id !== n.id)))}
        />
      ))}
    </Fieldset>
  );
}

/** Why a button is off, or why sending is not offered at all. */
function SendNotes(props: {
  siteUrlMissing: boolean;
  previewError: string | null;
  testBlocked: string | null;
  sendBlocked: string | null;
  sendLabel: string;
  unsendable: boolean;
}) {
  return (
    <>
      {props.siteUrlMissing ? (
        <Alert tone="warning" data-testid="newsletter-site-url-missing">
          Sending is not possible yet: the site&apos;s public URL is not set, so the mail&apos;s link to the story would
          lead nowhere. Set it in <TextLink href="/admin/settings">Settings → Site</TextLink>.
        </Alert>
      ) : null}
      {props.previewError ? <Alert tone="error">{props.previewError}</Alert> : null}
      {props.testBlocked ? (
        <p id="newsletter-test-blocked" className="text-xs text-gray-700" data-testid="newsletter-test-blocked">
          Send test: {props.testBlocked}
        </p>
      ) : null}
      {props.sendBlocked ? (
        <p id="newsletter-send-blocked" className="text-xs text-amber-800" data-testid="newsletter-send-blocked">
          {props.sendLabel}: {props.sendBlocked}
        </p>
      ) : null}
      {props.unsendable ? (
        <p className="text-xs text-gray-500">
          A story is sent when it is published, or with its publication once approved.
        </p>
      ) : null}
    </>
  );
}

/** The story's sends with their state. */
function StorySends({ storyId }: { storyId: string }) {
  const trpc = useTRPC();
  const sends = useQuery(trpc.newsletterSends.list.queryOptions({ storyId }));
  if (!sends.data?.items.length) return null;
  return (
    <div className="border-t border-gray-100 pt-3">
      <h3 className="text-xs font-semibold text-gray-900">Sent with newsletters</h3>
      <ul className="mt-1 space-y-1" data-testid="story-sends">
        {sends.data.items.map((s) => (
          <li key={s.id} className="flex flex-wrap items-center gap-x-2 text-xs text-gray-700">
            <span className="font-medium">{s.newsletterName}</span>
            <SendStatus status={s.status} />
            <span>
              {s.sent.toLocaleString("en")} of {s.recipients.toLocaleString("en")} sent
            </span>
            <DateTime value={s.finishedAt ?? s.startedAt ?? s.createdAt} className="text-gray-500" />
          </li>
        ))}
      </ul>
    </div>
  );
}
