/**
 * The comments widget: the page's thread (sorted, paged by parents), the composer for comments,
 * replies and edits (mentions, images, the guest captcha), reactions, hiding and reports. The
 * reader's held comments are shown to them alone; a moderator's notice to them (notices.ts) once,
 * above the composer. The page's rules (comment_rules.json: closed, held for a moderator, slow
 * mode, a surge's reason) are said above the composer before the reader writes (page-rules.ts);
 * a closed page has no composer and no reply buttons.
 */
import { solveCaptcha, type CaptchaChallenge } from "../captcha";
import { isHttp, opsToText, textToOps, type Mention } from "../ops";
import { rulesLines, type PageRules } from "../page-rules";
import { type StringKey } from "../strings";
import { displayName, nameTag, renderBody, when } from "./comment-view";
import {
  api,
  ApiError,
  app,
  askLogin,
  base,
  config,
  errorText,
  jwt,
  me,
  pagePath,
  reportHeight,
  t,
  whenUserKnown,
  workerUrl,
} from "./core";
import { h, img } from "./dom";
import { followLive } from "./live";
import { mentionPicker } from "./mention-picker";
import { loadNotices, noticeAnnouncement, noticeView } from "./notices";
import { notificationSettings } from "./notification-settings";
import { REACTIONS, type Comment, type Obj } from "./types";

/** Start the widget: the thread once the reader is known, "Loading…" until then. */
export function commentsWidget(): void {
  live = h("div", { class: "sr-only", "aria-live": "polite" });
  whenUserKnown(() => {
    loadNotices()
      .then(() => load(true))
      .then(() => {
        const notice = noticeAnnouncement();
        if (notice) live.textContent = notice;
        // Live threads (live.ts): others' comments, edits and hides read in as they happen.
        followLive(() => comments, () => load(true));
      })
      .catch(showError);
  });
  app.replaceChildren(h("p", { class: "meta" }, t("loading")));
}

let sort = "newest";
let comments: Comment[] = [];
let totalCount = 0;
let totalParents = 0;
let heldNotice = false;
/** The page's rules as comment_rules.json states them (null: not known, said as nothing). */
let rules: PageRules | null = null;
const own: Comment[] = []; // the reader's held comments, shown to them alone
// The new comment being written survives the thread's re-renders (a reaction, a sort, the
// sign-in answer), and is cleared once it is posted.
const draft: { text: string; mentions: Mention[]; images: string[] } = { text: "", mentions: [], images: [] };
/** Announces to screen readers what changed without moving the focus (made by `commentsWidget`). */
let live: HTMLElement;

/** The page's rules; a failed call leaves them unsaid (the create answers 403 or 429 anyway). */
function loadRules(): Promise<PageRules | null> {
  return api<PageRules>("GET", pagePath + "/comment_rules.json").catch(() => null);
}

/** Read the rules again; when they changed, draw the thread with them and announce `message`. */
async function refreshRules(message: string): Promise<void> {
  const next = await loadRules();
  if (!next || JSON.stringify(next) === JSON.stringify(rules)) return;
  rules = next;
  render();
  live.textContent = message;
}

function isClosed(): boolean {
  return rules !== null && rules.comment_mode === "closed";
}

async function load(reset: boolean): Promise<void> {
  const [answer, nextRules] = await Promise.all([
    api<{ comments: Comment[]; total_count: number; total_parent_comments_count: number }>(
      "GET",
      pagePath + "/comments.json",
      undefined,
      {
        sort_order: sort,
        parent_comments_limit: 20,
        parent_comments_offset: reset ? 0 : comments.length,
        jwt,
      },
    ),
    reset ? loadRules() : Promise.resolve(rules),
  ]);
  rules = nextRules;
  comments = reset ? answer.comments : comments.concat(answer.comments);
  totalCount = answer.total_count;
  totalParents = answer.total_parent_comments_count;
  render();
}

function render(): void {
  const header = h(
    "div",
    { class: "bar" },
    h("h2", { id: "comments-title" }, totalCount === 1 ? t("commentCountOne") : t("commentCount", { n: totalCount })),
    sortSelect(),
  );
  const list = h("ol", { class: "thread", "aria-labelledby": "comments-title" });
  const shown = new Set(comments.map((c) => c.id));
  for (const c of own) if (!shown.has(c.id) && !c.parent_comment_id) list.append(commentItem(c, null));
  for (const c of comments) list.append(commentItem(c, null));
  const children: Node[] = [header, live];
  if (me) children.push(h("p", { class: "meta" }, t("signedInAs", { name: me.name })), notificationSettings());
  const notice = noticeView(() => {
    render();
    (document.getElementById("notice-ok") ?? app.querySelector<HTMLElement>("textarea, button"))?.focus();
  });
  if (notice) children.push(notice);
  if (heldNotice) children.push(h("p", { class: "notice", role: "status" }, t("held")));
  const said = rulesLines(rules, t);
  if (said.length) children.push(h("p", { class: "notice rules", id: "page-rules" }, said.join(" ")));
  if (!isClosed()) children.push(composer(null, null));
  if (!comments.length && !own.length) children.push(h("p", { class: "meta" }, t("noComments")));
  children.push(list);
  if (comments.length < totalParents) {
    const more = h("button", { class: "btn ghost more", type: "button" }, t("loadMore"));
    more.addEventListener("click", () => {
      more.setAttribute("disabled", "");
      more.textContent = t("loading");
      load(false).catch(showError);
    });
    children.push(more);
  }
  // The page's comments as RSS (404 until someone commented: not offered before).
  if (totalCount > 0) {
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

function sortSelect(): HTMLElement {
  const select = h("select", { id: "sort", "aria-label": t("sortLabel") }) as HTMLSelectElement;
  for (const [value, key] of [
    ["newest", "sortNewest"],
    ["oldest", "sortOldest"],
    ["most_reacted", "sortMostReacted"],
  ] as [string, StringKey][]) {
    select.append(h("option", { value }, t(key)));
  }
  select.value = sort;
  select.addEventListener("change", () => {
    sort = select.value;
    load(true)
      .then(() => document.getElementById("sort")?.focus())
      .catch(showError);
  });
  return select;
}

function showError(error: unknown): void {
  const message = errorText(error);
  live.textContent = message;
  const box = h("p", { class: "notice error", role: "alert" }, message);
  app.prepend(box);
  reportHeight();
}

/** The box to write a comment, a reply (`parent`) or an edit (`editing`). */
function composer(parent: Comment | null, editing: Comment | null, replyTo?: Comment): HTMLElement {
  const form = h("form", { class: "composer" }) as HTMLFormElement;
  if (!jwt && !editing && !config.guestsAllowed) {
    const button = h("button", { class: "btn", type: "button" }, t("signIn"));
    button.addEventListener("click", askLogin);
    form.append(button);
    return form;
  }
  const label = editing
    ? t("edit")
    : parent
      ? t("writeReply", { name: displayName(replyTo ?? parent) })
      : t("writeComment");
  const area = h("textarea", {
    "aria-label": label,
    placeholder: label,
    maxlength: "5000",
    rows: "3",
  }) as HTMLTextAreaElement;
  // The page's rules are read with the box (held, slow mode): said where the reader writes.
  if (!editing && rulesLines(rules, t).length) area.setAttribute("aria-describedby", "page-rules");
  const isDraft = !editing && !parent;
  const mentions: Mention[] = isDraft ? draft.mentions : [];
  const images: string[] = isDraft ? draft.images : [];
  if (isDraft) {
    area.value = draft.text;
    area.addEventListener("input", () => (draft.text = area.value));
  } else if (editing) {
    area.value = opsToText(editing.body.ops, mentions, images);
  } else if (
    replyTo &&
    replyTo.author &&
    !replyTo.author.guest &&
    (!me || String(replyTo.author.id) !== String(me.id))
  ) {
    const a = replyTo.author;
    mentions.push({ id: String(a.id), name: a.name, slug: a.slug || String(a.id), avatar: a.avatar });
    area.value = "@" + a.name + " ";
  }
  const thumbs = h("div", { class: "thumbs" });
  const drawThumbs = () => {
    thumbs.replaceChildren(
      ...images.map((src, i) => {
        const remove = h("button", { class: "link", type: "button", "aria-label": t("removeImage") }, "✕");
        remove.addEventListener("click", () => {
          images.splice(i, 1);
          drawThumbs();
        });
        return h("figure", {}, img(src, ""), remove);
      }),
    );
    reportHeight();
  };
  drawThumbs();
  form.append(area, mentionPicker(area, mentions), thumbs);

  const row = h("div", { class: "row" });
  const status = h("span", { class: "grow", "aria-live": "polite" });
  row.append(status);
  let guestName: HTMLInputElement | null = null;
  let confidential: HTMLInputElement | null = null;
  if (!jwt && !editing) {
    status.textContent = t("guestNotice");
    guestName = h("input", {
      type: "text",
      "aria-label": t("guestName"),
      placeholder: t("guestName"),
      maxlength: "50",
    }) as HTMLInputElement;
    form.insertBefore(guestName, thumbs);
  }
  if (jwt && !editing && !parent && config.confidentialAllowed) {
    confidential = h("input", { type: "checkbox" }) as HTMLInputElement;
    row.append(h("label", { class: "check" }, confidential, t("confidential")));
  }
  if (jwt) {
    const file = h("input", {
      type: "file",
      accept: "image/jpeg,image/png,image/webp,image/gif",
      class: "sr-only",
      tabindex: "-1",
      "aria-label": t("addImage"),
    }) as HTMLInputElement;
    const pick = h("button", { class: "link", type: "button" }, "🖼 " + t("addImage"));
    pick.addEventListener("click", () => file.click());
    file.addEventListener("change", () => {
      const chosen = file.files && file.files[0];
      if (!chosen) return;
      const data = new FormData();
      data.append("file", chosen);
      status.textContent = t("uploading");
      api<{ url: string }>("POST", base + "/uploads", data, { jwt })
        .then((answer) => {
          images.push(answer.url);
          status.textContent = "";
          drawThumbs();
        })
        .catch((error: unknown) => (status.textContent = errorText(error)));
      file.value = "";
    });
    row.append(file, pick);
  }
  if (editing || parent) {
    const cancel = h("button", { class: "link", type: "button" }, t("cancel"));
    cancel.addEventListener("click", render);
    row.append(cancel);
  }
  const submit = h(
    "button",
    { class: "btn", type: "submit" },
    editing ? t("save") : parent ? t("postReply") : t("post"),
  );
  row.append(submit);
  form.append(row);

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const ops = textToOps(area.value, mentions, images);
    if (!ops.length) {
      area.focus();
      return;
    }
    submit.setAttribute("disabled", "");
    (async () => {
      if (editing) {
        const answer = await api<{ comment: Comment }>("PUT", pagePath + "/comments/" + editing.id, {
          comment: { ops },
          jwt,
        });
        replaceComment(answer.comment);
        heldNotice = !answer.comment.is_published;
        if (heldNotice) own.push(answer.comment);
        await load(true);
        return;
      }
      const body: Obj = { ops };
      const payload: Obj = { comment: { body, ...(parent ? { parent_comment_id: parent.id } : {}) } };
      if (jwt) {
        payload.jwt = jwt;
        if (confidential && confidential.checked) payload.confidential = true;
      } else {
        status.textContent = t("solving");
        const challenge = await api<CaptchaChallenge>("GET", base + "/captcha/challenge");
        const answer = await solveCaptcha(challenge, workerUrl);
        if (!answer) throw new ApiError(0, t("error"));
        body.captcha_response = answer;
        const name = guestName && guestName.value.trim();
        if (name) body.guest_name = name;
        if (window.matchMedia("(pointer: coarse)").matches) payload.mobile = true;
      }
      const created = await api<{ comment: Comment }>("POST", pagePath + "/comments.json", payload);
      if (isDraft) {
        draft.text = "";
        draft.mentions.length = 0;
        draft.images.length = 0;
      }
      heldNotice = !created.comment.is_published;
      if (heldNotice) own.push(created.comment);
      live.textContent = heldNotice ? t("held") : "";
      await load(true);
    })().catch((error: unknown) => {
      submit.removeAttribute("disabled");
      status.textContent = errorText(error);
      reportHeight();
      // Closed or slowed since the page was loaded (a moderator, a surge): say the rules as they are now.
      if (!editing && error instanceof ApiError && (error.status === 403 || error.status === 429)) {
        void refreshRules(errorText(error));
      }
    });
  });
  return form;
}

function replaceComment(next: Comment): void {
  comments = comments.map((c) =>
    c.id === next.id
      ? { ...next, replies: c.replies }
      : { ...c, replies: (c.replies || []).map((r) => (r.id === next.id ? next : r)) },
  );
}

function commentItem(comment: Comment, parent: Comment | null): HTMLElement {
  const li = h("li", { class: "comment", id: "comment-" + comment.id });
  if (comment.hidden || comment.deleted) {
    li.append(h("p", { class: "meta" }, t("hiddenPlaceholder")));
  } else {
    const a = comment.author;
    const name = displayName(comment);
    const head = h("div", { class: "head" });
    head.append(
      a && a.avatar && isHttp(a.avatar)
        ? img(a.avatar, "", "avatar")
        : h("span", { class: "avatar", "aria-hidden": "true" }, (name[0] || "?").toUpperCase()),
      nameTag(comment, name),
    );
    if (comment.is_page_author) head.append(h("span", { class: "badge" }, t("author")));
    if (a && a.guest) head.append(h("span", { class: "badge" }, t("guest")));
    head.append(h("time", { datetime: comment.created_at }, when(comment.created_at)));
    if (comment.edited_at) head.append(h("span", { class: "meta" }, "· " + t("edited")));
    if (!comment.is_published) head.append(h("span", { class: "badge held" }, t("heldBadge")));
    li.append(head, renderBody(comment.body.ops));
    li.append(actions(comment, parent, li));
  }
  if (comment.replies && comment.replies.length) {
    const replies = h("ol", { class: "replies" });
    for (const reply of comment.replies) replies.append(commentItem(reply, comment));
    li.append(replies);
  }
  return li;
}

function isMine(comment: Comment): boolean {
  return Boolean(me && comment.author_id !== null && String(comment.author_id) === String(me.id));
}

function actions(comment: Comment, parent: Comment | null, li: HTMLElement): HTMLElement {
  const bar = h("div", { class: "actions" });
  if (!comment.is_published) return bar;
  const reactions = h("span", { class: "reactions", role: "group", "aria-label": t("reactionsOf") });
  for (const [id, emoji] of REACTIONS) {
    const count = comment.reactions[id] || 0;
    const given = (comment.my_reactions || []).indexOf(id) >= 0;
    if (!count && !jwt) continue;
    const button = h(
      "button",
      {
        class: "reaction",
        type: "button",
        "aria-pressed": String(given),
        "aria-label": t(("reaction_" + id) as StringKey) + ", " + count,
        title: t(("reaction_" + id) as StringKey),
      },
      emoji + (count ? " " + count : ""),
    );
    button.addEventListener("click", () => {
      if (!jwt) return askLogin();
      button.setAttribute("disabled", "");
      const path = pagePath + "/comments/" + comment.id + "/reactions/" + id;
      (given
        ? api<{ comment: Comment }>("DELETE", path, undefined, { jwt })
        : api<{ comment: Comment }>("POST", path, { jwt })
      )
        .then((answer) => {
          replaceComment({ ...answer.comment, replies: undefined });
          render();
          document
            .querySelector<HTMLElement>(
              "#comment-" + comment.id + " .reaction[title='" + t(("reaction_" + id) as StringKey) + "']",
            )
            ?.focus();
        })
        .catch(showError);
    });
    reactions.append(button);
  }
  bar.append(reactions);
  const top = parent ?? comment;
  const replyButton = h("button", { class: "link", type: "button" }, t("reply"));
  replyButton.addEventListener("click", () => {
    if (!jwt && !config.guestsAllowed) return askLogin();
    const box = composer(top, null, comment);
    li.append(box);
    box.querySelector("textarea")?.focus();
    reportHeight();
  });
  if (top.is_published && !isClosed()) bar.append(replyButton);
  if (isMine(comment)) {
    const edit = h("button", { class: "link", type: "button" }, t("edit"));
    edit.addEventListener("click", () => {
      const box = composer(null, comment);
      li.replaceChildren(box);
      const area = box.querySelector("textarea");
      area?.focus();
      reportHeight();
    });
    const hide = h("button", { class: "link", type: "button" }, t("hide"));
    hide.addEventListener("click", () => {
      api<{ comment: Comment }>("POST", pagePath + "/comments/" + comment.id + "/hide", { jwt })
        .then(() => {
          live.textContent = t("hidden");
          return load(true);
        })
        .catch(showError);
    });
    bar.append(edit, hide);
  } else if (jwt && comment.author && !comment.author.guest) {
    bar.append(reportButton(comment, li));
  } else if (jwt) {
    bar.append(reportButton(comment, li));
  }
  return bar;
}

function reportButton(comment: Comment, li: HTMLElement): HTMLElement {
  const button = h("button", { class: "link", type: "button" }, t("report"));
  button.addEventListener("click", () => {
    const form = h("form", { class: "report" }) as HTMLFormElement;
    const reason = h("select", { "aria-label": t("reportReason") }) as HTMLSelectElement;
    for (const [value, key] of [
      ["spam", "reasonSpam"],
      ["abuse", "reasonAbuse"],
      ["off_topic", "reasonOffTopic"],
      ["other", "reasonOther"],
    ] as [string, StringKey][]) {
      reason.append(h("option", { value }, t(key)));
    }
    const note = h("input", {
      type: "text",
      "aria-label": t("reportNote"),
      placeholder: t("reportNote"),
      maxlength: "500",
    }) as HTMLInputElement;
    const send = h("button", { class: "btn", type: "submit" }, t("sendReport"));
    const cancel = h("button", { class: "link", type: "button" }, t("cancel"));
    cancel.addEventListener("click", () => form.remove());
    form.append(h("label", {}, t("reportReason")), reason, note, h("div", { class: "row" }, cancel, send));
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      send.setAttribute("disabled", "");
      const body: Obj = { jwt, reason: reason.value };
      if (note.value.trim()) body.note = note.value.trim();
      api("POST", pagePath + "/comments/" + comment.id + "/report", body)
        .then(() => form.replaceChildren(h("p", { role: "status" }, t("reported"))))
        .catch(showError);
    });
    li.append(form);
    reason.focus();
    reportHeight();
  });
  return button;
}
