"use client";

/**
 * The "Paywall point" section of the paywall meter page (paywallPoint.get, paywallPoint.update;
 * revenue staff read, owners change): the default number of free elements of a closed story and
 * what the public content API serves of it. Checked with the server's zod schema before sending.
 */
import { useMutation, useQuery } from "@tanstack/react-query";

import { useTRPC } from "@/components/trpc/react";
import {
  Alert,
  Fieldset,
  FormField,
  Panel,
  RadioChoices,
  SettingsFormShell,
  SettingsLoader,
  useSettingsDraft,
  useThenRefetch,
  WholeNumberInput,
  type SettingsEditorProps,
} from "@/components/ui";
import {
  ZPaywallPointInput,
  type TPaywallPointInput,
  type TPaywallPointView,
} from "@/server/publishing/paywall-settings.schema";

const FIELDS = ["paywallDefaultElements", "contentApiAccess"] as const;

export function PaywallPointSettings() {
  const trpc = useTRPC();
  return (
    <SettingsLoader<TPaywallPointView, true>
      query={useQuery(trpc.paywallPoint.get.queryOptions())}
      what="paywall point settings"
      editorKey={(view) => `${view.paywallDefaultElements} ${view.contentApiAccess}`}
    >
      {(editor) => <Editor {...editor} />}
    </SettingsLoader>
  );
}

type Draft = Omit<TPaywallPointInput, "paywallDefaultElements"> & { paywallDefaultElements: string };

function Editor({ view, saved, setSaved }: SettingsEditorProps<TPaywallPointView, true>) {
  const trpc = useTRPC();
  const save = useMutation(
    trpc.paywallPoint.update.mutationOptions({
      onSuccess: useThenRefetch(() => setSaved(true), trpc.paywallPoint.pathKey()),
    }),
  );
  const { draft, set, errors, error, check } = useSettingsDraft<Draft, (typeof FIELDS)[number]>({
    initial: { paywallDefaultElements: String(view.paywallDefaultElements), contentApiAccess: view.contentApiAccess },
    fields: FIELDS,
    serverError: save.error,
    onEdit: () => setSaved(null),
  });
  return (
    <SettingsFormShell
      noValidate
      data-testid="paywall-point-form"
      onSave={() => {
        const checked = check(ZPaywallPointInput, {
          ...draft,
          paywallDefaultElements: Number(draft.paywallDefaultElements),
        });
        if (checked !== null) save.mutate(checked);
      }}
      errors={errors}
      saving={save.isPending}
      savedNote={saved ? "Saved: every kept answer is built again with these settings." : null}
      saveLabel="Save paywall point"
      canSave={view.canEdit}
    >
      <Panel title="Paywall point" padded>
        <FormField
          label="Free elements of a story that sets no paywall point"
          hint="Counted across the story's paragraphs, images and embeds, in order. Readers without access see these, then the paywall. 0: nothing before the paywall."
          error={error("paywallDefaultElements")}
        >
          <WholeNumberInput
            min={0}
            max={1000}
            disabled={!view.canEdit}
            value={draft.paywallDefaultElements}
            onChange={(e) => set({ paywallDefaultElements: e.target.value })}
          />
        </FormField>
        <Fieldset
          legend="What the public content API serves of a story for subscribers"
          error={error("contentApiAccess")}
        >
          <RadioChoices<TPaywallPointInput["contentApiAccess"]>
            name="content-api-access"
            value={draft.contentApiAccess}
            onChange={(contentApiAccess) => view.canEdit && set({ contentApiAccess })}
            options={[
              { value: "free_part", label: "Its free part, and a marker that it continues (safe)" },
              { value: "full", label: "All of it (as the original interface did)" },
            ]}
          />
        </Fieldset>
        <p className="text-sm text-gray-600">
          &ldquo;All of it&rdquo; means anyone who calls the content API, with no key or the public client key, reads
          the whole of every subscription story: your paywall then holds only in your own pages. With &ldquo;its free
          part&rdquo;, your front end passes the server key (the X-SUBAUTH header) to get whole stories and decides on
          its own pages. Feeds, AMP, newsletters to readers without a subscription and widgets always carry only the
          free part.
        </p>
        {!view.canEdit ? <Alert tone="info">Only the publication&rsquo;s owners change these settings.</Alert> : null}
      </Panel>
    </SettingsFormShell>
  );
}
