"use client";

/**
 * The rich-text editor's "/" insert menu: "/" typed in an empty paragraph (./rich-text-schema.ts
 * slashMenuOpens) opens a menu of the blocks the toolbar makes, under the caret. Arrow keys move,
 * Enter or a click inserts and returns to the text; Escape closes it and types the "/" after all,
 * so nothing typed is lost.
 */
import type { Editor } from "@tiptap/react";
import { useEffect, useRef, useState } from "react";

import { SLASH_ITEMS, type SlashItem } from "./rich-text-schema";

export type SlashMenuAt = { top: number; left: number };

/**
 * Give the text the focus now. Tiptap's focus command waits for the next animation frame, and
 * keys typed before it (the menu is gone, nothing holds the focus) would be lost.
 */
function focusNow(editor: Editor): void {
  editor.view.focus();
}

/** Turn the empty paragraph at the caret into the chosen block. */
function insert(editor: Editor, item: SlashItem): void {
  focusNow(editor);
  const chain = editor.chain().focus();
  if (item === "h2") chain.setHeading({ level: 2 }).run();
  else if (item === "h3") chain.setHeading({ level: 3 }).run();
  else if (item === "bullets") chain.toggleBulletList().run();
  else if (item === "numbers") chain.toggleOrderedList().run();
  else chain.toggleBlockquote().run();
}

export function SlashMenu({ editor, at, onClose }: { editor: Editor; at: SlashMenuAt; onClose: () => void }) {
  const [active, setActive] = useState(0);
  const items = useRef<(HTMLButtonElement | null)[]>([]);
  useEffect(() => {
    items.current[active]?.focus();
  }, [active]);

  const choose = (item: SlashItem) => {
    onClose();
    insert(editor, item);
  };
  const cancel = (typeSlash: boolean) => {
    onClose();
    focusNow(editor);
    if (typeSlash) editor.chain().focus().insertContent("/").run();
  };
  return (
    <div
      role="menu"
      aria-label="Insert"
      data-testid="slash-menu"
      style={{ top: at.top, left: at.left }}
      className="fixed z-30 w-60 rounded-md border border-gray-300 bg-white p-1 shadow-lg"
      onKeyDown={(event) => {
        if (event.key === "ArrowDown" || event.key === "ArrowUp") {
          event.preventDefault();
          const step = event.key === "ArrowDown" ? 1 : -1;
          setActive((i) => (i + step + SLASH_ITEMS.length) % SLASH_ITEMS.length);
        } else if (event.key === "Escape") {
          event.preventDefault();
          event.stopPropagation();
          cancel(true);
        } else if (event.key === "Tab") {
          event.preventDefault();
          cancel(false);
        }
      }}
      onBlur={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget)) onClose();
      }}
    >
      {SLASH_ITEMS.map((item, index) => (
        <button
          key={item.id}
          ref={(el) => {
            items.current[index] = el;
          }}
          type="button"
          role="menuitem"
          tabIndex={index === active ? 0 : -1}
          onClick={() => choose(item.id)}
          onMouseEnter={() => setActive(index)}
          className="flex min-h-9 w-full flex-col items-start rounded px-2 py-1 text-left text-sm text-gray-900 hover:bg-gray-100 focus-visible:bg-brand-50 focus-visible:outline-none"
        >
          <span className="font-medium">{item.label}</span>
          <span className="text-xs text-gray-600">{item.hint}</span>
        </button>
      ))}
    </div>
  );
}
