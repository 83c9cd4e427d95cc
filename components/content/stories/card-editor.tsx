"use client";

/**
 * The story's cards and their elements: add, remove and reorder both (drag the handle, ./sortable-list.tsx,
 * or use Move up/down). Every element type the read API serves is edited here (./element-fields.tsx);
 * the server checks and sanitises all of it on save. A closed story shows its paywall divider
 * among them (./paywall-divider-control.tsx).
 */
import { Fragment, useRef, type ReactNode } from "react";

import { Button } from "@/components/ui";
import type { TCard, TStoryElement } from "@/server/publishing/cards.schema";

import { ElementFields } from "./element-fields";
import { dividerSlot, type DividerSlot } from "./paywall-divider";
import { PaywallDivider, type DividerFocus, type PaywallProps } from "./paywall-divider-control";
import type { EditorProps } from "./plain-field";
import { SortableItem, SortableList } from "./sortable-list";
import { ELEMENT_KINDS, kindOf, move, newCard, newElement, type ElementKind } from "./story-elements";

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

// ─── Cards ───────────────────────────────────────────────────────────────────────────────────

export function CardEditor({
  cards,
  issues = new Map(),
  paywall = null,
  onChange,
}: {
  cards: TCard[];
  /** Problems by position ("" all cards, "2" card 2, "2.1" its first element): see card-issues.ts. */
  issues?: ReadonlyMap<string, string[]>;
  /** The paywall divider of a closed story (null: a public story has none). */
  paywall?: PaywallProps | null;
  onChange: (cards: TCard[]) => void;
}) {
  const setCard = (index: number, card: TCard) => onChange(cards.map((c, i) => (i === index ? card : c)));
  const focusRef: DividerFocus = useRef(null);
  const slot: DividerSlot | null = paywall ? dividerSlot(cards, paywall.point) : null;
  const divider = paywall ? <PaywallDivider paywall={paywall} focusRef={focusRef} /> : null;
  return (
    <div className="space-y-4" data-testid="card-editor">
      <Issues issues={issues.get("")} />
      {cards.length === 0 ? (
        <p className="text-sm text-gray-500">
          No cards yet. A story is told in cards; each holds one or more elements.
        </p>
      ) : null}
      {slot?.kind === "start" ? divider : null}
      <SortableList ids={cards.map((c) => c.id)} noun="card" onMove={(from, to) => onChange(move(cards, from, to))}>
        <div className="space-y-4">
          {cards.map((card, index) => (
            <Fragment key={card.id}>
              <SortableItem id={card.id} label={`Drag card ${index + 1}`}>
                {(handle) => (
                  <CardBox
                    card={card}
                    index={index}
                    count={cards.length}
                    handle={handle}
                    issues={issues}
                    dividerAfter={slot?.kind === "in-card" && slot.card === index ? slot.element : null}
                    divider={divider}
                    onChange={(next) => setCard(index, next)}
                    onMove={(delta) => onChange(move(cards, index, index + delta))}
                    onRemove={() => onChange(cards.filter((_, i) => i !== index))}
                  />
                )}
              </SortableItem>
              {slot?.kind === "after-card" && slot.card === index ? divider : null}
            </Fragment>
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
  dividerAfter,
  divider,
  onChange,
  onMove,
  onRemove,
}: {
  card: TCard;
  index: number;
  count: number;
  handle: ReactNode;
  issues: ReadonlyMap<string, string[]>;
  /** The paywall divider goes after this element (index), or is not in this card (null). */
  dividerAfter: number | null;
  divider: ReactNode;
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
            <Fragment key={element.id}>
              <SortableItem id={element.id} label={`Drag element ${n}.${e + 1}`}>
                {(elementHandle) => (
                  <ElementEditor
                    element={element}
                    handle={elementHandle}
                    issues={issues.get(`${n}.${e + 1}`)}
                    position={`${n}.${e + 1}`}
                    isFirst={e === 0}
                    isLast={e === elements.length - 1}
                    onChange={(next) => setElements(elements.map((x, i) => (i === e ? next : x)))}
                    onReplace={(next) => {
                      const at = elements.findIndex((x) => x.id === element.id);
                      if (at >= 0) setElements([...elements.slice(0, at), ...next, ...elements.slice(at + 1)]);
                    }}
                    onMove={(delta) => setElements(move(elements, e, e + delta))}
                    onRemove={() => setElements(elements.filter((_, i) => i !== e))}
                  />
                )}
              </SortableItem>
              {dividerAfter === e ? divider : null}
            </Fragment>
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

function ElementEditor({
  element,
  handle,
  issues,
  position,
  isFirst,
  isLast,
  onChange,
  onReplace,
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
  const props = { element, position, onChange, onReplace };
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
