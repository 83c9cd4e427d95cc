"use client";

/**
 * "Choose from library": a dialog with the media library's grid (search, "Unused", pages, the
 * keyboard), where picking an image hands it back as an upload would (key, address, size, type)
 * with the alt text kept with it.
 */
import { createPortal } from "react-dom";

import { Dialog, useInBrowser } from "@/components/ui";
import type { TMediaItem } from "@/server/publishing/editorial/media.schema";
import { IMAGE_TYPES, type TImageMimeType, type TUploadedImage } from "@/server/publishing/editorial/organise.schema";

import { MediaFilters, MediaGrid, MediaPager, useMediaQuery } from "./media-browser";

/** A library image as an upload button hands it back (TUploadedImage, plus its alt text). */
function chosenImage(item: TMediaItem): TUploadedImage & { alt?: string } {
  const mime = item["mime-type"];
  return {
    key: item.key,
    url: item.url,
    width: item.width,
    height: item.height,
    // The library holds only the accepted upload types (IMAGE_TYPES, sniffed at upload).
    "mime-type": Object.hasOwn(IMAGE_TYPES, mime) ? (mime as TImageMimeType) : "image/jpeg",
    ...(item.alt ? { alt: item.alt } : {}),
  };
}

export function MediaPickerDialog({
  open,
  onClose,
  onChosen,
}: {
  open: boolean;
  onClose: () => void;
  onChosen: (image: TUploadedImage & { alt?: string }) => void;
}) {
  // Rendered into <body> (once in the browser): upload buttons sit inside editors' forms, and the
  // dialog's search must not submit them (nor its keys reach their handlers). Mounted closed, then
  // opened, as the Dialog expects.
  const inBrowser = useInBrowser();
  if (!inBrowser) return null;
  return createPortal(
    <Dialog
      open={open}
      onClose={onClose}
      title="Choose from library"
      description="Pick an image uploaded before: arrow keys move, Enter chooses."
      size="lg"
    >
      <Picker onChosen={onChosen} />
    </Dialog>,
    document.body,
  );
}

/** Mounted only while the dialog is open (Dialog mounts its children then), so each opening starts afresh. */
function Picker({ onChosen }: { onChosen: (image: TUploadedImage & { alt?: string }) => void }) {
  const media = useMediaQuery();
  return (
    // React's events bubble out of a portal to the editor around the button: keys stop here.
    <div className="space-y-3" onKeyDown={(event) => event.stopPropagation()}>
      <MediaFilters media={media} />
      <MediaGrid
        media={media}
        label="Images in the library"
        selectedKey={null}
        onPick={(item) => onChosen(chosenImage(item))}
        emptyText={media.search ? "No image matches." : "No images yet."}
      />
      <MediaPager media={media} />
    </div>
  );
}
