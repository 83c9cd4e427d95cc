"use client";

/**
 * The image elements of the card editor: one image (upload, key, caption, alt text, attribution and
 * its focus point) and a gallery of them.
 */
import { useId, useState } from "react";

import { imageMetadata, ImageUploadButton } from "@/components/content/image-upload";
import { Button, FormField, Input } from "@/components/ui";
import type { TStoryElement } from "@/server/publishing/cards.schema";
import type { TUploadedImage } from "@/server/publishing/editorial/organise.schema";

import { PlainField, type EditorProps } from "./plain-field";
import { focusPointFromClick, htmlToPlain, move, newImage, plainToHtml } from "./story-elements";

/** An uploaded image into an image element: key, size, type, and the alt text if the upload has one. */
function withUpload(element: TStoryElement, image: TUploadedImage): TStoryElement {
  const alt = (image as { alt?: string }).alt;
  const metadata = element.metadata;
  return {
    ...element,
    "image-s3-key": image.key,
    "image-metadata": imageMetadata(image),
    metadata: alt && !metadata.alt ? { ...metadata, alt: plainToHtml(alt) } : metadata,
  };
}

export function ImageFields({ element, position, onChange, compact }: EditorProps & { compact?: boolean }) {
  const metadata = element.metadata;
  const key = element["image-s3-key"] ?? "";
  return (
    <div className="grid gap-2 sm:grid-cols-2">
      <div className="sm:col-span-2">
        {key ? (
          <FocusPoint element={element} position={position} onChange={onChange} small={compact} />
        ) : (
          <p className="text-xs text-gray-500">No image yet.</p>
        )}
      </div>
      {compact ? null : (
        <FormField label={`Image key ${position}`} hint="Filled in by the upload; or the key of an uploaded image.">
          <Input
            value={key}
            onChange={(event) => onChange({ ...element, "image-s3-key": event.target.value })}
            placeholder="2026/03/photo.jpg"
            className="font-mono"
          />
        </FormField>
      )}
      <div className={compact ? "sm:col-span-2" : "self-end"}>
        <ImageUploadButton
          label={`${key ? "Replace" : "Upload"} image ${position}`}
          onUploaded={(image) => onChange(withUpload(element, image))}
        />
      </div>
      <PlainField
        label={`Caption ${position}`}
        optional
        value={element.title}
        onChange={(title) => onChange({ ...element, title })}
      />
      <PlainField
        label={`Alt text ${position}`}
        hint="What the image shows, for readers who cannot see it."
        value={typeof metadata.alt === "string" ? metadata.alt : ""}
        onChange={(alt) => onChange({ ...element, metadata: { ...metadata, alt } })}
      />
      <PlainField
        label={`Attribution ${position}`}
        optional
        value={element["image-attribution"]}
        onChange={(value) => onChange({ ...element, "image-attribution": value })}
      />
    </div>
  );
}

/** The preview: a click sets the focus point (in the image's pixels); two number fields do it by keyboard. */
function FocusPoint({ element, position, onChange, small }: EditorProps & { small?: boolean }) {
  const [loaded, setLoaded] = useState<{ width: number; height: number } | null>(null);
  const meta = (element["image-metadata"] ?? {}) as { width?: number; height?: number; "focus-point"?: number[] };
  // The stored size (from the upload), else the preview's own once it has loaded.
  const natural = () => ({ width: meta.width ?? loaded?.width ?? 0, height: meta.height ?? loaded?.height ?? 0 });
  const point = meta["focus-point"];
  const set = (next: [number, number] | undefined) => {
    const copy = { ...meta } as Record<string, unknown>;
    if (next) copy["focus-point"] = next;
    else delete copy["focus-point"];
    onChange({ ...element, "image-metadata": copy });
  };
  const size = natural();
  const id = useId();
  return (
    <div className="flex flex-wrap items-end gap-3">
      <div className={`relative ${small ? "w-40" : "w-full max-w-xs"}`}>
        {/* eslint-disable-next-line @next/next/no-img-element -- an uploaded image at its own URL */}
        <img
          onLoad={(event) =>
            setLoaded({ width: event.currentTarget.naturalWidth, height: event.currentTarget.naturalHeight })
          }
          src={`/images/${element["image-s3-key"]}`}
          alt={htmlToPlain((element.metadata as { alt?: string }).alt ?? "")}
          className="block h-auto w-full cursor-crosshair rounded ring-1 ring-gray-200"
          data-testid="focus-image"
          onClick={(event) => {
            const rect = event.currentTarget.getBoundingClientRect();
            set(
              focusPointFromClick(
                { x: event.clientX - rect.left, y: event.clientY - rect.top },
                { width: rect.width, height: rect.height },
                natural(),
              ),
            );
          }}
        />
        {point && size.width && size.height ? (
          <span
            aria-hidden="true"
            className="pointer-events-none absolute h-3 w-3 -translate-x-1/2 -translate-y-1/2 rounded-full border-2 border-white bg-brand-600 shadow"
            style={{ left: `${(point[0]! / size.width) * 100}%`, top: `${(point[1]! / size.height) * 100}%` }}
          />
        ) : null}
      </div>
      <fieldset className="flex items-end gap-2 text-xs">
        <legend className="mb-1 text-xs text-gray-600">
          Focus point {position} (pixels; click the image to set it)
        </legend>
        {(["x", "y"] as const).map((axis, i) => (
          <label key={axis} htmlFor={`${id}-${axis}`} className="flex items-center gap-1">
            {axis}
            <input
              id={`${id}-${axis}`}
              type="number"
              min={0}
              step={1}
              value={point?.[i] ?? ""}
              onChange={(event) => {
                const v = Math.max(0, Math.round(Number(event.target.value) || 0));
                const next: [number, number] = [point?.[0] ?? 0, point?.[1] ?? 0];
                next[i] = v;
                set(next);
              }}
              className="w-20 rounded border border-gray-300 px-1.5 py-1"
            />
          </label>
        ))}
        {point ? (
          <Button size="sm" onClick={() => set(undefined)}>
            Clear
          </Button>
        ) : null}
      </fieldset>
    </div>
  );
}

export function GalleryFields({ element, position, onChange }: EditorProps) {
  const images = element["story-elements"] ?? [];
  const setImages = (next: TStoryElement[]) => onChange({ ...element, "story-elements": next });
  return (
    <div className="space-y-3" data-testid="gallery">
      {images.length === 0 ? <p className="text-xs text-gray-500">No images yet: upload the first.</p> : null}
      <ol className="space-y-3">
        {images.map((image, i) => {
          const at = `${position}.${i + 1}`;
          return (
            <li key={image.id} className="rounded border border-gray-200 p-2" data-testid="gallery-image">
              <div className="mb-1 flex flex-wrap items-center justify-between gap-1 text-xs text-gray-700">
                <span>Gallery image {at}</span>
                <div className="flex gap-1">
                  <Button
                    size="sm"
                    disabled={i === 0}
                    onClick={() => setImages(move(images, i, i - 1))}
                    aria-label={`Move gallery image ${at} up`}
                  >
                    ↑
                  </Button>
                  <Button
                    size="sm"
                    disabled={i === images.length - 1}
                    onClick={() => setImages(move(images, i, i + 1))}
                    aria-label={`Move gallery image ${at} down`}
                  >
                    ↓
                  </Button>
                  <Button
                    size="sm"
                    onClick={() => setImages(images.filter((_, j) => j !== i))}
                    aria-label={`Remove gallery image ${at}`}
                  >
                    Remove
                  </Button>
                </div>
              </div>
              <ImageFields
                compact
                element={image}
                position={at}
                onChange={(next) => setImages(images.map((x, j) => (j === i ? next : x)))}
              />
            </li>
          );
        })}
      </ol>
      <ImageUploadButton
        label={`Add image to gallery ${position}`}
        onUploaded={(uploaded) => setImages([...images, withUpload(newImage(), uploaded)])}
      />
    </div>
  );
}
