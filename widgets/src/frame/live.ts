/**
 * Live threads in the comments widget (docs/widgets.md "Live threads"): the thread follows what
 * others write, edit, hide and delete without a reload. The events name comment ids only
 * (GET …/comments.events); on a change the widget reads the list again through `refresh`, which
 * applies the visibility rules.
 *
 * - An active page (a comment in the last 24 h, by the list's newest `created_at`) opens a
 *   server-sent events stream. When the stream fails (refused, unsupported), the widget polls the
 *   same path as JSON, every 5 s and doubling up to 60 s while nothing changes or calls fail,
 *   back to 5 s on a change; it tries the stream again every 5 minutes.
 * - A quiet page (nobody commented for a day) opens no stream: it polls every 60 s and opens the
 *   stream once someone comments.
 * - While the tab is hidden nothing is open; shown again, the widget catches up from its cursor.
 * - A refresh waits while the reader is writing (the focus in a field, a reply, edit or report
 *   box open), so no live change takes their words or their place.
 */
import { api, app, pagePath } from "./core";
import { type Comment } from "./types";

type Change = { cursor: string; created: number[]; edited: number[]; removed: number[]; total_count: number };
type Poll = Change & { latest_comment_at: string | null; resync: boolean };

const DAY_MS = 86_400_000;
const POLL_MIN_MS = 5_000;
const POLL_MAX_MS = 60_000;
const STREAM_RETRY_MS = 5 * 60_000;
const BUSY_RETRY_MS = 3_000;

let started = false;
let list: () => Comment[] = () => [];
let refresh: () => Promise<void> = () => Promise.resolve();
let cursor: string | null = null;
let latest = 0;
let source: EventSource | null = null;
let timer: ReturnType<typeof setTimeout> | undefined;
let pollDelay = POLL_MIN_MS;
let streamFailedAt = 0;
let pending = false;

/**
 * Follow the page live: `comments` gives the thread as loaded, `reload` reads it again. Once per
 * frame: later calls (the reader signed in or out) only take the newer callbacks.
 */
export function followLive(comments: () => Comment[], reload: () => Promise<void>): void {
  list = comments;
  refresh = reload;
  noteLatest(newestOf(comments()));
  if (started) return;
  started = true;
  document.addEventListener("visibilitychange", () => (document.hidden ? pause() : resume()));
  app.addEventListener("focusout", () => setTimeout(() => void applyPending(), 0));
  // A quiet page comes alive (the reader commented, or a poll saw someone): open the stream.
  setInterval(() => {
    if (!document.hidden && !source && isActive() && canStream()) resume();
  }, POLL_MIN_MS);
  resume();
}

function newestOf(comments: Comment[]): number {
  let newest = 0;
  for (const c of comments) {
    newest = Math.max(newest, Date.parse(c.created_at) || 0, newestOf(c.replies || []));
  }
  return newest;
}

function noteLatest(time: number): void {
  if (time > latest) latest = time;
}

/** Someone commented in the last day (the thread as loaded, or what the server said). */
const isActive = () => Date.now() - Math.max(latest, newestOf(list())) < DAY_MS;
const canStream = () => typeof EventSource !== "undefined" && Date.now() - streamFailedAt > STREAM_RETRY_MS;

function pause(): void {
  source?.close();
  source = null;
  clearTimeout(timer);
  timer = undefined;
}

/** Start following: the stream on an active page, polling otherwise. */
function resume(): void {
  pause();
  if (document.hidden) return;
  if (isActive() && canStream()) openStream();
  else schedule(cursor === null ? 0 : isActive() ? pollDelay : POLL_MAX_MS);
}

function openStream(): void {
  const url = pagePath + "/comments.events" + (cursor ? "?since=" + encodeURIComponent(cursor) : "");
  const stream = new EventSource(url);
  source = stream;
  const take = (handler: (data: Poll) => void) => (event: MessageEvent<string>) => {
    if (source !== stream) return;
    try {
      handler(JSON.parse(event.data) as Poll);
    } catch {
      // Not an event of ours: ignored.
    }
  };
  stream.addEventListener(
    "ready",
    take((state) => {
      // What came after the cursor the stream was opened (or reconnected) with follows as a change.
      cursor = state.cursor;
      if (state.latest_comment_at) noteLatest(Date.parse(state.latest_comment_at));
      // Quiet for a day: polling slowly is enough.
      if (!isActive()) resume();
    }),
  );
  stream.addEventListener(
    "change",
    take((change) => void changed(change)),
  );
  stream.addEventListener(
    "resync",
    take((state) => {
      cursor = state.cursor;
      void changed(null);
    }),
  );
  stream.addEventListener("error", () => {
    if (source !== stream || stream.readyState !== EventSource.CLOSED) return; // the browser reconnects by itself
    // Refused (503 past the server's bounds, 404 before the first comment) or cut for good: poll.
    streamFailedAt = Date.now();
    source = null;
    pollDelay = POLL_MIN_MS;
    schedule(pollDelay);
  });
}

function schedule(ms: number): void {
  clearTimeout(timer);
  timer = setTimeout(() => void poll(), ms);
}

async function poll(): Promise<void> {
  timer = undefined;
  if (document.hidden) return;
  const wasActive = isActive();
  try {
    const answer = await api<Poll>("GET", pagePath + "/comments.events", undefined, cursor ? { since: cursor } : {});
    const first = cursor === null;
    cursor = answer.cursor;
    if (answer.latest_comment_at) noteLatest(Date.parse(answer.latest_comment_at));
    const news = answer.resync || answer.created.length + answer.edited.length + answer.removed.length > 0;
    if (news && !first) await changed(answer.resync ? null : answer);
    pollDelay = news ? POLL_MIN_MS : Math.min(POLL_MAX_MS, pollDelay * 2);
  } catch {
    pollDelay = Math.min(POLL_MAX_MS, pollDelay * 2);
  }
  if (document.hidden || timer !== undefined || source) return;
  // Someone commented on a quiet page: follow it live again.
  if (isActive() && !wasActive) streamFailedAt = 0;
  resume();
}

/** A change came: read the thread again unless it holds the change already; later if the reader is busy. */
async function changed(change: Change | null): Promise<void> {
  if (change) {
    if (change.created.length) noteLatest(Date.now());
    const shown = new Set<number>();
    const walk = (cs: Comment[]) => cs.forEach((c) => (shown.add(c.id), walk(c.replies || [])));
    walk(list());
    // The reader's own post or hide was read back already.
    const known =
      change.edited.length === 0 &&
      change.created.every((id) => shown.has(id)) &&
      change.removed.every((id) => !shown.has(id));
    if (known) return;
  }
  pending = true;
  await applyPending();
}

function isBusy(): boolean {
  const active = document.activeElement;
  const typing = active && app.contains(active) && /^(TEXTAREA|INPUT|SELECT)$/.test(active.tagName);
  return Boolean(typing || app.querySelector("form.report") || app.querySelectorAll("form.composer").length > 1);
}

/**
 * A live refresh's answer came back while the reader had started writing (a reply box opened
 * after the refresh was asked for): it is not drawn over their box; the refresh is asked for again
 * and waits until they are done.
 */
export function refreshWhenFree(): boolean {
  if (!isBusy()) return false;
  pending = true;
  void applyPending();
  return true;
}

let waiting = false;

async function applyPending(): Promise<void> {
  if (!pending || waiting) return;
  if (isBusy()) {
    waiting = true;
    setTimeout(() => {
      waiting = false;
      void applyPending();
    }, BUSY_RETRY_MS);
    return;
  }
  pending = false;
  await refresh().catch(() => undefined);
}
