/**
 * The feed widget: the account's latest comments, and the signed-in reader's own activity
 * (replies to them, mentions of them, their comments) with an unread count kept in the frame's
 * storage. The page opens and closes it (the loader's toggle and slide buttons).
 */
import { isHttp } from "../ops";
import { type StringKey } from "../translate";
import { displayName, renderBody, when } from "./comment-view";
import {
  api,
  base,
  config,
  jwt,
  me,
  onSessionChange,
  parts,
  readerGeneration,
  redraw,
  setFeedOpenHandler,
  t,
  toParent,
  whenUserKnown,
} from "./core";
import { bdi, h, safeStorage } from "./dom";
import { type Comment, type Obj } from "./types";

/** Start the widget: its header, then the list once the reader is known and each time it opens. */
export function feedWidget(): void {
  sinceKey = "masthead-feed-since-" + config.accountId;
  const close = h("button", { class: "link", type: "button", "aria-label": t("close") }, "✕");
  close.addEventListener("click", () => toParent({ type: "close_feed" }));
  header = h(
    "div",
    { class: "bar" },
    h("h1", {}, ...(config.publisher ? [bdi(config.publisher), " · "] : []), t("feedTitle")),
    close,
  );
  setFeedOpenHandler(() => void load(true).catch(() => render()));
  // Another session: the previous reader's items and unread count go (their tab is read again).
  onSessionChange(() => {
    if (tab === "mine") items = [];
    unread = null;
    cursor = null;
  });
  whenUserKnown(() => {
    if (!jwt && tab === "mine") tab = "latest";
    load(true).catch(() => render());
  });
}

let tab: "latest" | "mine" = "latest";
let items: { type?: string; held?: boolean; comment: Comment; page: { url: string; headline: string | null } }[] = [];
let cursor: string | null = null;
let unread: number | null = null;
/** Where the newest item the reader saw is kept, for the unread count. */
let sinceKey: string;

// A reload (the feed opened again, a tab chosen) supersedes the loads asked before it: their
// answers, if they arrive later, are dropped rather than shown over the newer list.
let generation = 0;

/** The newest item seen is kept per reader: another reader on this browser has their own count. */
const readerSinceKey = () => sinceKey + (me ? "-" + String(me.id) : "");

async function load(reset: boolean): Promise<void> {
  if (reset) generation++;
  const asked = generation;
  const session = readerGeneration;
  const query: Obj = { limit: 20, cursor: reset ? undefined : cursor };
  let path = base + "/feed";
  if (tab === "mine") {
    path += "/me";
    query.jwt = jwt;
    query.since = safeStorage(readerSinceKey());
  }
  const answer = await api<{ items: typeof items; next_cursor: string | null; unread_count?: number | null }>(
    "GET",
    path,
    undefined,
    query,
  );
  if (asked !== generation || session !== readerGeneration) return;
  items = reset ? answer.items : items.concat(answer.items);
  cursor = answer.next_cursor;
  if (tab === "mine") {
    unread = answer.unread_count ?? null;
    const newest = items[0];
    if (newest) safeStorage(readerSinceKey(), newest.comment.created_at);
  }
  render();
}

// The header and its close button are made once (by `feedWidget`): a refresh (the feed opened
// again, a tab chosen) renders the list under them, so a click on Close, or a keyboard reader's
// focus on it, is never lost to a re-render that lands between press and release.
let header: HTMLElement;

function render(): void {
  const tabs = h("div", { class: "tabs", role: "tablist" });
  for (const [id, key] of [
    ["latest", "feedLatest"],
    ["mine", "feedMine"],
  ] as ["latest" | "mine", StringKey][]) {
    if (id === "mine" && !jwt) continue;
    const count = unread && (unread >= 50 ? t("feedUnreadOver", { n: 50 }) : t("feedUnread", { n: unread }));
    const label = t(key) + (id === "mine" && count ? " (" + count + ")" : "");
    const button = h(
      "button",
      { role: "tab", type: "button", "aria-selected": String(tab === id), "data-tab": id },
      label,
    );
    button.addEventListener("click", () => {
      tab = id;
      load(true).catch(() => render());
    });
    tabs.append(button);
  }
  const list = h("ol", { class: "feed-list" });
  for (const item of items) {
    const c = item.comment;
    const label =
      item.type === "reply"
        ? t("feedReplyToYou")
        : item.type === "mention"
          ? t("feedMentionedYou")
          : item.type === "own_comment"
            ? t("feedYours")
            : "";
    const page = item.page.headline || item.page.url;
    const pageLink = isHttp(item.page.url)
      ? h("a", { href: item.page.url, target: "_top", dir: "auto" }, page)
      : h("span", { dir: "auto" }, page);
    list.append(
      h(
        "li",
        { class: "feed-item" },
        h(
          "div",
          { class: "head" },
          h("span", { class: "name", dir: "auto" }, displayName(c)),
          label ? h("span", { class: "meta" }, label) : "",
          h("time", { datetime: c.created_at }, when(c.created_at)),
        ),
        renderBody(c.body.ops),
        h("div", { class: "meta" }, ...parts("feedOn", { page: pageLink })),
        item.held ? h("span", { class: "badge held" }, t("heldBadge")) : "",
      ),
    );
  }
  const children: Node[] = [header, tabs, items.length ? list : h("p", { class: "meta" }, t("feedEmpty"))];
  if (cursor) {
    const more = h("button", { class: "btn ghost more", type: "button" }, t("more"));
    more.addEventListener("click", () => void load(false));
    children.push(more);
  }
  // The tabs are made again (their labels carry counts): the chosen one keeps the focus.
  redraw(children, "data-tab");
}
