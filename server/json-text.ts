/**
 * JSON text that reuses text already written: an object given its exact JSON text
 * (`withJsonText`) is written as that text by `toJsonText`, instead of being serialised again.
 * The public story reads use it for the wire forms they read as text (publishing/story-wire.ts).
 *
 * Invariants:
 * - `toJsonText(value)` is `JSON.stringify(value)` whenever every object given a text was not
 *   changed after it got it; the giver promises that (it gives the text to an object it built
 *   from that text and hands out no other way to change it).
 * - Everywhere else such an object serialises as it is: its text is used only inside `toJsonText`.
 *   A copy (spread, structuredClone) loses the text and is serialised as usual.
 * - The placeholders JSON.stringify writes for those objects carry a random marker per call,
 *   starting with a NUL that JSON escapes: no string a reader or editor wrote can match one.
 */
import { randomBytes } from "node:crypto";

const TEXT = Symbol("json text");

/** The texts taken while `toJsonText` runs (JSON.stringify is synchronous: one call at a time). */
let taken: string[] | null = null;
let marker = "";

function keptToJson(this: { [TEXT]: string }): unknown {
  if (taken === null) return this;
  taken.push(this[TEXT]);
  return `${marker}${taken.length - 1}`;
}

/** Gives `value` its exact JSON text (non-enumerable; `value` must not change afterwards). */
export function withJsonText<T extends object>(value: T, text: string): T {
  Object.defineProperty(value, TEXT, { value: text });
  Object.defineProperty(value, "toJSON", { value: keptToJson });
  return value;
}

/** JSON.stringify(value), with the objects given a text written as their text. */
export function toJsonText(value: unknown): string {
  const outer = taken;
  const outerMarker = marker;
  const texts: string[] = [];
  const nonce = randomBytes(8).toString("hex");
  taken = texts;
  marker = `\u0000${nonce}:`;
  try {
    const json = JSON.stringify(value);
    if (texts.length === 0) return json;
    return json.replace(new RegExp(`"\\\\u0000${nonce}:(\\d+)"`, "g"), (_, index: string) => texts[Number(index)]!);
  } finally {
    taken = outer;
    marker = outerMarker;
  }
}
