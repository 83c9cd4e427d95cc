import {
  Editor,
  flattenExtensions,
  getExtensionField,
  getSchema,
  type JSONContent,
  type MarkConfig,
} from "@tiptap/core";
import { Node as PMNode } from "@tiptap/pm/model";
import { EditorState, TextSelection } from "@tiptap/pm/state";
import { find } from "linkifyjs";
import { describe, expect, it, vi } from "vitest";

import { applyLinkTransaction, richTextExtensions, SLASH_ITEMS, slashMenuOpens } from "./rich-text-schema";

const schema = getSchema(richTextExtensions());
const text = (t: string, marks?: unknown[]) => ({ type: "text", text: t, ...(marks ? { marks } : {}) });
const p = (...content: unknown[]) => ({ type: "paragraph", content });
const doc = (...content: unknown[]) => ({ type: "doc", content });
const link = (href: string) => ({
  type: "link",
  attrs: { href, target: null, rel: null, class: null, title: null },
});

/** A state of `json` with the caret at `from` (or `from`–`to` selected). */
function stateOf(json: unknown, from: number, to = from): EditorState {
  const node = PMNode.fromJSON(schema, json);
  return EditorState.create({ doc: node, selection: TextSelection.create(node, from, to) });
}

/** What typing `chars` at the caret of `state` leaves (ProseMirror's own rule for the marks typed text gets). */
function typeAt(state: EditorState, chars: string): unknown {
  return state.apply(state.tr.insertText(chars)).doc.toJSON();
}

// linkify keeps the console.warn it finds when it loads: record from before any import runs.
const warnings = vi.hoisted(() => {
  const seen: string[] = [];
  const original = console.warn.bind(console);
  console.warn = (...args: unknown[]) => {
    seen.push(String(args[0]));
    original(...args);
  };
  return seen;
});

describe("links end where they end", () => {
  it("text typed right after a link is not part of it", () => {
    // "Read more": "more" (positions 6–10) links; the caret right after it.
    const state = stateOf(doc(p(text("Read "), text("more", [link("https://example.org/")]))), 10);
    expect(typeAt(state, " later")).toEqual(
      doc(p(text("Read "), text("more", [link("https://example.org/")]), text(" later"))),
    );
  });

  it("the right arrow at the end of a link is not TipTap's mark exit (which writes a space)", () => {
    const linkExtension = flattenExtensions(richTextExtensions()).find((e) => e.name === "link")!;
    expect(getExtensionField<MarkConfig["exitable"]>(linkExtension, "exitable")).toBe(false);
  });
});

describe("applyLinkTransaction (the link dialog's Apply)", () => {
  it("links the selection and leaves the caret after it, nothing selected, typing in plain text", () => {
    const state = stateOf(doc(p(text("Read more now"))), 6, 10);
    const next = state.apply(applyLinkTransaction(state, "https://example.org/", "ignored"));
    expect(next.doc.toJSON()).toEqual(
      doc(p(text("Read "), text("more", [link("https://example.org/")]), text(" now"))),
    );
    expect(next.selection.empty).toBe(true);
    expect(next.selection.from).toBe(10);
    expect(typeAt(next, "!")).toEqual(
      doc(p(text("Read "), text("more", [link("https://example.org/")]), text("! now"))),
    );
  });

  it("with nothing selected, inserts the address as the link and goes on after it", () => {
    const state = stateOf(doc(p(text("Read "))), 6);
    const next = state.apply(applyLinkTransaction(state, "https://example.org/x", "example.org/x"));
    expect(next.doc.toJSON()).toEqual(doc(p(text("Read "), text("example.org/x", [link("https://example.org/x")]))));
    expect(next.selection.empty).toBe(true);
    expect(next.selection.from).toBe(6 + "example.org/x".length);
    expect(typeAt(next, " then")).toEqual(
      doc(p(text("Read "), text("example.org/x", [link("https://example.org/x")]), text(" then"))),
    );
  });

  it("with the caret inside a link, changes that whole link and moves the caret after it", () => {
    const state = stateOf(doc(p(text("Read "), text("more", [link("https://old.example/")]), text(" now"))), 8);
    const next = state.apply(applyLinkTransaction(state, "https://new.example/", "ignored"));
    expect(next.doc.toJSON()).toEqual(
      doc(p(text("Read "), text("more", [link("https://new.example/")]), text(" now"))),
    );
    expect(next.selection.empty).toBe(true);
    expect(next.selection.from).toBe(10);
  });
  it("with the caret right after a link (typing there is plain text), inserts a new link rather than changing it", () => {
    const state = stateOf(doc(p(text("Read "), text("more", [link("https://old.example/")]))), 10);
    const next = state.apply(applyLinkTransaction(state, "https://new.example/", "new.example"));
    expect(next.doc.toJSON()).toEqual(
      doc(
        p(
          text("Read "),
          text("more", [link("https://old.example/")]),
          text("new.example", [link("https://new.example/")]),
        ),
      ),
    );
  });
});

describe("the editor's start", () => {
  it("writes no console warning when linkify has already started (the second editor on a page)", () => {
    warnings.length = 0;
    find("example.org"); // linkify starts on its first use
    const editor = new Editor({ extensions: richTextExtensions(), content: doc(p(text("x"))) as JSONContent });
    // What mounting the editor in a page does: the extensions' onCreate run.
    editor.emit("create", { editor });
    editor.destroy();
    expect(warnings).toEqual([]);
    // http(s) and mailto are linkify's own: links are still found without registering them.
    expect(find("see https://example.org and mailto:a@example.org").map((l) => l.href)).toEqual([
      "https://example.org",
      "mailto:a@example.org",
    ]);
  });
});

describe('the "/" insert menu', () => {
  it("opens only with the caret in an empty paragraph of the text, not in a list, quote or written line", () => {
    const empty = doc(p(text("Intro")), { type: "paragraph" });
    expect(slashMenuOpens(stateOf(empty, 8))).toBe(true);
    expect(slashMenuOpens(stateOf(doc({ type: "paragraph" }), 1))).toBe(true);
    // In a line with words: "/" is a slash (a date, "and/or").
    expect(slashMenuOpens(stateOf(doc(p(text("and"))), 4))).toBe(false);
    // A selection, an empty list item or quote line: a slash too.
    expect(slashMenuOpens(stateOf(doc(p(text("Intro"))), 1, 6))).toBe(false);
    const list = doc({ type: "bulletList", content: [{ type: "listItem", content: [{ type: "paragraph" }] }] });
    expect(slashMenuOpens(stateOf(list, 3))).toBe(false);
    expect(slashMenuOpens(stateOf(doc({ type: "blockquote", content: [{ type: "paragraph" }] }), 2))).toBe(false);
  });

  it("offers the blocks the toolbar makes, each once", () => {
    expect(SLASH_ITEMS.map((i) => i.label)).toEqual([
      "Heading",
      "Subheading",
      "Bulleted list",
      "Numbered list",
      "Quote",
    ]);
  });
});
