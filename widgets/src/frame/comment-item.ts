/**
 * One comment of the comments widget as the reader sees it: author, time, badges (page author,
 * guest, held, featured, awaiting an answer), body, reactions, reply, and for the reader's own
 * comments edit (while the account's edit window lasts, with what it leaves said) and hide;
 * report for the others'.
 */
import { canEdit, editWindowText } from "../conversation";
import { isHttp } from "../ops";
import { type StringKey } from "../translate";
import { displayName, nameTag, renderBody, when } from "./comment-view";
import { composer } from "./composer";
import { api, askLogin, config, jwt, me, num, pagePath, reportHeight, t } from "./core";
import { h, img } from "./dom";
import { dsaNoticeForm } from "./dsa-notice";
import { announce, isClosed, replaceComment, thread } from "./thread-state";
import { REACTIONS, type Comment, type Obj } from "./types";

/**
 * One comment and its replies. `mark`: the featured strip's and the reader's awaiting questions'
 * badge ("Featured", "Awaiting an answer").
 */
export function commentItem(comment: Comment, parent: Comment | null, mark?: StringKey): HTMLElement {
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
    if (mark) head.append(h("span", { class: "badge " + (mark === "featured" ? "featured" : "held") }, t(mark)));
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
    const count = (Object.prototype.hasOwnProperty.call(comment.reactions, id) && comment.reactions[id]) || 0;
    const given = (comment.my_reactions || []).indexOf(id) >= 0;
    if (!count && !jwt) continue;
    const button = h(
      "button",
      {
        class: "reaction",
        type: "button",
        "aria-pressed": String(given),
        "aria-label": t("reactionWithCount", { reaction: t(("reaction_" + id) as StringKey), n: count }),
        title: t(("reaction_" + id) as StringKey),
      },
      emoji + (count ? " " + num(count) : ""),
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
          thread.render();
          document
            .querySelector<HTMLElement>(
              "#comment-" + comment.id + " .reaction[title='" + t(("reaction_" + id) as StringKey) + "']",
            )
            ?.focus();
        })
        .catch(thread.showError);
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
  // Q&A pages: readers ask; answers come from the page's authors (a reader's reply is still taken).
  if (top.is_published && !isClosed()) bar.append(replyButton);
  if (isMine(comment)) {
    // The account's edit window (editable_until): no Edit button once it has passed, and a line
    // saying what is left, kept current by thread-toolbar.ts's tick.
    const canChange = canEdit(comment.editable_until, Date.now());
    const edit = h("button", { class: "link", type: "button", "data-edit": String(comment.id) }, t("edit"));
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
          announce(t("hidden"));
          return thread.load(true);
        })
        .catch(thread.showError);
    });
    if (canChange) bar.append(edit);
    bar.append(hide);
    const left = editWindowText(comment.editable_until, Date.now());
    if (left && comment.editable_until) {
      bar.append(
        h(
          "p",
          { class: "meta edit-window", "data-edit-until": comment.editable_until, "data-for": String(comment.id) },
          t(left.key, left.values),
        ),
      );
    }
  } else {
    // Signed out: the report is a notice of illegal content (dsa-notice.ts), the one anyone may send.
    bar.append(reportButton(comment, li));
  }
  return bar;
}

function reportButton(comment: Comment, li: HTMLElement): HTMLElement {
  const button = h("button", { class: "link", type: "button" }, t("report"));
  const illegal = (replacing: HTMLElement | null) => {
    const notice = dsaNoticeForm(comment, () => notice.remove());
    if (replacing) replacing.replaceWith(notice);
    else li.append(notice);
    notice.querySelector("select")?.focus();
    reportHeight();
  };
  button.addEventListener("click", () => {
    if (!jwt) return illegal(null);
    const form = h("form", { class: "report" }) as HTMLFormElement;
    const reason = h("select", { "aria-label": t("reportReason") }) as HTMLSelectElement;
    for (const [value, key] of [
      ["spam", "reasonSpam"],
      ["abuse", "reasonAbuse"],
      ["off_topic", "reasonOffTopic"],
      ["other", "reasonOther"],
      ["illegal", "dsaReasonOption"],
    ] as [string, StringKey][]) {
      reason.append(h("option", { value }, t(key)));
    }
    reason.addEventListener("change", () => {
      if (reason.value === "illegal") illegal(form);
    });
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
        .catch(thread.showError);
    });
    li.append(form);
    reason.focus();
    reportHeight();
  });
  return button;
}
