"use client";

/**
 * The story's cards and their elements: add, remove and reorder both. Element kinds: text (HTML,
 * sanitised by the server to a small allow-list), image (key and caption), YouTube (URL) and tweet
 * (URL); the server derives the video and tweet ids from the URLs.
 */
import { useId } from "react";

import { imageMetadata, ImageUploadButton } from "@/components/content/image-upload";
import { Button, Input, Textarea } from "@/components/ui";
import type { TCard, TStoryElement } from "@/server/publishing/cards.schema";
import { tweetIdFromUrl, youtubeVideoId } from "@/server/publishing/editorial/stories.schema";

/** A v4 UUID, also where crypto.randomUUID is missing (pages served over plain http). */
export function uuid(): string {
  if (typeof crypto.randomUUID === "function") return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export type ElementKind = "text" | "image" | "youtube" | "tweet";

function newElement(kind: ElementKind): TStoryElement {
  const base = { id: uuid(), metadata: {} };
  switch (kind) {
    case "text":
      return { ...base, type: "text", subtype: null, text: "" };
    case "image":
      return { ...base, type: "image", subtype: null, "image-s3-key": "", title: "" };
    case "youtube":
      return { ...base, type: "youtube-video", subtype: null, url: undefined };
    case "tweet":
      return { ...base, type: "jsembed", subtype: "tweet", url: undefined };
  }
}

export function newCard(kind: ElementKind = "text"): TCard {
  return { id: uuid(), status: "draft", version: 1, metadata: {}, "story-elements": [newElement(kind)] };
}

function move<T>(items: readonly T[], from: number, to: number): T[] {
  if (to < 0 || to >= items.length) return [...items];
  const copy = [...items];
  const [item] = copy.splice(from, 1);
  copy.splice(to, 0, item!);
  return copy;
}

function kindOf(element: TStoryElement): string {
  if (element.type === "text") return "Text";
  if (element.type === "image") return "Image";
  if (element.type === "youtube-video") return "YouTube video";
  if (element.type === "jsembed" && element.subtype === "tweet") return "Tweet";
  return element.subtype ? `${element.type} (${element.subtype})` : element.type;
}

/** The server's problems with the cards, shown where they are: under a card ("2"), an element ("2.1") or all ("" ). */
function Issues({ issues }: { issues: string[] | undefined }) {
  if (!issues?.length) return null;
  return (
    <ul className="mb-2 space-y-0.5 text-xs text-red-700" data-testid="card-issue">
      {issues.map((issue) => (
        <li key={issue}>{issue}</li>
      ))}
    </ul>
  );
}

export function CardEditor({
  cards,
  issues = new Map(),
  onChange,
}: {
  cards: TCard[];
  /** Problems by position ("" all cards, "2" card 2, "2.1" its first element): see card-issues.ts. */
  issues?: ReadonlyMap<string, string[]>;
  onChange: (cards: TCard[]) => void;
}) {
  const setCard = (index: number, card: TCard) => onChange(cards.map((c, i) => (i === index ? card : c)));
  return (
    <div className="space-y-4" data-testid="card-editor">
      <Issues issues={issues.get("")} />
      {cards.length === 0 ? (
        <p className="text-sm text-gray-500">
          No cards yet. A story is told in cards; each holds one or more elements.
        </p>
      ) : null}
      {cards.map((card, index) => (
        <fieldset key={card.id} className="rounded-md border border-gray-200 bg-gray-50 p-3" data-testid="card">
          <div className="mb-2 flex items-center justify-between">
            <legend className="text-xs font-semibold tracking-wide text-gray-600 uppercase">Card {index + 1}</legend>
            <div className="flex gap-1">
              <Button
                size="sm"
                disabled={index === 0}
                onClick={() => onChange(move(cards, index, index - 1))}
                aria-label={`Move card ${index + 1} up`}
              >
                ↑
              </Button>
              <Button
                size="sm"
                disabled={index === cards.length - 1}
                onClick={() => onChange(move(cards, index, index + 1))}
                aria-label={`Move card ${index + 1} down`}
              >
                ↓
              </Button>
              <Button variant="danger" size="sm" onClick={() => onChange(cards.filter((_, i) => i !== index))}>
                Remove card
              </Button>
            </div>
          </div>
          <Issues issues={issues.get(String(index + 1))} />
          <div className="space-y-3">
            {card["story-elements"].map((element, e) => (
              <ElementEditor
                key={element.id}
                element={element}
                issues={issues.get(`${index + 1}.${e + 1}`)}
                position={`${index + 1}.${e + 1}`}
                isFirst={e === 0}
                isLast={e === card["story-elements"].length - 1}
                onChange={(next) =>
                  setCard(index, {
                    ...card,
                    "story-elements": card["story-elements"].map((x, i) => (i === e ? next : x)),
                  })
                }
                onMove={(delta) =>
                  setCard(index, { ...card, "story-elements": move(card["story-elements"], e, e + delta) })
                }
                onRemove={() =>
                  setCard(index, { ...card, "story-elements": card["story-elements"].filter((_, i) => i !== e) })
                }
              />
            ))}
          </div>
          <AddElement
            label={`Add to card ${index + 1}:`}
            onAdd={(kind) =>
              setCard(index, { ...card, "story-elements": [...card["story-elements"], newElement(kind)] })
            }
          />
        </fieldset>
      ))}
      <AddElement label="New card with:" onAdd={(kind) => onChange([...cards, newCard(kind)])} testId="add-card" />
    </div>
  );
}

function AddElement({ label, onAdd, testId }: { label: string; onAdd: (kind: ElementKind) => void; testId?: string }) {
  const kinds: [ElementKind, string][] = [
    ["text", "Text"],
    ["image", "Image"],
    ["youtube", "YouTube"],
    ["tweet", "Tweet"],
  ];
  return (
    <div className="mt-3 flex flex-wrap items-center gap-2 text-xs text-gray-600" data-testid={testId}>
      <span>{label}</span>
      {kinds.map(([kind, name]) => (
        <Button key={kind} size="sm" onClick={() => onAdd(kind)}>
          + {name}
        </Button>
      ))}
    </div>
  );
}

function ElementEditor({
  element,
  issues,
  position,
  isFirst,
  isLast,
  onChange,
  onMove,
  onRemove,
}: {
  element: TStoryElement;
  issues: string[] | undefined;
  position: string;
  isFirst: boolean;
  isLast: boolean;
  onChange: (element: TStoryElement) => void;
  onMove: (delta: number) => void;
  onRemove: () => void;
}) {
  const id = useId();
  const kind = kindOf(element);
  const field = (name: string) => `${id}-${name}`;
  return (
    <div
      className={`rounded border bg-white p-3 ${issues?.length ? "border-red-400" : "border-gray-200"}`}
      data-testid="story-element"
      data-type={element.type}
    >
      <div className="mb-2 flex items-center justify-between">
        <span className="text-xs font-medium text-gray-700">
          {position} · {kind}
        </span>
        <div className="flex gap-1">
          <Button size="sm" disabled={isFirst} onClick={() => onMove(-1)} aria-label={`Move element ${position} up`}>
            ↑
          </Button>
          <Button size="sm" disabled={isLast} onClick={() => onMove(1)} aria-label={`Move element ${position} down`}>
            ↓
          </Button>
          <Button size="sm" onClick={onRemove} aria-label={`Remove element ${position}`}>
            Remove
          </Button>
        </div>
      </div>
      <Issues issues={issues} />
      {element.type === "text" ? (
        <>
          <label htmlFor={field("text")} className="sr-only">
            Text {position}
          </label>
          <Textarea
            id={field("text")}
            rows={5}
            value={element.text ?? ""}
            onChange={(event) => onChange({ ...element, text: event.target.value })}
            placeholder="<p>Write a paragraph…</p>"
            className="font-mono"
          />
          <p className="mt-1 text-xs text-gray-500">
            HTML: p, br, strong, em, a href, ul, ol, li, h2, h3, blockquote. Anything else is removed on save.
          </p>
        </>
      ) : element.type === "image" ? (
        <div className="grid gap-2 sm:grid-cols-2">
          <div>
            <label htmlFor={field("key")} className="block text-xs font-medium text-gray-700">
              Image key {position}
            </label>
            <Input
              id={field("key")}
              value={element["image-s3-key"] ?? ""}
              onChange={(event) => onChange({ ...element, "image-s3-key": event.target.value })}
              placeholder="2026/03/photo.jpg"
              className="mt-1 font-mono"
            />
          </div>
          <div>
            <label htmlFor={field("caption")} className="block text-xs font-medium text-gray-700">
              Caption {position}
            </label>
            <Input
              id={field("caption")}
              value={element.title ?? ""}
              onChange={(event) => onChange({ ...element, title: event.target.value })}
              className="mt-1"
            />
          </div>
          <div className="sm:col-span-2">
            <ImageUploadButton
              label={`Upload image ${position}`}
              onUploaded={(image) =>
                onChange({ ...element, "image-s3-key": image.key, "image-metadata": imageMetadata(image) })
              }
            />
          </div>
        </div>
      ) : element.type === "youtube-video" || (element.type === "jsembed" && element.subtype === "tweet") ? (
        <UrlElement element={element} position={position} onChange={onChange} />
      ) : (
        <p className="text-xs text-gray-500">This element is kept as it is; it cannot be edited here.</p>
      )}
    </div>
  );
}

function UrlElement({
  element,
  position,
  onChange,
}: {
  element: TStoryElement;
  position: string;
  onChange: (element: TStoryElement) => void;
}) {
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
