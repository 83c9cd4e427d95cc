/**
 * DOM helpers without state. Nothing a reader wrote is ever parsed as HTML: text goes in text
 * nodes, and callers pass only http(s) addresses to `img`.
 */

export function h(tag: string, attrs: Record<string, string>, ...children: (Node | string)[]): HTMLElement {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  el.append(...children);
  return el;
}

/** Text whose direction is its own (a name, a title a reader or the newsroom wrote): isolated from the words around it. */
export function bdi(text: string): HTMLElement {
  return h("bdi", {}, text);
}

export function img(src: string, alt: string, className?: string): HTMLElement {
  const el = h("img", { src, alt, loading: "lazy", referrerpolicy: "no-referrer" });
  if (className) el.className = className;
  return el;
}

export function textWithBreaks(text: string): (Node | string)[] {
  const out: (Node | string)[] = [];
  text.split("\n").forEach((line, i) => {
    if (i) out.push(document.createElement("br"));
    if (line) out.push(line);
  });
  return out;
}

export function safeStorage(key: string, value?: string): string | undefined {
  try {
    if (value === undefined) return localStorage.getItem(key) ?? undefined;
    localStorage.setItem(key, value);
  } catch {
    // storage blocked in third-party frames: the feed just shows no unread count
  }
  return undefined;
}

export function str(value: unknown): string {
  return typeof value === "string" ? value : typeof value === "number" ? String(value) : "";
}
