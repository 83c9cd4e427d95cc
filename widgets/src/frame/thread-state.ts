/**
 * The comments widget's state, shared by its parts (comments.ts draws and loads, composer.ts
 * writes, comment-item.ts shows one comment, thread-toolbar.ts sorts and shows the featured
 * strip): what the API answered, what the reader is writing, and the calls back into comments.ts.
 */
import { savedSort } from "../conversation";
import { type Mention } from "../ops";
import { type PageRules } from "../page-rules";
import { type Comment } from "./types";

/** The frame's localStorage, or null where the browser refuses it. */
export function frameStorage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

export const state = {
  /** The reader's sort, kept in the frame's localStorage (conversation.ts). */
  sort: savedSort(frameStorage()),
  comments: [] as Comment[],
  /** The page's featured comments (featured=first), shown above the list. */
  featured: [] as Comment[],
  /** Q&A pages: the reader's own questions not answered yet (awaiting_answer). */
  awaiting: [] as Comment[],
  totalCount: 0,
  totalParents: 0,
  heldNotice: false,
  /** The page's rules as comment_rules.json states them (null: not known, said as nothing). */
  rules: null as PageRules | null,
  /** The reader's held comments, shown to them alone. */
  own: [] as Comment[],
};

// The new comment being written survives the thread's re-renders (a reaction, a sort, the
// sign-in answer), and is cleared once it is posted.
export const draft: { text: string; mentions: Mention[]; images: string[] } = { text: "", mentions: [], images: [] };

/** What the parts call back in comments.ts (set when the widget starts). */
export const thread = {
  render: (): void => undefined,
  load: (_reset: boolean): Promise<void> => Promise.resolve(),
  refreshRules: (_message: string): Promise<void> => Promise.resolve(),
  showError: (_error: unknown): void => undefined,
  /** Announces to screen readers what changed without moving the focus. */
  live: null as unknown as HTMLElement,
};

/**
 * How long an announcement stays in the live region: long enough to be read out, then gone, so a
 * reader browsing the frame's text (or a screen reader's review) does not meet a second copy of
 * what the frame shows (a moderator's notice, "held", an error).
 */
const ANNOUNCEMENT_MS = 5_000;
let clearing: ReturnType<typeof setTimeout> | undefined;

/** Say `text` to screen readers once, without moving the focus; "" says nothing. */
export function announce(text: string): void {
  thread.live.textContent = text;
  clearTimeout(clearing);
  clearing = setTimeout(() => {
    if (thread.live.textContent === text) thread.live.textContent = "";
  }, ANNOUNCEMENT_MS);
}

export function isClosed(): boolean {
  return state.rules !== null && state.rules.comment_mode === "closed";
}

/** A Q&A page: top-level comments are questions, shown once answered. */
export function isQa(): boolean {
  return Boolean(state.rules && state.rules.qa_mode);
}

/**
 * `next` over the comment with its id, wherever the widget shows it (a single comment's answer
 * has no replies, featured flag or edit window: the list's are kept).
 */
export function replaceComment(next: Comment): void {
  const swap = (list: Comment[]) =>
    list.map((c) =>
      c.id === next.id
        ? { ...c, ...next, replies: c.replies }
        : { ...c, replies: (c.replies || []).map((r) => (r.id === next.id ? { ...r, ...next } : r)) },
    );
  state.comments = swap(state.comments);
  state.featured = swap(state.featured);
  state.awaiting = swap(state.awaiting);
}
