"use client";

/**
 * The rich-text editor of text elements (TipTap 3 on ProseMirror): paragraphs, bold, italic,
 * links, bullet and numbered lists, headings (h2, h3) and quotes, nothing else, so what it writes
 * is exactly what the server keeps after sanitising (./rich-text-schema.ts, unit-tested against
 * server/publishing/editorial/sanitize.ts). Paste from Word and Google Docs is cleaned first.
 *
 * Keyboard: Ctrl/⌘+B bold, +I italic, +K link, +Alt+2/3 headings, +Shift+8 bullets, +Shift+7
 * numbers, +Shift+B quote; the toolbar's buttons say whether they are on (aria-pressed). "/" in
 * an empty paragraph opens the insert menu (./slash-menu.tsx).
 */
import { createDocument, EditorContent, useEditor, useEditorState, type Editor } from "@tiptap/react";
import { useEffect, useId, useRef, useState, type ReactNode } from "react";

import { Button, Dialog, FormActions, FormField, Input } from "@/components/ui";

import "./rich-text.css";

import { useStoryReadOnly } from "./read-only";
import {
  applyLinkTransaction,
  cleanPastedHtml,
  linkHrefFromInput,
  normaliseEditorHtml,
  richTextExtensions,
  slashMenuOpens,
} from "./rich-text-schema";
import { SlashMenu, type SlashMenuAt } from "./slash-menu";

export function RichTextEditor({
  value,
  onChange,
  label,
  onImageFiles,
}: {
  /** Sanitised HTML (as the API serves it). */
  value: string;
  onChange: (html: string) => void;
  /** The editable area's accessible name ("Text 1.1"). */
  label: string;
  /**
   * Image files dropped or pasted into the text, with where: the number of top-level blocks
   * (paragraphs, headings, lists, quotes) before the drop point. Without it, files are ignored.
   */
  onImageFiles?: (files: File[], blocksBefore: number) => void;
}) {
  const [linkOpen, setLinkOpen] = useState(false);
  const [slashAt, setSlashAt] = useState<SlashMenuAt | null>(null);
  const onChangeRef = useRef(onChange);
  const onImageFilesRef = useRef(onImageFiles);
  const lastEmitted = useRef(value);
  useEffect(() => {
    onChangeRef.current = onChange;
    onImageFilesRef.current = onImageFiles;
  }, [onChange, onImageFiles]);

  const readOnly = useStoryReadOnly();
  const editor = useEditor({
    extensions: richTextExtensions(),
    content: value,
    editable: !readOnly,
    immediatelyRender: false,
    editorProps: {
      attributes: {
        "aria-label": label,
        "aria-multiline": "true",
        role: "textbox",
        class:
          "rich-text min-h-32 rounded-b-md border border-gray-300 bg-white px-3 py-2 text-base focus-visible:ring-2 focus-visible:ring-brand-600 focus-visible:outline-none",
        "data-testid": "rich-text",
      },
      transformPastedHTML: cleanPastedHtml,
      // An image file dropped or pasted goes into the story as an image element at that point.
      handleDrop: (view, event, _slice, moved) => {
        const files = imageFilesOf(event.dataTransfer);
        if (moved || !files.length || !onImageFilesRef.current) return false;
        event.preventDefault();
        const at = view.posAtCoords({ left: event.clientX, top: event.clientY });
        onImageFilesRef.current(files, blocksBefore(view.state.doc, at ? at.pos : view.state.doc.content.size));
        return true;
      },
      handlePaste: (view, event) => {
        const files = imageFilesOf(event.clipboardData);
        if (!files.length || !onImageFilesRef.current) return false;
        event.preventDefault();
        onImageFilesRef.current(files, blocksBefore(view.state.doc, view.state.selection.from));
        return true;
      },
      handleKeyDown: (view, event) => {
        if ((event.ctrlKey || event.metaKey) && !event.altKey && event.key.toLowerCase() === "k") {
          event.preventDefault();
          setLinkOpen(true);
          return true;
        }
        if (event.key === "/" && !event.ctrlKey && !event.metaKey && !event.altKey && slashMenuOpens(view.state)) {
          event.preventDefault();
          const caret = view.coordsAtPos(view.state.selection.from);
          setSlashAt({ top: caret.bottom + 4, left: caret.left });
          return true;
        }
        return false;
      },
    },
    onUpdate: ({ editor: current }) => {
      const html = normaliseEditorHtml(current.getHTML());
      if (html === lastEmitted.current) return;
      lastEmitted.current = html;
      onChangeRef.current(html);
    },
  });

  useEffect(() => {
    if (editor && editor.isEditable === readOnly) editor.setEditable(!readOnly, false);
  }, [editor, readOnly]);

  // A new value from outside (a reload, a restored revision): shown, without moving the caret otherwise.
  // The same document spelled another way (a save's answer: the server's sanitised HTML of what was
  // typed) changes nothing: setting it would put the caret back at the start while the editor types.
  useEffect(() => {
    if (!editor || value === lastEmitted.current) return;
    lastEmitted.current = value;
    if (createDocument(value, editor.schema).eq(editor.state.doc)) return;
    editor.commands.setContent(value, { emitUpdate: false });
  }, [editor, value]);

  return (
    <div data-testid="rich-text-editor">
      <Toolbar editor={editor} onLink={() => setLinkOpen(true)} />
      <EditorContent editor={editor} />
      {editor ? <LinkDialog editor={editor} open={linkOpen} onClose={() => setLinkOpen(false)} /> : null}
      {editor && slashAt ? <SlashMenu editor={editor} at={slashAt} onClose={() => setSlashAt(null)} /> : null}
    </div>
  );
}

/** The files of a drop or paste that are images (any image type: the upload says which it takes). */
function imageFilesOf(data: DataTransfer | null): File[] {
  return Array.from(data?.files ?? []).filter((file) => file.type.startsWith("image/"));
}

/** Top-level blocks before `pos`: the block `pos` is inside counts (the image goes after it). */
function blocksBefore(doc: Editor["state"]["doc"], pos: number): number {
  const $pos = doc.resolve(Math.max(0, Math.min(pos, doc.content.size)));
  return $pos.depth === 0 ? $pos.index(0) : $pos.index(0) + 1;
}

function Toolbar({ editor, onLink }: { editor: Editor | null; onLink: () => void }) {
  const state = useEditorState({
    editor,
    selector: ({ editor: e }) =>
      e
        ? {
            bold: e.isActive("bold"),
            italic: e.isActive("italic"),
            link: e.isActive("link"),
            h2: e.isActive("heading", { level: 2 }),
            h3: e.isActive("heading", { level: 3 }),
            bullets: e.isActive("bulletList"),
            numbers: e.isActive("orderedList"),
            quote: e.isActive("blockquote"),
          }
        : null,
  });
  const run = (command: (e: Editor) => void) => () => {
    if (editor) command(editor);
  };
  return (
    <div
      role="toolbar"
      aria-label="Formatting"
      className="flex flex-wrap gap-1 rounded-t-md border border-b-0 border-gray-300 bg-gray-50 p-1"
    >
      <Tool
        pressed={state?.bold}
        label="Bold (Ctrl+B)"
        shows="B"
        onClick={run((e) => e.chain().focus().toggleBold().run())}
      >
        <strong>B</strong>
      </Tool>
      <Tool
        pressed={state?.italic}
        label="Italic (Ctrl+I)"
        shows="I"
        onClick={run((e) => e.chain().focus().toggleItalic().run())}
      >
        <em>I</em>
      </Tool>
      <Tool pressed={state?.link} label="Link (Ctrl+K)" shows="Link" onClick={onLink}>
        Link
      </Tool>
      <Tool
        pressed={state?.h2}
        label="Heading (Ctrl+Alt+2)"
        shows="H2"
        onClick={run((e) => e.chain().focus().toggleHeading({ level: 2 }).run())}
      >
        H2
      </Tool>
      <Tool
        pressed={state?.h3}
        label="Subheading (Ctrl+Alt+3)"
        shows="H3"
        onClick={run((e) => e.chain().focus().toggleHeading({ level: 3 }).run())}
      >
        H3
      </Tool>
      <Tool
        pressed={state?.bullets}
        label="Bulleted list (Ctrl+Shift+8)"
        shows="• List"
        onClick={run((e) => e.chain().focus().toggleBulletList().run())}
      >
        • List
      </Tool>
      <Tool
        pressed={state?.numbers}
        label="Numbered list (Ctrl+Shift+7)"
        shows="1. List"
        onClick={run((e) => e.chain().focus().toggleOrderedList().run())}
      >
        1. List
      </Tool>
      <Tool
        pressed={state?.quote}
        label="Quote (Ctrl+Shift+B)"
        shows="“ Quote"
        onClick={run((e) => e.chain().focus().toggleBlockquote().run())}
      >
        “ Quote
      </Tool>
    </div>
  );
}

/**
 * A toolbar button's accessible name: what it does (`label`), after the text it shows when that
 * text is not already its start, so speech input can say what is on the button (WCAG 2.5.3,
 * label in name): "H2" → "H2: Heading (Ctrl+Alt+2)", "Link" → "Link (Ctrl+K)", "B" → "Bold (Ctrl+B)".
 */
export function toolName(shows: string, label: string): string {
  // A single letter ("B" for bold) is a picture of the action rather than a word to say.
  const said = shows.replace(/[^\p{L}\p{N}]+/gu, "");
  return said.length < 2 || label.toLowerCase().startsWith(shows.toLowerCase()) ? label : `${shows}: ${label}`;
}

function Tool({
  pressed,
  label,
  shows,
  onClick,
  children,
}: {
  pressed: boolean | undefined;
  label: string;
  /** The text the button shows (children may style it). */
  shows: string;
  onClick: () => void;
  children: ReactNode;
}) {
  return (
    <button
      type="button"
      aria-pressed={pressed ?? false}
      aria-label={toolName(shows, label)}
      title={label}
      // Keep the editor's selection: the click must not move the focus before the command runs.
      onMouseDown={(event) => event.preventDefault()}
      onClick={onClick}
      className="min-h-8 min-w-8 rounded px-2 text-xs text-gray-700 hover:bg-gray-200 focus-visible:ring-2 focus-visible:ring-brand-600 focus-visible:outline-none aria-pressed:bg-gray-800 aria-pressed:text-white"
    >
      {children}
    </button>
  );
}

/** Add, change or remove the link on the selection: http(s) and mailto only, as the server keeps. */
function LinkDialog({ editor, open, onClose }: { editor: Editor; open: boolean; onClose: () => void }) {
  return (
    <Dialog open={open} onClose={onClose} title="Link" size="sm">
      <LinkForm editor={editor} onClose={onClose} />
    </Dialog>
  );
}

function LinkForm({ editor, onClose }: { editor: Editor; onClose: () => void }) {
  const current = (editor.getAttributes("link") as { href?: string }).href ?? "";
  const [input, setInput] = useState(current);
  const [error, setError] = useState<string | undefined>();
  const id = useId();
  const done = () => {
    onClose();
    editor.commands.focus();
  };
  const apply = () => {
    const href = linkHrefFromInput(input);
    if (!href) {
      setError("Use a web address (https://…) or an email address.");
      return;
    }
    // The caret ends after the link, nothing selected: typing goes on in plain text.
    editor.view.dispatch(applyLinkTransaction(editor.state, href, input.trim()));
    done();
  };
  // Not a <form>: the editor sits inside the story's form, and forms do not nest.
  return (
    <div
      onKeyDown={(event) => {
        if (event.key === "Enter" && event.target instanceof HTMLInputElement) {
          event.preventDefault();
          apply();
        }
      }}
    >
      <FormField label="Address" id={id} error={error} hint="https://… or an email address">
        <Input
          data-autofocus
          value={input}
          onChange={(event) => {
            setInput(event.target.value);
            setError(undefined);
          }}
          inputMode="url"
          autoComplete="off"
        />
      </FormField>
      <FormActions>
        <Button variant="primary" onClick={apply}>
          Apply
        </Button>
        {current ? (
          <Button
            onClick={() => {
              editor.chain().focus().extendMarkRange("link").unsetLink().run();
              done();
            }}
          >
            Remove link
          </Button>
        ) : null}
        <Button onClick={onClose}>Cancel</Button>
      </FormActions>
    </div>
  );
}
