"use client";

/**
 * A text element's rich text, taking images dropped or pasted into it: each is uploaded (POST
 * /api/admin/images, as the image elements' Upload button does) while a placeholder says so, then
 * the text is split where it was dropped and an image element goes in between (its alt text still
 * to write). A refused file (type, size) is said in words under the text and changes nothing.
 */
import { useEffect, useRef, useState } from "react";

import { imageMetadata } from "@/components/content/image-upload";
import { Alert } from "@/components/ui";
import type { TStoryElement } from "@/server/publishing/cards.schema";
import type { TUploadedImage } from "@/server/publishing/editorial/organise.schema";

import { RichTextEditor } from "./rich-text";
import { newElement, newImage } from "./story-elements";

/** What the upload takes (server/publishing/editorial/images.ts judges the bytes again). */
const IMAGE_TYPES = ["image/jpeg", "image/png", "image/webp", "image/gif"];

/** `html` split after its first `blocks` top-level blocks. */
function splitHtmlAtBlock(html: string, blocks: number): [string, string] {
  const template = document.createElement("template");
  template.innerHTML = html;
  const nodes = Array.from(template.content.childNodes);
  const serialise = (list: ChildNode[]) =>
    list.map((node) => (node instanceof Element ? node.outerHTML : (node.textContent ?? ""))).join("");
  return [serialise(nodes.slice(0, blocks)), serialise(nodes.slice(blocks))];
}

async function uploadImage(file: File): Promise<TUploadedImage> {
  const body = new FormData();
  body.append("file", file);
  let response: Response;
  try {
    response = await fetch("/api/admin/images", { method: "POST", body });
  } catch {
    throw new Error(`“${file.name}” was not added: the server could not be reached.`);
  }
  const json = (await response.json().catch(() => null)) as (TUploadedImage & { error?: { message?: string } }) | null;
  if (!response.ok || !json?.key)
    throw new Error(
      `“${file.name}” was not added: ${json?.error?.message ?? `the upload failed (HTTP ${response.status}).`}`,
    );
  return json;
}

export function TextElementField({
  element,
  position,
  onChange,
  onReplace,
}: {
  element: TStoryElement;
  position: string;
  onChange: (element: TStoryElement) => void;
  /** Replace this element with several (the text before, the image, the text after). */
  onReplace?: (elements: TStoryElement[]) => void;
}) {
  // The upload ends after later renders: it splits the text as it is then, not as it was dropped.
  const latest = useRef({ element, onReplace });
  useEffect(() => {
    latest.current = { element, onReplace };
  });
  const [uploading, setUploading] = useState<string[]>([]);
  const [errors, setErrors] = useState<string[]>([]);

  async function addImages(files: File[], blocksBefore: number) {
    setErrors([]);
    for (const file of files) {
      if (!IMAGE_TYPES.includes(file.type)) {
        setErrors((list) => [
          ...list,
          `“${file.name}” was not added: only JPEG, PNG, WebP and GIF images can be uploaded.`,
        ]);
        continue;
      }
      setUploading((list) => [...list, file.name]);
      try {
        const image = await uploadImage(file);
        const { element: current, onReplace: replace } = latest.current;
        if (!replace) continue;
        const [before, after] = splitHtmlAtBlock(current.text ?? "", blocksBefore);
        replace([
          { ...current, text: before },
          newImage({ "image-s3-key": image.key, "image-metadata": imageMetadata(image) }),
          ...(after.trim() ? [{ ...newElement("text"), text: after }] : []),
        ]);
      } catch (error) {
        setErrors((list) => [...list, error instanceof Error ? error.message : String(error)]);
      } finally {
        setUploading((list) => {
          const i = list.indexOf(file.name);
          return i < 0 ? list : [...list.slice(0, i), ...list.slice(i + 1)];
        });
      }
    }
  }

  return (
    <div className="space-y-2">
      <RichTextEditor
        label={`Text ${position}`}
        value={element.text ?? ""}
        onChange={(text) => onChange({ ...element, text })}
        onImageFiles={onReplace ? (files, blocks) => void addImages(files, blocks) : undefined}
      />
      {uploading.length ? (
        <div
          role="status"
          className="flex items-center gap-2 rounded border border-dashed border-gray-300 bg-gray-50 p-3 text-sm text-gray-700"
          data-testid="image-drop-placeholder"
        >
          <span
            aria-hidden="true"
            className="size-4 animate-spin rounded-full border-2 border-gray-300 border-t-brand-600"
          />
          Uploading {uploading.map((name) => `“${name}”`).join(", ")}… it goes into the text where you put it.
        </div>
      ) : null}
      {errors.length ? (
        <Alert tone="error" data-testid="image-drop-error">
          {errors.map((message) => (
            <p key={message}>{message}</p>
          ))}
        </Alert>
      ) : null}
    </div>
  );
}
