/**
 * ICU MessageFormat without the catalogue (docs/i18n.md): parsing a message, the arguments it asks
 * for, and whether an owner's text may stand for a message that is given `allowed`. Pure and free
 * of catalogues.generated.ts, so the dashboard's override editor checks a draft by the rule the
 * server saves it by (server/i18n/overrides.ts) without shipping every catalogue to the browser.
 */
import { parse, TYPE, type MessageFormatElement } from "@formatjs/icu-messageformat-parser";

export const MAX_OVERRIDE_LENGTH = 2000;

/** A message's syntax tree; tags are text (messages are plain text, escaped where rendered). */
export function parseMessage(message: string): MessageFormatElement[] {
  return parse(message, { ignoreTag: true, requiresOtherClause: true });
}

/** The arguments a message uses, with their kind ("argument", "plural", "select", "number", "date"…). */
export function argumentsOf(elements: readonly MessageFormatElement[]): Map<string, string> {
  const found = new Map<string, string>();
  const walk = (list: readonly MessageFormatElement[]) => {
    for (const el of list) {
      if (el.type === TYPE.literal || el.type === TYPE.pound) continue;
      if (el.type === TYPE.tag) {
        walk(el.children);
        continue;
      }
      const kind = TYPE[el.type];
      if (!found.has(el.value) || found.get(el.value) === "argument") found.set(el.value, kind);
      if (el.type === TYPE.plural || el.type === TYPE.select) {
        for (const option of Object.values(el.options)) walk(option.value);
      }
    }
  };
  walk(elements);
  return found;
}

/** The option keys of each `select` argument ("{tone, select, formal {…} other {…}}" → tone: formal, other). */
export function selectOptionsOf(elements: readonly MessageFormatElement[]): Map<string, string[]> {
  const found = new Map<string, string[]>();
  const walk = (list: readonly MessageFormatElement[]) => {
    for (const el of list) {
      if (el.type === TYPE.tag) walk(el.children);
      if (el.type !== TYPE.plural && el.type !== TYPE.select) continue;
      if (el.type === TYPE.select && !found.has(el.value)) found.set(el.value, Object.keys(el.options));
      for (const option of Object.values(el.options)) walk(option.value);
    }
  };
  walk(elements);
  return found;
}

/** Plain text: NFC, line ends as \n, no control characters but \n and \t, trimmed. */
export function cleanOverride(message: string): string {
  return message
    .normalize("NFC")
    .replace(/\r\n?/g, "\n")
    .replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g, "")
    .trim();
}

/**
 * Why `message` (cleaned) cannot stand for a message given `allowed` (name → kind, as argumentsOf
 * reads the English message), or null when it can: empty, too long, markup, not ICU, an argument
 * the message is not given, or one used as another kind (a count as a date).
 */
export function messageProblem(message: string, allowed: ReadonlyMap<string, string>): string | null {
  if (!message) return "The message is empty: remove the override to use the catalogue's words.";
  if (message.length > MAX_OVERRIDE_LENGTH) return `The message is longer than ${MAX_OVERRIDE_LENGTH} characters.`;
  if (/<\/?[a-z!?][^>]*>/i.test(message)) return "Messages are plain text: markup such as <b> is not allowed.";
  let args: Map<string, string>;
  try {
    args = argumentsOf(parseMessage(message));
  } catch (error) {
    return `The message does not parse as ICU MessageFormat (${(error as Error).message}).`;
  }
  for (const [name, kind] of args) {
    const want = allowed.get(name);
    if (want === undefined) {
      const names = [...allowed.keys()].map((n) => `{${n}}`).join(", ") || "none";
      return `{${name}} is not given to this message (its arguments: ${names}).`;
    }
    if (kind !== "argument" && want !== "argument" && kind !== want)
      return `{${name}} is a ${want} in this message, not a ${kind}.`;
  }
  return null;
}
