/**
 * JSON text that reuses text already written: an object made from its exact JSON text
 * (`lazyJsonObject`) is written as that text by `toJsonText`, instead of being serialised again.
 * The public story reads use it for the wire forms they read as text (publishing/story-wire.ts).
 *
 * Invariants:
 * - `toJsonText(value)` is `JSON.stringify(value)`: such an object holds exactly what its text
 *   says, and a change to it drops the text.
 * - Everywhere else such an object serialises as it is: its text is used only inside `toJsonText`.
 *   A copy (spread) is a plain object, serialised as usual.
 * - The placeholders JSON.stringify writes for those objects carry a random marker, drawn once
 *   per process and never written out (every placeholder is replaced), starting with a NUL that
 *   JSON escapes: no string a reader or editor wrote can match one.
 * - An answer that holds such texts is ASCII when they are (`asciiJson`): the rest of it is
 *   escaped to match, so the whole is one byte per character (below).
 *
 * Why ASCII: V8 keeps a string that holds any character beyond Latin-1 at two bytes per
 * character, and joining, copying and encoding such strings to UTF-8 costs an order of magnitude
 * more than the same for ASCII (20 stories of 4 kB each with a few typographic quotes: 400 µs
 * decoded, joined, encoded and hashed, against 120 µs for the same stories escaped).
 */
import { randomBytes } from "node:crypto";

const TEXT = Symbol("json text");

/** The texts taken while `toJsonText` runs (JSON.stringify is synchronous: one call at a time). */
let taken: string[] | null = null;
const marker = randomBytes(8).toString("hex");
const PLACEHOLDER = new RegExp(`"\\\\u0000${marker}:(\\d+)"`, "g");

function keptToJson(this: { [TEXT]?: string }): unknown {
  const text = this[TEXT];
  if (taken === null || text === undefined) return this;
  taken.push(text);
  return `\u0000${marker}:${taken.length - 1}`;
}

/** Characters JSON text may hold that are not ASCII. */
const NOT_ASCII = /[\u007f-\uffff]/g;

/**
 * The same JSON text with every character beyond ASCII written as its \uXXXX escape: the same
 * value to every JSON parser, held by V8 at one byte per character.
 */
export function asciiJson(text: string): string {
  return text.replace(NOT_ASCII, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/**
 * The object whose JSON text is `text` (as JSON.stringify wrote it), parsed only when something
 * looks past `known` (fields the caller already has, equal to the text's): `toJsonText` writes the
 * text itself, so an object only passed along to be sent is never parsed. Once parsed it is a plain
 * object behind a proxy; a change to it drops the text, and it is then serialised as it is.
 * Returned from an async function, it is asked for `then`: answered without parsing when the text
 * holds no such key (JSON has no functions, so it is never a thenable).
 */
export function lazyJsonObject<T extends object>(text: string, known: Partial<T>): T {
  const target: Record<PropertyKey, unknown> = {};
  let kept: string | undefined = text;
  let parsed = false;
  const parse = () => {
    if (!parsed) {
      Object.assign(target, JSON.parse(text));
      parsed = true;
    }
  };
  const changed = () => {
    parse();
    kept = undefined;
  };
  return new Proxy(target, {
    get(_, key) {
      if (key === TEXT) return kept;
      if (key === "toJSON" && !Object.hasOwn(target, "toJSON")) return keptToJson;
      if (!parsed && typeof key === "string" && Object.hasOwn(known, key)) return known[key as keyof T];
      if (!parsed && key === "then" && !text.includes('"then":')) return undefined;
      parse();
      // eslint-disable-next-line masthead/no-string-key-on-plain-object -- the proxy answers what its target would
      return target[key];
    },
    has(_, key) {
      parse();
      // eslint-disable-next-line masthead/no-string-key-on-plain-object -- the proxy answers what its target would
      return key in target;
    },
    ownKeys() {
      parse();
      return Reflect.ownKeys(target);
    },
    getOwnPropertyDescriptor(_, key) {
      parse();
      return Reflect.getOwnPropertyDescriptor(target, key);
    },
    set(_, key, value) {
      changed();
      return Reflect.set(target, key, value);
    },
    defineProperty(_, key, descriptor) {
      changed();
      return Reflect.defineProperty(target, key, descriptor);
    },
    deleteProperty(_, key) {
      changed();
      return Reflect.deleteProperty(target, key);
    },
  }) as T;
}

/**
 * JSON.stringify(value), with the objects given a text written as their text. When there are such
 * texts, what is around them is written ASCII (`asciiJson`).
 */
export function toJsonText(value: unknown): string {
  const outer = taken;
  const texts: string[] = [];
  taken = texts;
  try {
    const json = JSON.stringify(value);
    if (texts.length === 0) return json;
    return asciiJson(json).replace(PLACEHOLDER, (_, index: string) => texts[Number(index)]!);
  } finally {
    taken = outer;
  }
}
