"use client";

/**
 * The sortable lists of the card editor (the cards, a card's elements): drag the handle with a
 * pointer, or focus it and press Space, the arrow keys and Space again; screen readers hear each
 * step by position.
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
import { useId, type ReactNode } from "react";

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

export function SortableList({
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
  // A stable id: dnd-kit's own counter differs between the server's render and the browser's,
  // which breaks hydration of the handles' aria-describedby.
  const id = useId();
  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (!over || active.id === over.id) return;
    onMove(ids.indexOf(String(active.id)), ids.indexOf(String(over.id)));
  };
  return (
    <DndContext
      id={id}
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
export function SortableItem({
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
