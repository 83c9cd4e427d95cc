/**
 * The comments widget: the page's thread (sorted, paged by parents), the composer for comments,
 * replies and edits (composer.ts), reactions, hiding and reports (comment-item.ts). The reader's
 * held comments are shown to them alone; a moderator's notice to them (notices.ts) once, above
 * the composer. The page's rules (comment_rules.json: closed, held for a moderator, slow mode, a
 * surge's reason, Q&A) are said above the composer before the reader writes (page-rules.ts); a
 * closed page has no composer and no reply buttons. Conversation tools (thread-toolbar.ts): the
 * reader's sort, kept; the featured strip first; on a Q&A page, answered questions only and the
 * reader's own awaiting an answer; the edit window said under the reader's comments.
 */
import { heldOfReader, withHeldReplies, withoutFeatured } from "../conversation";
import { rulesLines, type PageRules } from "../page-rules";
import { commentItem } from "./comment-item";
import { composer } from "./composer";
import {
  api,
  app,
  errorText,
  jwt,
  me,
  onReaderChange,
  onSessionChange,
  pagePath,
  parts,
  readerGeneration,
  reportHeight,
  t,
  whenUserKnown,
} from "./core";
import { bdi, h } from "./dom";
import { followLive, refreshWhenFree } from "./live";
import { loadNotices, noticeAnnouncement, noticeView } from "./notices";
import { notificationSettings } from "./notification-settings";
import { announce, draft, isClosed, isQa, state, thread } from "./thread-state";
import { awaitingList, featuredStrip, sortSelect, startEditWindowTick } from "./thread-toolbar";
import { type Comment } from "./types";

/** Start the widget: the thread once the reader is known, "Loading…" until then. */
export function commentsWidget(): void {
  thread.live = h("div", { class: "sr-only", "aria-live": "polite" });
  thread.render = render;
  thread.load = load;
  thread.refreshRules = refreshRules;
  thread.showError = showError;
  // Another session (sign-in, sign-out, another reader): the previous reader's held comments, their
  // questions awaiting an answer and the list as they saw it go; another reader's draft goes too.
  onSessionChange(() => {
    Object.assign(state, { comments: [], featured: [], awaiting: [], own: [], heldNotice: false });
    state.totalCount = 0;
    state.totalParents = 0;
  });
  onReaderChange(() => Object.assign(draft, { text: "", mentions: [], images: [] }));
  whenUserKnown(() => {
    loadNotices()
      .then(() => load(true))
      .then(() => {
        const notice = noticeAnnouncement();
        if (notice) announce(notice);
        startEditWindowTick();
        // Live threads (live.ts): others' comments, edits and hides read in as they happen.
        followLive(
          () => state.comments,
          () => load(true, true),
        );
      })
      .catch(showError);
  });
  app.replaceChildren(h("p", { class: "meta" }, t("loading")));
}

/** The page's rules; a failed call leaves them unsaid (the create answers 403 or 429 anyway). */
function loadRules(): Promise<PageRules | null> {
  return api<PageRules>("GET", pagePath + "/comment_rules.json").catch(() => null);
}

/** Read the rules again; when they changed, draw the thread with them and announce `message`. */
async function refreshRules(message: string): Promise<void> {
  const next = await loadRules();
  if (!next || JSON.stringify(next) === JSON.stringify(state.rules)) return;
  state.rules = next;
  render();
  announce(message);
}

type ListAnswer = {
  comments: Comment[];
  total_count: number;
  total_parent_comments_count: number;
  featured_comments?: Comment[];
  awaiting_answer?: Comment[];
};

/** A signed-in reader's comments that wait for a moderator (after a reload too): shown to them alone. */
function loadHeld(): Promise<Comment[]> {
  if (!jwt) return Promise.resolve([]);
  return api<{ comments: Comment[] }>("GET", pagePath + "/awaiting_review.json", undefined, { jwt })
    .then((answer) => answer.comments)
    .catch(() => []);
}

/** Read the thread (again, with `reset`); a `live` refresh that finds the reader writing is put off. */
async function load(reset: boolean, live = false): Promise<void> {
  const asked = readerGeneration;
  const [answer, nextRules, held] = await Promise.all([
    api<ListAnswer>("GET", pagePath + "/comments.json", undefined, {
      sort_order: state.sort,
      parent_comments_limit: 20,
      parent_comments_offset: reset ? 0 : state.comments.length,
      featured: "first",
      jwt,
    }),
    reset ? loadRules() : Promise.resolve(state.rules),
    reset ? loadHeld() : Promise.resolve([]),
  ]);
  // Asked for the reader before the page switched: theirs, not this one's.
  if (asked !== readerGeneration) return;
  if (live && refreshWhenFree()) return;
  state.rules = nextRules;
  state.comments = reset ? answer.comments : state.comments.concat(answer.comments);
  state.own = heldOfReader(state.own, held, state.comments);
  state.featured = answer.featured_comments || [];
  state.awaiting = answer.awaiting_answer || [];
  state.totalCount = answer.total_count;
  state.totalParents = answer.total_parent_comments_count;
  render();
}

function countText(): string {
  return isQa() ? t("questionCount", { n: state.totalParents }) : t("commentCount", { n: state.totalCount });
}

function render(): void {
  const header = h("div", { class: "bar" }, h("h2", { id: "comments-title" }, countText()), sortSelect());
  const list = h("ol", { class: "thread", "aria-labelledby": "comments-title" });
  const shown = new Set(state.comments.map((c) => c.id));
  for (const c of state.awaiting) shown.add(c.id);
  for (const c of state.own) if (!shown.has(c.id) && !c.parent_comment_id) list.append(commentItem(c, null));
  for (const c of withHeldReplies(withoutFeatured(state.comments, state.featured), state.own))
    list.append(commentItem(c, null));
  const children: Node[] = [header, thread.live];
  if (me)
    children.push(h("p", { class: "meta" }, ...parts("signedInAs", { name: bdi(me.name) })), notificationSettings());
  const notice = noticeView(() => {
    render();
    (document.getElementById("notice-ok") ?? app.querySelector<HTMLElement>("textarea, button"))?.focus();
  });
  if (notice) children.push(notice);
  // Announced once when the comment was held (composer.ts): shown here, not announced again.
  if (state.heldNotice) children.push(h("p", { class: "notice" }, t("held")));
  const said = rulesLines(state.rules, t);
  if (isQa()) said.unshift(t("qaNotice"));
  if (said.length) children.push(h("p", { class: "notice rules", id: "page-rules" }, said.join(" ")));
  if (!isClosed()) children.push(composer(null, null));
  const awaiting = awaitingList();
  if (awaiting) children.push(awaiting);
  const featured = featuredStrip();
  if (featured) children.push(featured);
  if (!state.comments.length && !state.own.length && !state.featured.length) {
    children.push(h("p", { class: "meta" }, t(isQa() ? "noQuestions" : "noComments")));
  }
  children.push(list);
  if (state.comments.length < state.totalParents) {
    const more = h("button", { class: "btn ghost more", type: "button" }, t("loadMore"));
    more.addEventListener("click", () => {
      more.setAttribute("disabled", "");
      more.textContent = t("loading");
      load(false).catch(showError);
    });
    children.push(more);
  }
  // The page's comments as RSS (404 until someone commented: not offered before).
  if (state.totalCount > 0) {
    const feed = h(
      "a",
      { href: pagePath + "/comments.rss", type: "application/rss+xml", target: "_blank", rel: "noopener" },
      t("rssFeed"),
    );
    children.push(h("p", { class: "meta rss" }, feed));
  }
  app.replaceChildren(...children);
  reportHeight();
}

function showError(error: unknown): void {
  // The alert is announced by itself: not said a second time through the live region.
  const message = errorText(error);
  const box = h("p", { class: "notice error", role: "alert" }, message);
  app.prepend(box);
  reportHeight();
}
