"use client";

/**
 * The fields of each element type, in its wire shape (./story-elements.ts): text (rich text,
 * ./rich-text.tsx), title, summary, quote, blockquote and big fact (with attribution), image and
 * gallery (./image-fields.tsx), YouTube, tweet, other embeds (Instagram, Facebook, map: a link or
 * embed code) and file (an uploaded document, ../file-upload.tsx, or a link to one kept elsewhere,
 * and its name). Other types are kept as they are.
 */
import { useId } from "react";

import { FileUploadButton } from "@/components/content/file-upload";
import { FormField, Input, Select, Textarea } from "@/components/ui";
import { ownValue } from "@/server/own-keys";
import { tweetIdFromUrl, youtubeVideoId } from "@/server/publishing/editorial/stories.schema";

import { GalleryFields, ImageFields } from "./image-fields";
import { PlainField, type EditorProps } from "./plain-field";
import { decodeEmbed, EMBED_SUBTYPES, encodeEmbed, kindOf, plainToHtml } from "./story-elements";
import { TextElementField } from "./text-element-field";

export function ElementFields(props: EditorProps) {
  const { element, position, onChange, onReplace } = props;
  const metadata = element.metadata;
  const meta = (key: string) => {
    const value = ownValue(metadata, key);
    return typeof value === "string" ? value : "";
  };
  const setMeta = (key: string, value: string) => onChange({ ...element, metadata: { ...metadata, [key]: value } });
  switch (element.type) {
    case "text":
      return <TextElementField element={element} position={position} onChange={onChange} onReplace={onReplace} />;
    case "title":
    case "summary":
      return (
        <PlainField
          label={`${element.type === "title" ? "Title" : "Summary"} ${position}`}
          multiline={element.type === "summary"}
          value={element.text}
          onChange={(text) => onChange({ ...element, text })}
        />
      );
    case "quote":
    case "blockquote":
    case "bigfact": {
      const name = kindOf(element);
      const setText = (text: string) =>
        onChange(
          element.type === "quote"
            ? { ...element, text }
            : { ...element, text, metadata: { ...metadata, content: text } },
        );
      return (
        <div className="grid gap-2">
          <PlainField
            label={`${element.type === "bigfact" ? "Fact" : name} ${position}`}
            multiline={element.type !== "bigfact"}
            value={element.text}
            onChange={setText}
          />
          <PlainField
            label={`Attribution ${position}`}
            optional
            value={meta("attribution")}
            onChange={(value) => setMeta("attribution", value)}
          />
        </div>
      );
    }
    case "image":
      return <ImageFields {...props} />;
    case "composite":
      return element.subtype === "image-gallery" ? <GalleryFields {...props} /> : <Kept />;
    case "youtube-video":
      return <UrlElement {...props} />;
    case "jsembed":
      return element.subtype === "tweet" ? <UrlElement {...props} /> : <EmbedFields {...props} />;
    case "file":
      return <FileFields {...props} />;
    default:
      return <Kept />;
  }
}

function Kept() {
  return <p className="text-xs text-gray-500">This element is kept as it is; it cannot be edited here.</p>;
}

function UrlElement({ element, position, onChange }: EditorProps) {
  const id = useId();
  const isVideo = element.type === "youtube-video";
  const url = element.url ?? "";
  const derived = url ? (isVideo ? youtubeVideoId(url) : tweetIdFromUrl(url)) : null;
  return (
    <div>
      <label htmlFor={id} className="block text-xs font-medium text-gray-700">
        {isVideo ? "YouTube URL" : "Tweet URL"} {position}
      </label>
      <Input
        id={id}
        type="url"
        value={url}
        // An empty field is sent as no URL, so the server reports it as missing rather than malformed.
        onChange={(event) => onChange({ ...element, url: event.target.value || undefined })}
        placeholder={isVideo ? "https://www.youtube.com/watch?v=…" : "https://x.com/<user>/status/<id>"}
        className="mt-1 font-mono"
      />
      <p className={`mt-1 text-xs ${url && !derived ? "text-red-700" : "text-gray-500"}`}>
        {!url
          ? "Paste the link."
          : derived
            ? `${isVideo ? "Video" : "Tweet"} id: ${derived}`
            : `Not a ${isVideo ? "YouTube video" : "tweet"} link.`}
      </p>
    </div>
  );
}

function EmbedFields({ element, position, onChange }: EditorProps) {
  const known = EMBED_SUBTYPES.some(([value]) => value === element.subtype);
  return (
    <div className="grid gap-2">
      <FormField label={`Kind of embed ${position}`}>
        <Select
          value={element.subtype ?? ""}
          onChange={(event) => onChange({ ...element, subtype: event.target.value })}
        >
          {known ? null : <option value={element.subtype ?? ""}>{element.subtype ?? "(none)"}</option>}
          {EMBED_SUBTYPES.map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </Select>
      </FormField>
      <FormField label={`Link ${position}`} hint="The post's or the map's address." optional>
        <Input
          type="url"
          value={element.url ?? ""}
          onChange={(event) => onChange({ ...element, url: event.target.value || undefined })}
          className="font-mono"
          placeholder="https://www.instagram.com/p/…"
        />
      </FormField>
      <FormField
        label={`Embed code ${position}`}
        optional
        hint="Or paste the provider's embed code; scripts and frames are removed on save."
      >
        <Textarea
          rows={3}
          value={decodeEmbed(element["embed-js"])}
          onChange={(event) =>
            onChange({ ...element, "embed-js": event.target.value ? encodeEmbed(event.target.value) : undefined })
          }
          className="font-mono"
        />
      </FormField>
    </div>
  );
}

function FileFields({ element, position, onChange }: EditorProps) {
  const record = element as Record<string, unknown>;
  const text = (key: string) => {
    const value = ownValue(record, key);
    return typeof value === "string" ? value : "";
  };
  return (
    <div className="grid gap-2 sm:grid-cols-2">
      <div className="sm:col-span-2">
        <FileUploadButton
          label={`${text("file-url") ? "Replace" : "Upload"} file ${position}`}
          onUploaded={(file) =>
            onChange({
              ...element,
              "file-url": file.url,
              "file-name": plainToHtml(file["file-name"]),
              "content-type": file["content-type"],
            })
          }
        />
      </div>
      <FormField
        label={`File link ${position}`}
        hint="Filled in by the upload; or the link of a file kept elsewhere (https://…)."
      >
        <Input
          type="url"
          value={text("file-url")}
          // A link typed by hand is no longer the uploaded file: its type is unknown.
          onChange={(event) =>
            onChange({ ...element, "file-url": event.target.value || undefined, "content-type": undefined })
          }
          className="font-mono"
        />
      </FormField>
      <PlainField
        label={`File name ${position}`}
        optional
        hint="Shown to readers; the link's last part when empty."
        value={text("file-name")}
        onChange={(value) => onChange({ ...element, "file-name": value })}
      />
    </div>
  );
}
