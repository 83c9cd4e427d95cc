/**
 * The comments widget's conversation tools (docs/widgets.md "Conversation tools"), pure: the sort
 * the reader chose (kept in the frame's localStorage), what the edit window leaves (the API's
 * `editable_until` on the reader's own comments), and the list without the featured comments the
 * strip above it shows.
 */
import { type StringKey } from "./translate";

export const SORTS = ["newest", "oldest", "most_reacted"] as const;
export type Sort = (typeof SORTS)[number];

/** The localStorage key of the reader's sort (the frame's origin: one per reader's browser). */
export const SORT_KEY = "masthead.comments.sort";

type Store = { getItem(key: string): string | null; setItem(key: string, value: string): void };

/** The sort the reader chose before; newest when none, unknown or storage is unavailable. */
export function savedSort(store: Store | null): Sort {
  try {
    const value = store ? store.getItem(SORT_KEY) : null;
    return (SORTS as readonly string[]).indexOf(value || "") >= 0 ? (value as Sort) : "newest";
  } catch {
    return "newest";
  }
}

/** Keep the reader's sort (storage blocked or full: not kept, nothing fails). */
export function saveSort(store: Store | null, sort: Sort): void {
  try {
    if (store) store.setItem(SORT_KEY, sort);
  } catch {
    // Private windows and blocked third-party storage: the choice lasts until the frame reloads.
  }
}

/** The reader may still edit: no window (null, absent), or before its end. */
export function canEdit(until: string | null | undefined, now: number): boolean {
  if (!until) return true;
  const end = Date.parse(until);
  return Number.isNaN(end) || now < end;
}

/**
 * What the widget says under the reader's own comment: how long the edit window leaves, in whole
 * minutes (rounded down), "less than a minute" in the last one; null when there is no window or it
 * has ended (the Edit button is gone then).
 */
export function editWindowText(
  until: string | null | undefined,
  now: number,
): { key: StringKey; values?: { n: number } } | null {
  if (!until || !canEdit(until, now)) return null;
  const minutes = Math.floor((Date.parse(until) - now) / 60_000);
  if (minutes < 1) return { key: "editForLessThanMinute" };
  return { key: "editFor", values: { n: minutes } };
}

/** The list's comments without those the featured strip shows (each comment is shown once). */
export function withoutFeatured<C extends { id: number }>(comments: C[], featured: C[]): C[] {
  const shown: Record<number, true> = {};
  for (const c of featured) shown[c.id] = true;
  return comments.filter((c) => !shown[c.id]);
}

type Held = { id: number; parent_comment_id: number | null; replies?: Held[] };

/**
 * The reader's held comments after a read of the page: what the server says waits for review
 * (`fresh`, after a reload too) with what this frame holds from its own posts, each once, minus
 * any now in the published list.
 */
export function heldOfReader<C extends Held>(held: C[], fresh: C[], published: C[]): C[] {
  const shown = new Set<number>();
  for (const c of published) {
    shown.add(c.id);
    for (const r of c.replies || []) shown.add(r.id);
  }
  const byId = new Map<number, C>();
  for (const c of [...fresh, ...held]) if (!shown.has(c.id) && !byId.has(c.id)) byId.set(c.id, c);
  return [...byId.values()];
}

/** The published list with the reader's held replies under their parents (after the published ones). */
export function withHeldReplies<C extends Held>(comments: C[], held: C[]): C[] {
  const replies = held.filter((c) => c.parent_comment_id !== null);
  if (!replies.length) return comments;
  return comments.map((c) => {
    const mine = replies.filter((r) => r.parent_comment_id === c.id);
    return mine.length ? { ...c, replies: [...(c.replies || []), ...mine] } : c;
  });
}
