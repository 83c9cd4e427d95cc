/**
 * The one HTML escaper of the server: text put into HTML (or XML) by hand goes through it.
 * - `escapeHtml`: text content or an attribute value; & < > " ' become entities.
 * - `escapeHtmlText`: text content only (never an attribute value); & < > become entities and
 *   quotes stay, as in the stored HTML that imports and seeds write.
 */
const ENTITIES = new Map([
  ["&", "&amp;"],
  ["<", "&lt;"],
  [">", "&gt;"],
  ['"', "&quot;"],
  ["'", "&#39;"],
]);

const entity = (c: string) => ENTITIES.get(c) ?? c;

/** Text for HTML content or an attribute value: & < > " ' escaped. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, entity);
}

/** Text for HTML content between tags (not an attribute value): & < > escaped, quotes kept. */
export function escapeHtmlText(text: string): string {
  return text.replace(/[&<>]/g, entity);
}
