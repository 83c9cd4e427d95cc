"use client";

/**
 * The story's cards and their elements: add, remove and reorder both (drag the handle with a
 * pointer, or focus it and press Space, the arrow keys and Space again; or use Move up/down).
 * Every element type the read API serves is edited here, in its wire shape
 * (./story-elements.ts): text (rich text, ./rich-text.tsx), title, summary, quote, blockquote and
 * big fact (with attribution), image (caption, attribution, alt text, focus point), gallery,
 * YouTube, tweet, other embeds (Instagram, Facebook, map: a link or embed code) and file (an
 * uploaded document, ../file-upload.tsx, or a link to one kept elsewhere, and its name). The
 * server checks and sanitises all of it on save.
 */
import {
  closestCenter,
  DndContext,
  KeyboardSensor,
  PointerSensor,
  useSensor,
  useSensors,
  type Announcements,
  type DragEndEvent,
} from "@dnd-kit/core";
import {
  SortableContext,
  sortableKeyboardCoordinates,
  useSortable,
  verticalListSortingStrategy,
} from "@dnd-kit/sortable";
import { CSS } from "@dnd-kit/utilities";
import { useId, useState, type ReactNode } from "react";

import { FileUploadButton } from "@/components/content/file-upload";
import { imageMetadata, ImageUploadButton } from "@/components/content/image-upload";
import { Button, FormField, Input, Select, Textarea } from "@/components/ui";
import type { TCard, TStoryElement } from "@/server/publishing/cards.schema";
import type { TUploadedImage } from "@/server/publishing/editorial/organise.schema";
import { tweetIdFromUrl, youtubeVideoId } from "@/server/publishing/editorial/stories.schema";

import { RichTextEditor } from "./rich-text";
import {
  decodeEmbed,
  ELEMENT_KINDS,
  EMBED_SUBTYPES,
  encodeEmbed,
  focusPointFromClick,
  htmlToPlain,
  kindOf,
  move,
  newCard,
  newElement,
  newImage,
  plainToHtml,
  uuid,
  type ElementKind,
} from "./story-elements";

export { newCard, uuid, type ElementKind };

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

// ─── Sortable lists (cards, a card's elements) ───────────────────────────────────────────────

/** Announcements for screen readers, by position ("Card 2 moved to position 3 of 4"). */
function announcements(ids: string[], noun: string): Announcements {
  const at = (id: string | number | undefined) => ids.indexOf(String(id)) + 1;
  const Noun = noun[0]!.toUpperCase() + noun.slice(1);
  return {
    onDragStart: ({ active }) => `Picked up ${noun} ${at(active.id)} of ${ids.length}.`,
    onDragOver: ({ active, over }) =>
      over
        ? `${Noun} ${at(active.id)} is over position ${at(over.id)} of ${ids.length}.`
        : `${Noun} is not over a place.`,
    onDragEnd: ({ active, over }) =>
      over ? `${Noun} ${at(active.id)} dropped at position ${at(over.id)} of ${ids.length}.` : `${Noun} dropped.`,
    onDragCancel: ({ active }) => `Moving ${noun} ${at(active.id)} cancelled.`,
  };
}

function SortableList({
  ids,
  noun,
  onMove,
  children,
}: {
  ids: string[];
  noun: string;
  onMove: (from: number, to: number) => void;
  children: ReactNode;
}) {
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 5 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (!over || active.id === over.id) return;
    onMove(ids.indexOf(String(active.id)), ids.indexOf(String(over.id)));
  };
  return (
    <DndContext
      sensors={sensors}
      collisionDetection={closestCenter}
      onDragEnd={onDragEnd}
      accessibility={{
        announcements: announcements(ids, noun),
        screenReaderInstructions: {
          draggable: `To move this ${noun}, press Space, then the arrow keys, then Space again to drop it or Escape to cancel.`,
        },
      }}
    >
      <SortableContext items={ids} strategy={verticalListSortingStrategy}>
        {children}
      </SortableContext>
    </DndContext>
  );
}

/** An item of a SortableList: `children` gets the drag handle to place. */
function SortableItem({
  id,
  label,
  children,
}: {
  id: string;
  /** The drag handle's name ("Drag card 2"). */
  label: string;
  children: (handle: ReactNode, dragging: boolean) => ReactNode;
}) {
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({
    id,
  });
  return (
    <div
      ref={setNodeRef}
      style={{ transform: CSS.Translate.toString(transform), transition, zIndex: isDragging ? 10 : undefined }}
      className={isDragging ? "relative opacity-80 shadow-lg" : "relative"}
    >
      {children(
        <DragHandle ref={setActivatorNodeRef} label={label} attributes={attributes} listeners={listeners} />,
        isDragging,
      )}
    </div>
  );
}

function DragHandle({
  ref,
  label,
  attributes,
  listeners,
}: {
  ref: (element: HTMLElement | null) => void;
  label: string;
  attributes: object;
  listeners: object | undefined;
}) {
  return (
    <button
      ref={ref}
      type="button"
      {...attributes}
      {...listeners}
      aria-label={label}
      className="cursor-grab touch-none rounded px-1.5 py-1 text-gray-500 hover:bg-gray-200 focus-visible:ring-2 focus-visible:ring-brand-600 focus-visible:outline-none active:cursor-grabbing"
    >
      <span aria-hidden="true">⠿</span>
    </button>
  );
}

// ─── Cards ───────────────────────────────────────────────────────────────────────────────────

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
      <SortableList ids={cards.map((c) => c.id)} noun="card" onMove={(from, to) => onChange(move(cards, from, to))}>
        <div className="space-y-4">
          {cards.map((card, index) => (
            <SortableItem key={card.id} id={card.id} label={`Drag card ${index + 1}`}>
              {(handle) => (
                <CardBox
                  card={card}
                  index={index}
                  count={cards.length}
                  handle={handle}
                  issues={issues}
                  onChange={(next) => setCard(index, next)}
                  onMove={(delta) => onChange(move(cards, index, index + delta))}
                  onRemove={() => onChange(cards.filter((_, i) => i !== index))}
                />
              )}
            </SortableItem>
          ))}
        </div>
      </SortableList>
      <AddElement label="New card with:" onAdd={(kind) => onChange([...cards, newCard(kind)])} testId="add-card" />
    </div>
  );
}

function CardBox({
  card,
  index,
  count,
  handle,
  issues,
  onChange,
  onMove,
  onRemove,
}: {
  card: TCard;
  index: number;
  count: number;
  handle: ReactNode;
  issues: ReadonlyMap<string, string[]>;
  onChange: (card: TCard) => void;
  onMove: (delta: number) => void;
  onRemove: () => void;
}) {
  const elements = card["story-elements"];
  const setElements = (next: TStoryElement[]) => onChange({ ...card, "story-elements": next });
  const n = index + 1;
  return (
    <section
      aria-label={`Card ${n}`}
      className="rounded-md border border-gray-200 bg-gray-50 p-3"
      data-testid="card"
      data-card-id={card.id}
    >
      <div className="mb-2 flex flex-wrap items-center justify-between gap-2">
        <div className="flex items-center gap-1">
          {handle}
          <h3 className="text-xs font-semibold tracking-wide text-gray-600 uppercase">Card {n}</h3>
        </div>
        <div className="flex flex-wrap gap-1">
          <Button size="sm" disabled={index === 0} onClick={() => onMove(-1)} aria-label={`Move card ${n} up`}>
            ↑
          </Button>
          <Button size="sm" disabled={index === count - 1} onClick={() => onMove(1)} aria-label={`Move card ${n} down`}>
            ↓
          </Button>
          <Button variant="danger" size="sm" onClick={onRemove}>
            Remove card
          </Button>
        </div>
      </div>
      <Issues issues={issues.get(String(n))} />
      <SortableList
        ids={elements.map((e) => e.id)}
        noun="element"
        onMove={(from, to) => setElements(move(elements, from, to))}
      >
        <div className="space-y-3">
          {elements.map((element, e) => (
            <SortableItem key={element.id} id={element.id} label={`Drag element ${n}.${e + 1}`}>
              {(elementHandle) => (
                <ElementEditor
                  element={element}
                  handle={elementHandle}
                  issues={issues.get(`${n}.${e + 1}`)}
                  position={`${n}.${e + 1}`}
                  isFirst={e === 0}
                  isLast={e === elements.length - 1}
                  onChange={(next) => setElements(elements.map((x, i) => (i === e ? next : x)))}
                  onMove={(delta) => setElements(move(elements, e, e + delta))}
                  onRemove={() => setElements(elements.filter((_, i) => i !== e))}
                />
              )}
            </SortableItem>
          ))}
        </div>
      </SortableList>
      <AddElement label={`Add to card ${n}:`} onAdd={(kind) => setElements([...elements, newElement(kind)])} />
    </section>
  );
}

function AddElement({ label, onAdd, testId }: { label: string; onAdd: (kind: ElementKind) => void; testId?: string }) {
  return (
    <div
      className="mt-3 flex flex-wrap items-center gap-1.5 text-xs text-gray-600"
      data-testid={testId}
      role="group"
      aria-label={label}
    >
      <span aria-hidden="true">{label}</span>
      {ELEMENT_KINDS.map(([kind, name]) => (
        <Button key={kind} size="sm" onClick={() => onAdd(kind)}>
          + {name}
        </Button>
      ))}
    </div>
  );
}

// ─── Elements ────────────────────────────────────────────────────────────────────────────────

type EditorProps = { element: TStoryElement; position: string; onChange: (element: TStoryElement) => void };

function ElementEditor({
  element,
  handle,
  issues,
  position,
  isFirst,
  isLast,
  onChange,
  onMove,
  onRemove,
}: EditorProps & {
  handle: ReactNode;
  issues: string[] | undefined;
  isFirst: boolean;
  isLast: boolean;
  onMove: (delta: number) => void;
  onRemove: () => void;
}) {
  const kind = kindOf(element);
  const props = { element, position, onChange };
  return (
    <div
      className={`rounded border bg-white p-3 ${issues?.length ? "border-red-400" : "border-gray-200"}`}
      data-testid="story-element"
      data-type={element.type}
      data-subtype={element.subtype ?? undefined}
    >
      <div className="mb-2 flex flex-wrap items-center justify-between gap-2">
        <span className="flex items-center gap-1 text-xs font-medium text-gray-700">
          {handle}
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
      <ElementFields {...props} />
    </div>
  );
}

function ElementFields(props: EditorProps) {
  const { element, position, onChange } = props;
  const metadata = element.metadata;
  const meta = (key: string) => (typeof metadata[key] === "string" ? metadata[key] : "");
  const setMeta = (key: string, value: string) => onChange({ ...element, metadata: { ...metadata, [key]: value } });
  switch (element.type) {
    case "text":
      return (
        <RichTextEditor
          label={`Text ${position}`}
          value={element.text ?? ""}
          onChange={(text) => onChange({ ...element, text })}
        />
      );
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

/** An HTML field edited as the text it shows: &, < and > are encoded on the way in. */
function PlainField({
  label,
  value,
  onChange,
  multiline,
  optional,
  hint,
}: {
  label: string;
  value: string | undefined;
  onChange: (html: string) => void;
  multiline?: boolean;
  optional?: boolean;
  hint?: string;
}) {
  const text = htmlToPlain(value);
  return (
    <FormField label={label} optional={optional} hint={hint}>
      {multiline ? (
        <Textarea rows={3} value={text} onChange={(event) => onChange(plainToHtml(event.target.value))} />
      ) : (
        <Input value={text} onChange={(event) => onChange(plainToHtml(event.target.value))} />
      )}
    </FormField>
  );
}

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

function ImageFields({ element, position, onChange, compact }: EditorProps & { compact?: boolean }) {
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

function GalleryFields({ element, position, onChange }: EditorProps) {
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
  const text = (key: string) => (typeof record[key] === "string" ? record[key] : "");
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
