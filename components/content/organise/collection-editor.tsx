"use client";

/**
 * One collection: its details; for a manual one, its items in order (./collection-items-editor.tsx);
 * for an automated one, its rules (./collection-rules-editor.tsx). Nothing is saved until
 * "Save details", "Save order" or "Save rules".
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState } from "react";

import { useTRPC } from "@/components/trpc/react";
import type { RouterOutputs } from "@/components/trpc/types";
import {
  Badge,
  Button,
  ErrorAlert,
  Fieldset,
  FormField,
  Input,
  LoadError,
  Loading,
  Panel,
  RadioChoices,
  serverErrors,
  Textarea,
  TextLink,
  useConfirm,
} from "@/components/ui";

import { ItemsEditor } from "./collection-items-editor";
import { RulesEditor } from "./collection-rules-editor";

type Detail = RouterOutputs["organise"]["collections"]["get"];

export function CollectionEditor({ id }: { id: number }) {
  const trpc = useTRPC();
  const collection = useQuery(trpc.organise.collections.get.queryOptions({ id }));
  if (collection.isPending) return <Loading what="the collection" />;
  if (collection.isError) return <LoadError what="collection" error={collection.error} onRetry={collection.refetch} />;
  // Keyed by the saved state, so a save (or a reload) starts the drafts afresh.
  return <Editor key={collection.data.updatedAt.toISOString()} collection={collection.data} />;
}

function Editor({ collection }: { collection: Detail }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const router = useRouter();
  const confirm = useConfirm();
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: trpc.organise.collections.get.queryKey({ id: collection.id }) }),
      queryClient.invalidateQueries({ queryKey: trpc.organise.collections.list.queryKey() }),
    ]);
  const remove = useMutation(
    trpc.organise.collections.delete.mutationOptions({ onSuccess: () => router.push("/admin/content/collections") }),
  );
  const [automated, setAutomated] = useState(collection.automated);

  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-center gap-2">
        <TextLink href="/admin/content/collections" className="text-sm">
          ← All collections
        </TextLink>
        <span className="font-mono text-xs text-gray-500">{collection.slug}</span>
        {collection.section ? <Badge tone="amber">Section: {collection.section.name}</Badge> : null}
        {collection.automated ? <Badge tone="blue">Automated</Badge> : <Badge tone="green">Manual</Badge>}
      </div>
      <DetailsForm collection={collection} onSaved={refresh} />

      <Panel title="Contents">
        <div className="border-b border-gray-200 px-4 py-3">
          <Fieldset legend="How items are chosen" hideLegend>
            <RadioChoices
              value={automated}
              onChange={setAutomated}
              options={[
                { value: false, label: "Manual (ordered by hand)" },
                { value: true, label: "Automated (by rules)" },
              ]}
            />
          </Fieldset>
          {automated !== collection.automated ? (
            <p className="mt-2 text-xs text-amber-800">
              {automated
                ? "Save the rules below to make this collection automated. Its items are kept, unused, in case you switch back."
                : "Save the order below to make this collection manual."}
            </p>
          ) : null}
        </div>
        {automated ? (
          <RulesEditor collection={collection} onSaved={refresh} />
        ) : (
          <ItemsEditor collection={collection} onSaved={refresh} />
        )}
      </Panel>

      {!collection.section ? (
        <div className="space-y-2">
          <ErrorAlert error={remove.error} />
          <Button
            variant="danger"
            loading={remove.isPending}
            onClick={async () => {
              const ok = await confirm({
                title: `Delete the collection "${collection.name}"?`,
                body: "It is also taken out of collections that contain it.",
                confirmLabel: "Delete",
              });
              if (ok) remove.mutate({ id: collection.id });
            }}
          >
            Delete collection
          </Button>
        </div>
      ) : null}
    </div>
  );
}

/** The metadata textarea as an object, or undefined when it is not a JSON object. */
function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    const parsed = JSON.parse(text || "{}") as unknown;
    return typeof parsed === "object" && parsed !== null && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

function DetailsForm({ collection, onSaved }: { collection: Detail; onSaved: () => Promise<unknown> }) {
  const trpc = useTRPC();
  const [values, setValues] = useState({
    name: collection.name,
    slug: collection.slug,
    summary: collection.summary,
    template: collection.template,
    metadata: JSON.stringify(collection.metadata, null, 2),
  });
  const [metadataError, setMetadataError] = useState<string | undefined>();
  const update = useMutation(trpc.organise.collections.update.mutationOptions({ onSuccess: onSaved }));
  const errors = serverErrors(update.error, ["name", "slug", "summary", "template", "metadata"]);
  const set = (patch: Partial<typeof values>) => setValues({ ...values, ...patch });
  return (
    <Panel title="Details">
      <form
        className="space-y-4 px-4 py-4"
        onSubmit={(event) => {
          event.preventDefault();
          const metadata = parseObject(values.metadata);
          if (!metadata) return setMetadataError("must be a JSON object");
          setMetadataError(undefined);
          update.mutate({ id: collection.id, ...values, metadata });
        }}
      >
        <div className="grid gap-4 sm:grid-cols-2">
          <FormField label="Collection name" error={errors.fields.name}>
            <Input required maxLength={200} value={values.name} onChange={(e) => set({ name: e.target.value })} />
          </FormField>
          <FormField label="Slug" error={errors.fields.slug}>
            <Input
              required
              maxLength={100}
              value={values.slug}
              onChange={(e) => set({ slug: e.target.value })}
              className="font-mono"
            />
          </FormField>
          <FormField label="Summary" error={errors.fields.summary}>
            <Input maxLength={2000} value={values.summary} onChange={(e) => set({ summary: e.target.value })} />
          </FormField>
          <FormField
            label="Template"
            hint="What front ends render it with, e.g. default, four-col."
            error={errors.fields.template}
          >
            <Input
              required
              maxLength={100}
              value={values.template}
              onChange={(e) => set({ template: e.target.value })}
            />
          </FormField>
        </div>
        <FormField label="Metadata (JSON)" error={metadataError ?? errors.fields.metadata}>
          <Textarea
            rows={3}
            value={values.metadata}
            onChange={(e) => set({ metadata: e.target.value })}
            className="font-mono"
          />
        </FormField>
        <ErrorAlert errors={errors} />
        <Button type="submit" variant="primary" loading={update.isPending} loadingText="Saving…">
          Save details
        </Button>
      </form>
    </Panel>
  );
}
