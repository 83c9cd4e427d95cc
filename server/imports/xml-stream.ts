/**
 * An XML export read as a stream of small records (a Disqus <post>, a WXR <wp:comment>), in
 * bounded memory: the file is read in chunks, decoded, and parsed by `saxes`; only the record
 * being read is held, as a small tree.
 *
 * **A file that is not well-formed XML is refused whole** (ImportFileError, naming the line and
 * column): the import's first read (`prepare`) meets it before anything is written, so nothing of
 * such a file is imported. That is:
 * - any error saxes reports (a tag not closed or closed out of order, an attribute twice, a
 *   character XML does not allow, an entity that is not declared…);
 * - a file that ends before its root element closes (truncated);
 * - a DTD declaring entities (`<!ENTITY xxe SYSTEM "file:///etc/passwd">`, the XXE attack, or the
 *   "billion laughs" nest of entities): no entity is ever expanded, nothing is fetched or read
 *   from disk, and an export never declares any; only XML's five predefined entities and
 *   character references are decoded;
 * - bytes that do not decode in the file's encoding (text-decoding.ts). The encoding: a
 *   byte-order mark (UTF-8, UTF-16 LE/BE) wins, then the XML declaration's `encoding`, then
 *   UTF-8; one the platform cannot decode is refused too.
 *
 * **Names are resolved by namespace URI, not by prefix.** An element or attribute in one of the
 * namespaces the readers know (NAMESPACES) is named with that namespace's usual prefix, whatever
 * prefix the file binds it to (`<alt:post_id xmlns:alt="http://wordpress.org/export/1.2/">` and
 * `<post_id xmlns="http://wordpress.org/export/1.2/">` are both `wp:post_id`); a prefix bound to
 * another URI is named `{uri}local`, which no reader asks for (`<wp:post_id
 * xmlns:wp="http://example.com/">` is not a post id). Declarations nest and are undone where their
 * element closes, as XML Namespaces says. An unprefixed element in no namespace or another one
 * keeps its local name (RSS's and Disqus's own elements); a prefix the file never declares keeps
 * its name as written.
 */
import "server-only";

import fs from "node:fs";

import { SaxesParser } from "saxes";

import { displayName, ImportLimitError, MAX_DEPTH, tooDeepMessage } from "./limits";
import { StrictDecoder } from "./text-decoding";
import { ImportFileError } from "./types";

export type XmlNode = {
  name: string;
  attrs: Record<string, string>;
  /** Text and CDATA directly inside, as written (not trimmed). */
  text: string;
  children: XmlNode[];
  line: number;
};

type XmlEvent =
  /** The root element (the first element of the file). */
  | { type: "root"; name: string }
  /** An element outside records, at depth ≤ `structureDepth` (root: 1), opened or closed. */
  | { type: "open" | "close"; name: string; depth: number; line: number }
  | { type: "record"; node: XmlNode; path: string[] };

type XmlStreamOptions = {
  /** Whether an element at `path` (names from the root, its own last) starts a record. */
  isRecord: (path: readonly string[]) => boolean;
  structureDepth?: number;
  /** Bytes per read (tests use small ones to cross every boundary). */
  chunkBytes?: number;
  /** Called with every chunk of bytes read (the file's digest). */
  onBytes?: (bytes: Buffer) => void;
};

/** A record's child by name (the last, when it has several, as WordPress's importer reads them), or undefined. */
export function child(node: XmlNode, name: string): XmlNode | undefined {
  return node.children.findLast((c) => c.name === name);
}

/** The namespaces the readers ask for, by URI, with the prefix their names are given. */
const NAMESPACES: readonly (readonly [RegExp, string])[] = [
  [/^http:\/\/wordpress\.org\/export\/[^/]+\/excerpt\/$/, "excerpt"],
  // Every WXR version's URI: wxr.ts reads <wp:wxr_version> and refuses the versions it does not read.
  [/^http:\/\/wordpress\.org\/export\/[^/]+\/$/, "wp"],
  [/^http:\/\/purl\.org\/rss\/1\.0\/modules\/content\/$/, "content"],
  [/^http:\/\/purl\.org\/dc\/elements\/1\.1\/$/, "dc"],
  [/^http:\/\/disqus\.com\/disqus-internals$/, "dsq"],
];

/** Prefix → URI in scope ("" the default namespace); a Map, as prefixes are the file's text. */
type Scope = ReadonlyMap<string, string>;

/** The scope inside an element: its parent's, with the element's own declarations. */
function scopeOf(parent: Scope, attrs: Record<string, string>): Scope {
  let scope: Map<string, string> | null = null;
  for (const [name, value] of Object.entries(attrs)) {
    const prefix = name === "xmlns" ? "" : name.startsWith("xmlns:") ? name.slice(6) : null;
    if (prefix === null) continue;
    scope ??= new Map(parent);
    scope.set(prefix, value);
  }
  return scope ?? parent;
}

/** An element's or attribute's name as the readers ask for it (see the file's comment). */
function resolvedName(name: string, scope: Scope, element: boolean): string {
  const colon = name.indexOf(":");
  const prefix = colon === -1 ? "" : name.slice(0, colon);
  if (prefix === "xml" || prefix === "xmlns" || (colon === -1 && !element)) return name;
  const uri = scope.get(prefix);
  if (uri === undefined) return name;
  const local = name.slice(colon + 1);
  const known = NAMESPACES.find(([pattern]) => pattern.test(uri));
  if (known) return `${known[1]}:${local}`;
  return colon === -1 ? local : `{${uri}}${local}`;
}

function resolvedAttrs(attrs: Record<string, string>, scope: Scope): Record<string, string> {
  const out: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const [name, value] of Object.entries(attrs)) out[resolvedName(name, scope, false)] = value;
  return out;
}

/** The trimmed text of a child (undefined when the child is absent). */
export function childText(node: XmlNode, name: string): string | undefined {
  const c = child(node, name);
  return c === undefined ? undefined : c.text.trim();
}

const SNIFF_BYTES = 512;

/** The encoding a file's first bytes declare (see the file's comment), and the BOM's length. */
function sniffEncoding(head: Buffer): { encoding: string; bomLength: number } {
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) return { encoding: "utf-8", bomLength: 3 };
  if (head[0] === 0xff && head[1] === 0xfe) return { encoding: "utf-16le", bomLength: 2 };
  if (head[0] === 0xfe && head[1] === 0xff) return { encoding: "utf-16be", bomLength: 2 };
  const declaration = /^\s*<\?xml[^>]*?\bencoding\s*=\s*["']([A-Za-z0-9._:-]+)["']/.exec(head.toString("latin1"));
  return { encoding: declaration ? declaration[1]!.toLowerCase() : "utf-8", bomLength: 0 };
}

/** The one refusal of a file that is not well-formed (see the file's comment). */
function notWellFormed(path: string, where: string, why: string): ImportFileError {
  return new ImportFileError(
    `${displayName(path)} is not well-formed XML: ${where}: ${why}. Nothing of it is imported (is it whole, and the export it says it is?).`,
  );
}

async function readHead(path: string): Promise<Buffer> {
  let handle: fs.promises.FileHandle;
  try {
    handle = await fs.promises.open(path, "r");
  } catch (error) {
    const code = (error as { code?: string }).code;
    const why =
      code === "ENOENT"
        ? "no such file"
        : code === "EACCES"
          ? "permission denied"
          : code === "EISDIR"
            ? "it is a directory"
            : (code ?? "unreadable");
    throw new ImportFileError(`Cannot read ${displayName(path)}: ${why}.`);
  }
  try {
    const head = Buffer.alloc(SNIFF_BYTES);
    const { bytesRead } = await handle.read(head, 0, SNIFF_BYTES, 0);
    return head.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** Stream `path` as XmlEvents (see the file's comment). ImportFileError when it cannot be opened or decoded. */
export async function* streamXml(path: string, options: XmlStreamOptions): AsyncGenerator<XmlEvent> {
  const head = await readHead(path);
  const { encoding, bomLength } = sniffEncoding(head);
  const decoder = new StrictDecoder(encoding, displayName(path));
  const structureDepth = options.structureDepth ?? 2;

  const queue: XmlEvent[] = [];
  const parser = new SaxesParser({ xmlns: false, position: true });
  const stack: string[] = [];
  /** The namespaces in scope of each open element, outermost first (XML's own prefix bound). */
  const scopes: Scope[] = [];
  const documentScope: Scope = new Map([["xml", "http://www.w3.org/XML/1998/namespace"]]);
  /** The record being read: its open elements, outermost first. */
  let record: { nodes: XmlNode[]; path: string[] } | null = null;
  let sawRoot = false;
  /** Set when an element opens deeper than MAX_DEPTH: the whole file is refused (see limits.ts). */
  let tooDeep: string | null = null;
  /** The first reason the file is not well-formed: it is refused once the chunk is parsed. */
  let fatal: ImportFileError | null = null;

  parser.on("error", (error) => {
    const at = /^(\d+):(\d+): /.exec(error.message);
    const where = at ? `line ${at[1]}, column ${at[2]}` : `line ${parser.line}`;
    const why = error.message.replace(/^\d+:\d+: /, "").replace(/\.$/, "");
    fatal ??= sawRoot
      ? notWellFormed(path, where, why)
      : new ImportFileError(
          `${displayName(path)} is not XML: it holds no XML element (${where}: ${why}). Nothing of it is imported.`,
        );
  });
  parser.on("doctype", (doctype) => {
    if (/<!ENTITY/i.test(doctype)) {
      fatal ??= notWellFormed(
        path,
        `line ${parser.line}`,
        "its DTD declares entities (an export never does; entities are never expanded)",
      );
    }
  });
  parser.on("opentag", (tag) => {
    const raw = tag.attributes as Record<string, string>;
    const scope = scopeOf(scopes.at(-1) ?? documentScope, raw);
    const name = resolvedName(tag.name, scope, true);
    stack.push(name);
    scopes.push(scope);
    if (stack.length > MAX_DEPTH) {
      tooDeep ??= `line ${parser.line}, <${tag.name}>`;
      return;
    }
    const attrs = resolvedAttrs(raw, scope);
    if (!sawRoot) {
      sawRoot = true;
      queue.push({ type: "root", name });
    }
    if (record) {
      const node: XmlNode = { name, attrs, text: "", children: [], line: parser.line };
      record.nodes[record.nodes.length - 1]!.children.push(node);
      record.nodes.push(node);
    } else if (options.isRecord(stack)) {
      record = { nodes: [{ name, attrs, text: "", children: [], line: parser.line }], path: [...stack] };
    } else if (stack.length <= structureDepth) {
      queue.push({ type: "open", name, depth: stack.length, line: parser.line });
    }
  });
  const onText = (text: string) => {
    if (record) record.nodes[record.nodes.length - 1]!.text += text;
  };
  parser.on("text", onText);
  parser.on("cdata", onText);
  parser.on("closetag", () => {
    const name = stack.pop()!;
    scopes.pop();
    if (stack.length >= MAX_DEPTH) return;
    if (record) {
      const node = record.nodes.pop()!;
      if (record.nodes.length === 0) {
        queue.push({ type: "record", node, path: record.path });
        record = null;
      }
    } else if (stack.length < structureDepth) {
      queue.push({ type: "close", name, depth: stack.length + 1, line: parser.line });
    }
  });
  /** Parse the next bytes (null: the end); throw what makes the file refused. */
  const parse = (bytes: Buffer | null) => {
    parser.write(decoder.decode(bytes, { line: parser.line, column: parser.column + 1 }));
    if (tooDeep) throw new ImportLimitError(tooDeepMessage(displayName(path), tooDeep));
    if (fatal) throw fatal;
  };

  const stream = fs.createReadStream(path, { start: bomLength, highWaterMark: options.chunkBytes ?? 64 * 1024 });
  if (bomLength > 0) options.onBytes?.(head.subarray(0, bomLength));
  try {
    for await (const chunk of stream) {
      const bytes = chunk as Buffer;
      options.onBytes?.(bytes);
      parse(bytes);
      yield* queue.splice(0);
    }
    parse(null);
    if (!sawRoot) throw notWellFormed(path, `line ${parser.line}`, "it holds no element");
    if (stack.length > 0) {
      const open = (record as { nodes: XmlNode[] } | null)?.nodes[0];
      const inside = open ? `, inside the <${open.name}> of line ${open.line}` : "";
      throw notWellFormed(path, `line ${parser.line}`, `the file ends before </${stack[0]}>${inside}: it was cut off`);
    }
    parser.close();
    // Set by the "error" handler during close (TypeScript cannot see a callback's assignment).
    const atClose = fatal as ImportFileError | null;
    if (atClose) throw atClose;
    yield* queue.splice(0);
  } finally {
    stream.destroy();
  }
}
