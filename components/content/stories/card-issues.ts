/**
 * The server names a problem inside the cards by its path in the input
 * ("cards.1.story-elements.0.url"). The editor shows it where the editor sees it: next to card 2's
 * first element (position "2.1", as the element editor numbers it), as "URL: <issue>".
 */
import type { FieldIssue } from "@/components/ui";
import { ownValue } from "@/server/own-keys";

/** What the element editor calls a field of an element. */
const FIELD_LABELS: Record<string, string> = {
  url: "URL",
  "embed-url": "Embed URL",
  "page-url": "Page URL",
  text: "Text",
  title: "Caption",
  "image-s3-key": "Image key",
  "image-metadata": "Image",
  "story-elements": "Elements",
  "file-url": "File link",
  "file-name": "File name",
  "embed-js": "Embed code",
  subtype: "Kind",
};

/** "cards.1.story-elements.0.url" → position "2.1", label "URL"; "cards.1" → "2"; "cards" → "" (all the cards). */
export function placeCardIssue(field: string): { position: string; label: string | null } | null {
  const parts = field.split(".");
  if (parts[0] !== "cards") return null;
  if (parts.length === 1 || !/^\d+$/.test(parts[1]!)) return { position: "", label: null };
  const card = Number(parts[1]) + 1;
  if (parts[2] === "story-elements" && parts[3] !== undefined && /^\d+$/.test(parts[3])) {
    return { position: `${card}.${Number(parts[3]) + 1}`, label: labelOf(parts.slice(4)) };
  }
  return { position: String(card), label: labelOf(parts.slice(2)) };
}

function labelOf(rest: string[]): string | null {
  if (rest.length === 0) return null;
  return ownValue(FIELD_LABELS, rest[0]!) ?? rest.join(" ");
}

/**
 * Split a form's leftover problems: those about the cards, by position, as sentences the editor
 * reads next to the element; and the others.
 */
export function splitCardIssues(issues: FieldIssue[]): { byPosition: Map<string, string[]>; others: FieldIssue[] } {
  const byPosition = new Map<string, string[]>();
  const others: FieldIssue[] = [];
  for (const issue of issues) {
    const place = placeCardIssue(issue.field);
    if (!place) {
      others.push(issue);
      continue;
    }
    const sentence = place.label ? `${place.label}: ${issue.issue}` : issue.issue;
    byPosition.set(place.position, [...(byPosition.get(place.position) ?? []), sentence]);
  }
  return { byPosition, others };
}
