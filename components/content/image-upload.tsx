"use client";

/**
 * Image uploads (POST /api/admin/images, the session cookie authenticates): a hook that sends a
 * file and hands back the stored image, a button that opens the file picker (with "Choose from
 * library" beside it: an image uploaded before, from the media library), and a field that keeps an
 * image key with a preview and "Remove" (an author's avatar).
 */
import { useId, useState } from "react";

import { MediaPickerDialog } from "@/components/content/media/media-picker";
import { Button, FileButton, useFieldControl } from "@/components/ui";
import type { TUploadedImage } from "@/server/publishing/editorial/organise.schema";

/**
 * What an upload button hands back: the stored image, and for one chosen from the library the
 * alt text kept with it (`alt`, absent for a fresh upload or when it has none).
 */
type TChosenImage = TUploadedImage & { alt?: string };

const ACCEPT = "image/jpeg,image/png,image/webp,image/gif";

function useImageUpload(onUploaded: (image: TUploadedImage) => void) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  async function upload(file: File) {
    setBusy(true);
    setError(null);
    try {
      const body = new FormData();
      body.append("file", file);
      const response = await fetch("/api/admin/images", { method: "POST", body });
      const json = (await response.json().catch(() => null)) as
        (TUploadedImage & { error?: { message?: string } }) | null;
      if (!response.ok || !json?.key) setError(json?.error?.message ?? `The upload failed (HTTP ${response.status}).`);
      else onUploaded(json);
    } catch {
      setError("The upload failed: the server could not be reached.");
    } finally {
      setBusy(false);
    }
  }
  return { busy, error, upload };
}

/**
 * A button-looking label over a hidden file input: picking a file uploads it. The input keeps the
 * focus ring visible on the label. Labelled by `label`, or by a FormField around it.
 */
export function ImageUploadButton({
  label,
  onUploaded,
  size = "sm",
  library = true,
}: {
  label: string;
  onUploaded: (image: TChosenImage) => void;
  size?: "sm" | "md";
  /** Offer "Choose from library" beside the upload (default). */
  library?: boolean;
}) {
  const field = useFieldControl();
  const generated = useId();
  const id = field?.id ?? generated;
  const [picking, setPicking] = useState(false);
  const [chosen, setChosen] = useState<TChosenImage | null>(null);
  const { busy, error, upload } = useImageUpload((image) => {
    setChosen(null);
    onUploaded(image);
  });
  return (
    <div className="flex flex-wrap items-center gap-2">
      <FileButton
        id={id}
        labelId={`${id}-label`}
        label={label}
        accept={ACCEPT}
        size={size}
        busy={busy}
        describedBy={field?.describedBy}
        onFile={(file) => void upload(file)}
      />
      {library ? (
        <>
          <Button size={size} onClick={() => setPicking(true)} aria-describedby={`${id}-label`}>
            Choose from library
          </Button>
          <MediaPickerDialog
            open={picking}
            onClose={() => setPicking(false)}
            onChosen={(image) => {
              setPicking(false);
              setChosen(image);
              onUploaded(image);
            }}
          />
        </>
      ) : null}
      {chosen ? (
        <span role="status" className="text-xs text-gray-600" data-testid="chosen-image-alt">
          {chosen.alt
            ? `Chosen from the library; its alt text: “${chosen.alt}”`
            : "Chosen from the library (no alt text)."}
        </span>
      ) : null}
      {error ? (
        <span role="alert" className="text-xs text-red-700">
          {error}
        </span>
      ) : null}
    </div>
  );
}

/** An image key with its preview, an upload button and "Remove". */
export function ImageField({ value, onChange }: { value: string; onChange: (key: string) => void }) {
  return (
    <div className="flex flex-wrap items-center gap-3">
      {value ? (
        // eslint-disable-next-line @next/next/no-img-element -- an uploaded file, served by /images
        <img src={`/images/${value}`} alt="" className="h-10 w-10 rounded object-cover ring-1 ring-gray-200" />
      ) : null}
      <ImageUploadButton label={value ? "Replace image" : "Upload image"} onUploaded={(image) => onChange(image.key)} />
      {value ? (
        <Button size="sm" onClick={() => onChange("")}>
          Remove
        </Button>
      ) : null}
    </div>
  );
}

/** An upload's size and type as stories keep them (a size the server could not read is left out). */
export function imageMetadata(image: TChosenImage): { width?: number; height?: number; "mime-type": string } {
  return {
    ...(image.width !== null ? { width: image.width } : {}),
    ...(image.height !== null ? { height: image.height } : {}),
    "mime-type": image["mime-type"],
  };
}
