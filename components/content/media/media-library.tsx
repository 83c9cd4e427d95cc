"use client";

/**
 * The media library page: the grid of the account's uploads (search, "Unused", pages) and, for the
 * picked image, its details: preview, size, who uploaded it and when, where it is used (stories
 * linked), its alt text (editable), its key (copy), and Delete while nothing uses it.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";

import { useTRPC } from "@/components/trpc/react";
import {
  Button,
  DateTime,
  ErrorAlert,
  FormField,
  Panel,
  serverErrors,
  Textarea,
  TextLink,
  useConfirm,
} from "@/components/ui";
import { ALT_MAX_LENGTH, type TMediaItem } from "@/server/publishing/editorial/media.schema";

import { formatBytes, MediaFilters, MediaGrid, mediaLabel, MediaPager, useMediaQuery } from "./media-browser";

export function MediaLibrary() {
  const media = useMediaQuery();
  const [selectedKey, setSelectedKey] = useState<string | null>(null);
  const total = media.query.data?.total;
  return (
    <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_20rem]">
      <Panel
        title={
          <>Images{total !== undefined ? <span className="ml-1 font-normal text-gray-500">({total})</span> : null}</>
        }
        actions={<MediaFilters media={media} />}
        padded
      >
        <MediaGrid
          media={media}
          label="Uploaded images"
          selectedKey={selectedKey}
          onPick={(item) => setSelectedKey(item.key)}
          emptyText={
            media.filter === "unused"
              ? "Every image is used somewhere."
              : "No images yet: upload one from a story, an author or a collection."
          }
        />
        <MediaPager media={media} />
      </Panel>
      {selectedKey ? (
        <MediaDetails key={selectedKey} imageKey={selectedKey} onDeleted={() => setSelectedKey(null)} />
      ) : (
        <p className="text-sm text-gray-600">Pick an image to see where it is used and edit its alt text.</p>
      )}
    </div>
  );
}

function MediaDetails({ imageKey, onDeleted }: { imageKey: string; onDeleted: () => void }) {
  const trpc = useTRPC();
  const image = useQuery(trpc.media.get.queryOptions({ key: imageKey }));
  if (!image.data)
    return (
      <Panel title="Image" padded>
        <ErrorAlert error={image.error} />
        {image.isPending ? <p className="text-sm text-gray-600">Loading…</p> : null}
      </Panel>
    );
  return <Details image={image.data} onDeleted={onDeleted} />;
}

function Details({ image, onDeleted }: { image: TMediaItem; onDeleted: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const confirm = useConfirm();
  const [alt, setAlt] = useState(image.alt);
  const [copied, setCopied] = useState(false);
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.media.pathKey() });
  const save = useMutation(
    trpc.media.updateAlt.mutationOptions({
      onSuccess: async (saved) => {
        setAlt(saved.alt); // as stored: cleaned to plain text
        await refresh();
      },
    }),
  );
  const remove = useMutation(
    trpc.media.delete.mutationOptions({
      onSuccess: async () => {
        onDeleted();
        await refresh();
      },
    }),
  );
  const problems = serverErrors(save.error, ["alt"]);
  const used = image.usedIn.length > 0;

  return (
    <Panel title={<span className="break-all">{mediaLabel(image)}</span>} padded data-testid="media-details">
      <a href={image.url} target="_blank" rel="noreferrer" className="block rounded focus-visible:ring-2">
        {/* eslint-disable-next-line @next/next/no-img-element -- an uploaded file, served by /images */}
        <img src={image.thumbUrl} alt={image.alt} className="mx-auto max-h-48 rounded ring-1 ring-gray-200" />
        <span className="sr-only">Open the original (new tab)</span>
      </a>
      <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-1 text-sm">
        <dt className="text-gray-600">Size</dt>
        <dd data-testid="media-dimensions">
          {image.width && image.height ? `${image.width} × ${image.height} px` : "unknown"}, {formatBytes(image.bytes)},{" "}
          {image["mime-type"]}
        </dd>
        <dt className="text-gray-600">Uploaded</dt>
        <dd>
          <DateTime value={image.createdAt} />
          {image.uploadedBy ? ` by ${image.uploadedBy}` : null}
        </dd>
        <dt className="text-gray-600">Key</dt>
        <dd className="flex flex-wrap items-center gap-2">
          <code className="font-mono text-xs break-all" data-testid="media-key">
            {image.key}
          </code>
          <Button size="sm" onClick={() => void navigator.clipboard?.writeText(image.key).then(() => setCopied(true))}>
            {copied ? "Copied" : "Copy key"}
          </Button>
        </dd>
      </dl>

      <form
        className="space-y-2"
        onSubmit={(event) => {
          event.preventDefault();
          save.mutate({ key: image.key, alt });
        }}
      >
        <FormField
          label="Alt text"
          hint="What the image shows, for readers who cannot see it. Offered when the image is chosen for a story."
          error={problems.fields.alt}
        >
          <Textarea rows={3} maxLength={ALT_MAX_LENGTH} value={alt} onChange={(event) => setAlt(event.target.value)} />
        </FormField>
        <ErrorAlert errors={problems} />
        <div className="flex items-center gap-2">
          <Button type="submit" variant="primary" size="sm" loading={save.isPending} loadingText="Saving…">
            Save alt text
          </Button>
          {save.isSuccess ? (
            <span role="status" className="text-xs text-green-800">
              Saved.
            </span>
          ) : null}
        </div>
      </form>

      <section aria-label="Used in" className="space-y-1">
        <h3 className="text-sm font-semibold text-gray-900">Used in</h3>
        {used ? (
          <ul className="space-y-1 text-sm" data-testid="media-used-in">
            {image.usedIn.map((use, i) => (
              <li key={`${use.kind}-${use.id}-${use.field}-${i}`} className="break-words">
                <span className="text-gray-600">{use.kind}: </span>
                {use.href ? <TextLink href={use.href}>{use.label || "(untitled)"}</TextLink> : use.label}
                <span className="ml-1 font-mono text-xs text-gray-500">{use.field}</span>
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-sm text-gray-600" data-testid="media-unused">
            Nothing uses this image.
          </p>
        )}
      </section>

      <div className="space-y-2 border-t border-gray-200 pt-3">
        <ErrorAlert error={remove.error} />
        <Button
          variant="danger"
          size="sm"
          disabled={used}
          loading={remove.isPending}
          loadingText="Deleting…"
          aria-describedby={used ? "media-delete-why" : undefined}
          onClick={async () => {
            const ok = await confirm({
              title: "Delete this image?",
              body: "Its file and thumbnail are removed for good. Nothing uses it now.",
              confirmLabel: "Delete image",
            });
            if (ok) remove.mutate({ key: image.key });
          }}
        >
          Delete image
        </Button>
        {used ? (
          <p id="media-delete-why" className="text-xs text-gray-600">
            Only an unused image can be deleted: take it out of what uses it first.
          </p>
        ) : null}
      </div>
    </Panel>
  );
}
