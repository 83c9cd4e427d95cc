/**
 * The comments widget's composer: a comment (a question on a Q&A page), a reply or an edit, with
 * mentions, images, the confidential choice and, for guests, their name and the captcha.
 */
import { solveCaptcha, type CaptchaChallenge } from "../captcha";
import { opsToText, textToOps, type Mention } from "../ops";
import { rulesLines } from "../page-rules";
import { displayName } from "./comment-view";
import {
  api,
  ApiError,
  askLogin,
  base,
  config,
  errorText,
  jwt,
  me,
  pagePath,
  reportHeight,
  t,
  workerUrl,
} from "./core";
import { h, img } from "./dom";
import { mentionPicker } from "./mention-picker";
import { announce, draft, isQa, replaceComment, state, thread } from "./thread-state";
import { type Comment, type Obj } from "./types";

/** What the composer's parts share: the comment answered or edited, and the form's fields. */
type ComposerParts = {
  parent: Comment | null;
  editing: Comment | null;
  replyTo?: Comment;
  isDraft: boolean;
  area: HTMLTextAreaElement;
  mentions: Mention[];
  images: string[];
  status: HTMLElement;
  submit: HTMLElement;
  guestName: HTMLInputElement | null;
  confidential: HTMLInputElement | null;
};

/** The text box, filled with the draft, the comment edited, or a mention of the reader replied to. */
function composerArea(parent: Comment | null, editing: Comment | null, replyTo?: Comment) {
  const label = editing
    ? t("edit")
    : parent
      ? t("writeReply", { name: displayName(replyTo ?? parent) })
      : isQa()
        ? t("askQuestion")
        : t("writeComment");
  const area = h("textarea", {
    "aria-label": label,
    placeholder: label,
    maxlength: "5000",
    rows: "3",
  }) as HTMLTextAreaElement;
  // The page's rules are read with the box (held, slow mode): said where the reader writes.
  if (!editing && (rulesLines(state.rules, t).length || isQa())) area.setAttribute("aria-describedby", "page-rules");
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
  return { area, isDraft, mentions, images };
}

/** The images added, each with its remove button; `draw` redraws them. */
function imageThumbs(images: string[]) {
  const thumbs = h("div", { class: "thumbs" });
  const draw = () => {
    thumbs.replaceChildren(
      ...images.map((src, i) => {
        const remove = h("button", { class: "link", type: "button", "aria-label": t("removeImage") }, "✕");
        remove.addEventListener("click", () => {
          images.splice(i, 1);
          draw();
        });
        return h("figure", {}, img(src, ""), remove);
      }),
    );
    reportHeight();
  };
  draw();
  return { thumbs, draw };
}

/** "Add an image": a hidden file input opened by a button; the upload's URL joins `images`. */
function imagePicker(images: string[], status: HTMLElement, drawThumbs: () => void): HTMLElement[] {
  const file = h("input", {
    type: "file",
    accept: "image/jpeg,image/png,image/webp,image/gif",
    class: "sr-only",
    tabindex: "-1",
    // Opened by the button below: hidden from assistive technology, so "Add an image" is one control.
    "aria-hidden": "true",
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
  return [file, pick];
}

/** The edit saved, or the comment posted (a guest's after the captcha), then the thread reloaded. */
async function sendComment(parts: ComposerParts, ops: ReturnType<typeof textToOps>): Promise<void> {
  const { parent, editing, replyTo, status, guestName, confidential } = parts;
  if (editing) {
    const answer = await api<{ comment: Comment }>("PUT", pagePath + "/comments/" + editing.id, {
      comment: { ops },
      jwt,
    });
    replaceComment(answer.comment);
    state.heldNotice = !answer.comment.is_published;
    if (state.heldNotice) state.own.push(answer.comment);
    await thread.load(true);
    return;
  }
  const body: Obj = { ops };
  // The comment answered: the server keeps a reply to a reply under its top-level comment
  // (`parent`) and answers with the one replied to as reply_to_id.
  const answered = replyTo ?? parent;
  const payload: Obj = { comment: { body, ...(answered ? { parent_comment_id: answered.id } : {}) } };
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
  if (parts.isDraft) {
    draft.text = "";
    draft.mentions.length = 0;
    draft.images.length = 0;
  }
  state.heldNotice = !created.comment.is_published;
  if (state.heldNotice) state.own.push(created.comment);
  // A question of a Q&A page waits for its answer: said, as a held comment is.
  announce(state.heldNotice ? t("held") : isQa() && !parent ? t("qaNotice") : "");
  await thread.load(true);
}

/** Submitting: nothing for an empty box; the button off while sending, back on with the error said. */
function onSubmit(form: HTMLFormElement, parts: ComposerParts) {
  const { editing, area, mentions, images, status, submit } = parts;
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const ops = textToOps(area.value, mentions, images);
    if (!ops.length) {
      area.focus();
      return;
    }
    submit.setAttribute("disabled", "");
    sendComment(parts, ops).catch((error: unknown) => {
      submit.removeAttribute("disabled");
      status.textContent = errorText(error);
      reportHeight();
      // Closed or slowed since the page was loaded (a moderator, a surge): say the rules as they are now.
      if (!editing && error instanceof ApiError && (error.status === 403 || error.status === 429)) {
        void thread.refreshRules(errorText(error));
      }
    });
  });
}

/** The box to write a comment, a reply (`parent`) or an edit (`editing`). */
export function composer(parent: Comment | null, editing: Comment | null, replyTo?: Comment): HTMLElement {
  const form = h("form", { class: "composer" }) as HTMLFormElement;
  if (!jwt && !editing && !config.guestsAllowed) {
    const button = h("button", { class: "btn", type: "button" }, t("signIn"));
    button.addEventListener("click", askLogin);
    form.append(button);
    return form;
  }
  const { area, isDraft, mentions, images } = composerArea(parent, editing, replyTo);
  const { thumbs, draw: drawThumbs } = imageThumbs(images);
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
  if (jwt) row.append(...imagePicker(images, status, drawThumbs));
  if (editing || parent) {
    const cancel = h("button", { class: "link", type: "button" }, t("cancel"));
    cancel.addEventListener("click", () => thread.render());
    row.append(cancel);
  }
  const submit = h(
    "button",
    { class: "btn", type: "submit" },
    editing ? t("save") : parent ? t("postReply") : isQa() ? t("postQuestion") : t("post"),
  );
  row.append(submit);
  form.append(row);
  onSubmit(form, {
    parent,
    editing,
    replyTo,
    isDraft,
    area,
    mentions,
    images,
    status,
    submit,
    guestName,
    confidential,
  });
  return form;
}
