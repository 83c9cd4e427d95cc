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
 * - The placeholders JSON.stringify writes for those objects carry a random marker per call,
 *   starting with a NUL that JSON escapes: no string a reader or editor wrote can match one.
 */
import { randomBytes } from "node:crypto";

const TEXT = Symbol("json text");

/**
 * The texts taken while `toJsonText` runs (JSON.stringify is synchronous: one call at a time), and
 * the call's marker, drawn when the first text is taken.
 */
let taken: string[] | null = null;
let marker = "";

function keptToJson(this: { [TEXT]?: string }): unknown {
  const text = this[TEXT];
  if (taken === null || text === undefined) return this;
  if (taken.length === 0) marker = randomBytes(8).toString("hex");
  taken.push(text);
  return `\u0000${marker}:${taken.length - 1}`;
}

/**
 * The object whose JSON text is `text`, parsed only when something looks past `known` (fields the
 * caller already has, equal to the text's): `toJsonText` writes the text itself, so an object only
 * passed along to be sent is never parsed. Once parsed it is a plain object behind a proxy; a
 * change to it drops the text, and it is then serialised as it is.
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
      parse();
      return target[key];
    },
    has(_, key) {
      parse();
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

/** JSON.stringify(value), with the objects given a text written as their text. */
export function toJsonText(value: unknown): string {
  const outer = taken;
  const outerMarker = marker;
  const texts: string[] = [];
  taken = texts;
  try {
    const json = JSON.stringify(value);
    if (texts.length === 0) return json;
    return json.replace(new RegExp(`"\\\\u0000${marker}:(\\d+)"`, "g"), (_, index: string) => texts[Number(index)]!);
  } finally {
    taken = outer;
    marker = outerMarker;
  }
}
