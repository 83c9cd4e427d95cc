/**
 * The frames' script (served at /widgets/v1/frame.js): the comments, feed, contribution (UGC) and
 * page-reactions widgets, rendered from the engagement API of the same origin (docs/engagement.md)
 * with plain DOM calls. Nothing a reader wrote is ever parsed as HTML: text goes in text nodes,
 * links and images only with http(s) addresses. The page's settings come from the JSON block
 * the frame page carries (app/embed/…); the reader's JWT only from the parent page by
 * postMessage (the loader's `accountUserLogin`), checked by origin and window.
 *
 * Started as a Web Worker (no `document`), the same file solves the guest captcha.
 */
import { serveWorker, solveCaptcha, type CaptchaChallenge } from "./captcha";
import { isHttp, opsToText, pageId, textToOps, whiteIsTooLight, type Mention, type Op } from "./ops";
import { stringsFor, type StringKey } from "./strings";

type Obj = Record<string, unknown>;
type Config = {
  kind: "comments" | "feed" | "ugc" | "reactions";
  accountId: number;
  pageUrl: string;
  widgetId: string;
  parentOrigin: string | null;
  lang: string;
  guestsAllowed: boolean;
  confidentialAllowed: boolean;
  topicType: string;
  topicValue: string;
  publisher: string;
  colors: { primary?: string; secondary?: string; bg?: string; font?: string };
  fontFamily: string | null;
};
type Author = { id: number | string; name: string; avatar: string | null; slug: string; guest: boolean } | null;
type Comment = {
  id: number;
  body: { ops: Op[] };
  created_at: string;
  edited_at: string | null;
  parent_comment_id: number | null;
  author_id: number | string | null;
  author: Author;
  reactions: Record<string, number>;
  /** The signed-in reader's own reaction ids (the API sends them with a jwt). */
  my_reactions?: string[];
  hidden: boolean;
  deleted: boolean;
  is_published: boolean;
  is_page_author: boolean;
  page_url?: string;
  headline?: string | null;
  replies?: Comment[];
};
type Me = { id: number | string; name: string; avatar: string | null; slug: string };

const REACTIONS: [string, string][] = [
  ["like", "👍"],
  ["love", "❤️"],
  ["haha", "😂"],
  ["wow", "😮"],
  ["sad", "😢"],
  ["angry", "😡"],
];

if (typeof document === "undefined" && typeof self !== "undefined") {
  serveWorker(self);
} else {
  start();
}

function start(): void {
  const configEl = document.getElementById("masthead-config");
  const app = document.getElementById("app");
  if (!configEl || !app) return;
  const config = JSON.parse(configEl.textContent || "{}") as Config;
  const t = stringsFor(config.lang);
  const workerUrl = (document.currentScript as HTMLScriptElement | null)?.src ?? null;
  const root = document.documentElement;
  const c = config.colors;
  if (c.primary) {
    root.style.setProperty("--primary", c.primary);
    // Text on the primary colour: dark where white would not be readable (WCAG contrast 4.5:1).
    if (whiteIsTooLight(c.primary)) root.style.setProperty("--on-primary", "#111");
  }
  if (c.secondary) root.style.setProperty("--secondary", c.secondary);
  if (c.bg) root.style.setProperty("--bg", c.bg);
  if (c.font) root.style.setProperty("--fg", c.font);
  if (config.fontFamily) root.style.setProperty("--font", config.fontFamily + ", system-ui, sans-serif");
  root.classList.add(config.kind);

  const base = "/api/v1/accounts/" + config.accountId;
  const pagePath = base + "/pages/" + pageId(config.pageUrl);
  let jwt: string | null = null;
  let me: Me | null = null;
  const embedded = window.parent !== window && Boolean(config.parentOrigin);

  // ─── Talking to the page ───────────────────────────────────────────────────────────────────
  function toParent(message: Obj): void {
    if (embedded)
      window.parent.postMessage({ masthead: "1", widget_id: config.widgetId, ...message }, config.parentOrigin!);
  }
  /**
   * Draw `children` as the frame's content. The control whose `attr` had the focus (or the one
   * whose `attr` is `focus`: a button that lost it by being disabled) gets it back, so a reader on
   * the keyboard stays where they were when an answer redraws the frame.
   */
  function redraw(children: Node[], attr: string, focus?: string): void {
    const had = focus ?? app!.querySelector<HTMLElement>("[" + attr + "]:focus")?.getAttribute(attr);
    app!.replaceChildren(...children);
    if (had) app!.querySelector<HTMLElement>("[" + attr + '="' + had + '"]')?.focus();
  }

  let lastHeight = 0;
  function reportHeight(): void {
    const height = Math.ceil(app!.getBoundingClientRect().bottom + 2);
    if (height !== lastHeight) {
      lastHeight = height;
      toParent({ type: "resize", height });
    }
  }
  if (typeof ResizeObserver !== "undefined") new ResizeObserver(reportHeight).observe(app);
  window.addEventListener("load", reportHeight);

  let onUser: () => void = () => {};
  let onTopic: (type: string, value: string) => void = () => {};
  let onFeedOpen: () => void = () => {};
  let userKnown = !embedded;
  window.addEventListener("message", (event) => {
    if (!embedded || event.source !== window.parent || event.origin !== config.parentOrigin) return;
    const data = event.data as Obj | null;
    if (!data || data.masthead !== "1") return;
    if (data.type === "user") {
      const next = typeof data.jwt === "string" && data.jwt ? data.jwt : null;
      const changed = next !== jwt || !userKnown;
      jwt = next;
      userKnown = true;
      if (changed) onUser();
    } else if (data.type === "ugc_topic") {
      onTopic(str(data.topicType), str(data.topicValue));
    } else if (data.type === "feed_open") {
      onFeedOpen();
    }
  });

  // ─── HTTP ─────────────────────────────────────────────────────────────────────────────────
  async function api<T>(method: string, path: string, body?: unknown, query: Obj = {}): Promise<T> {
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== null) params.set(k, str(v));
    const qs = params.toString();
    const response = await fetch(path + (qs ? "?" + qs : ""), {
      method,
      headers: body instanceof FormData ? {} : { "Content-Type": "application/json", Accept: "application/json" },
      body: body === undefined ? undefined : body instanceof FormData ? body : JSON.stringify(body),
    });
    const data = (await response.json().catch(() => null)) as Obj | null;
    if (!response.ok) {
      const error = data && (data.error as { message?: string } | undefined);
      throw new ApiError(response.status, (error && error.message) || t("error"));
    }
    return data as T;
  }

  async function loadMe(): Promise<void> {
    me = null;
    if (!jwt) return;
    try {
      const answer = await api<{ current_user: Me | null }>("GET", base + "/current_user", undefined, { jwt });
      me = answer.current_user;
    } catch {
      jwt = null;
    }
  }

  function askLogin(): void {
    toParent({ type: "login" });
  }

  function whenUserKnown(run: () => void): void {
    onUser = () => void loadMe().then(run);
    if (userKnown) onUser();
    else
      setTimeout(() => {
        if (!userKnown) {
          userKnown = true;
          onUser();
        }
      }, 1200);
  }

  toParent({ type: "ready" });

  switch (config.kind) {
    case "comments":
      commentsWidget();
      break;
    case "feed":
      feedWidget();
      break;
    case "ugc":
      ugcWidget();
      break;
    case "reactions":
      reactionsWidget();
      break;
  }

  // ─── Comments ─────────────────────────────────────────────────────────────────────────────
  function commentsWidget(): void {
    let sort = "newest";
    let comments: Comment[] = [];
    let totalCount = 0;
    let totalParents = 0;
    let heldNotice = false;
    const own: Comment[] = []; // the reader's held comments, shown to them alone
    // The new comment being written survives the thread's re-renders (a reaction, a sort, the
    // sign-in answer), and is cleared once it is posted.
    const draft: { text: string; mentions: Mention[]; images: string[] } = { text: "", mentions: [], images: [] };
    const live = h("div", { class: "sr-only", "aria-live": "polite" });

    async function load(reset: boolean): Promise<void> {
      const answer = await api<{ comments: Comment[]; total_count: number; total_parent_comments_count: number }>(
        "GET",
        pagePath + "/comments.json",
        undefined,
        {
          sort_order: sort,
          parent_comments_limit: 20,
          parent_comments_offset: reset ? 0 : comments.length,
          jwt,
        },
      );
      comments = reset ? answer.comments : comments.concat(answer.comments);
      totalCount = answer.total_count;
      totalParents = answer.total_parent_comments_count;
      render();
    }

    function render(): void {
      const header = h(
        "div",
        { class: "bar" },
        h(
          "h2",
          { id: "comments-title" },
          totalCount === 1 ? t("commentCountOne") : t("commentCount", { n: totalCount }),
        ),
        sortSelect(),
      );
      const list = h("ol", { class: "thread", "aria-labelledby": "comments-title" });
      const shown = new Set(comments.map((c) => c.id));
      for (const c of own) if (!shown.has(c.id) && !c.parent_comment_id) list.append(commentItem(c, null));
      for (const c of comments) list.append(commentItem(c, null));
      const children: Node[] = [header, live];
      if (me) children.push(h("p", { class: "meta" }, t("signedInAs", { name: me.name })));
      if (heldNotice) children.push(h("p", { class: "notice", role: "status" }, t("held")));
      children.push(composer(null, null));
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
      app!.replaceChildren(...children);
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
      const message = error instanceof ApiError ? error.message : t("error");
      live.textContent = message;
      const box = h("p", { class: "notice error", role: "alert" }, message);
      app!.prepend(box);
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
            .catch((error: unknown) => (status.textContent = error instanceof ApiError ? error.message : t("error")));
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
          status.textContent = error instanceof ApiError ? error.message : t("error");
          reportHeight();
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
      if (top.is_published) bar.append(replyButton);
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

    whenUserKnown(() => {
      load(true).catch(showError);
    });
    app!.replaceChildren(h("p", { class: "meta" }, t("loading")));
  }

  /** The @mention picker over the thread's readers, under the textarea (a listbox, keyboard first). */
  function mentionPicker(area: HTMLTextAreaElement, chosen: Mention[]): HTMLElement {
    const list = h("ul", {
      class: "picker",
      role: "listbox",
      id: "picker-" + Math.random().toString(36).slice(2),
      "aria-label": t("mentionPicker"),
      hidden: "",
    });
    area.setAttribute("aria-autocomplete", "list");
    area.setAttribute("aria-controls", list.id);
    let options: Mention[] = [];
    let active = 0;
    let start = -1;
    const candidates = () => collectReaders();
    const close = () => {
      list.hidden = true;
      options = [];
      area.removeAttribute("aria-activedescendant");
      area.setAttribute("aria-expanded", "false");
    };
    const draw = () => {
      list.replaceChildren(
        ...options.map((m, i) => {
          const li = h(
            "li",
            { role: "option", id: list.id + "-" + i, "aria-selected": String(i === active) },
            "@" + m.name,
          );
          li.addEventListener("mousedown", (event) => {
            event.preventDefault();
            choose(i);
          });
          return li;
        }),
      );
      list.hidden = !options.length;
      area.setAttribute("aria-expanded", String(options.length > 0));
      if (options.length) area.setAttribute("aria-activedescendant", list.id + "-" + active);
      reportHeight();
    };
    const choose = (i: number) => {
      const m = options[i];
      if (!m) return;
      const caret = area.selectionStart;
      area.value = area.value.slice(0, start) + "@" + m.name + " " + area.value.slice(caret);
      const at = start + m.name.length + 2;
      area.setSelectionRange(at, at);
      if (!chosen.some((c) => c.id === m.id)) chosen.push(m);
      close();
      area.focus();
    };
    area.addEventListener("input", () => {
      const before = area.value.slice(0, area.selectionStart);
      const match = /(^|\s)@([^\s@]{0,30})$/u.exec(before);
      if (!match) return close();
      start = before.length - match[2]!.length - 1;
      const query = match[2]!.toLowerCase();
      options = candidates()
        .filter((m) => m.name.toLowerCase().includes(query))
        .slice(0, 6);
      active = 0;
      draw();
    });
    area.addEventListener("keydown", (event) => {
      if (list.hidden || !options.length) return;
      if (event.key === "ArrowDown" || event.key === "ArrowUp") {
        event.preventDefault();
        active = (active + (event.key === "ArrowDown" ? 1 : options.length - 1)) % options.length;
        draw();
      } else if (event.key === "Enter" || event.key === "Tab") {
        event.preventDefault();
        choose(active);
      } else if (event.key === "Escape") {
        close();
      }
    });
    area.addEventListener("blur", () => setTimeout(close, 150));
    return list;
  }

  /** Readers shown in the thread (for the picker): every named, non-guest author but the reader. */
  function collectReaders(): Mention[] {
    const seen = new Map<string, Mention>();
    document.querySelectorAll<HTMLElement>("[data-author-id]").forEach((el) => {
      const id = el.dataset.authorId!;
      if (me && id === String(me.id)) return;
      seen.set(id, {
        id,
        name: el.dataset.authorName!,
        slug: el.dataset.authorSlug || id,
        avatar: el.dataset.authorAvatar || null,
      });
    });
    return [...seen.values()];
  }

  /** The author's name; readers (not guests, not the anonymous) carry what the mention picker needs. */
  function nameTag(comment: Comment, name: string): HTMLElement {
    const a = comment.author;
    const attrs: Record<string, string> = { class: "name" };
    if (a && !a.guest && a.name) {
      attrs["data-author-id"] = String(a.id);
      attrs["data-author-name"] = a.name;
      attrs["data-author-slug"] = a.slug || String(a.id);
      if (a.avatar && isHttp(a.avatar)) attrs["data-author-avatar"] = a.avatar;
    }
    return h("span", attrs, name);
  }

  function displayName(comment: Comment): string {
    const a = comment.author;
    if (!a) return t("anonymous");
    return a.name || (a.guest ? t("guest") : t("anonymous"));
  }

  /** A comment's ops as DOM: text, links (http(s) only), mentions and images (http(s) only). */
  function renderBody(ops: Op[]): HTMLElement {
    const body = h("div", { class: "body" });
    for (const op of ops) {
      const attrs = op.attributes || {};
      if (typeof op.insert === "string") {
        const link = typeof attrs.link === "string" && isHttp(attrs.link) ? attrs.link : null;
        const text = textWithBreaks(op.insert.replace(/\n$/, op === ops[ops.length - 1] ? "" : "\n"));
        if (link)
          body.append(h("a", { href: link, rel: "nofollow ugc noopener noreferrer", target: "_blank" }, ...text));
        else body.append(...text);
      } else if (op.insert && typeof op.insert === "object") {
        const insert = op.insert as Obj;
        const mention = attrs.mention as Obj | undefined;
        if (insert.mentions && mention) {
          const span = h("span", { class: "mention" }, "@" + str(mention.name));
          body.append(span);
        } else if (typeof insert.image === "string" && isHttp(insert.image)) {
          body.append(img(insert.image, ""));
        }
      }
    }
    return body;
  }

  // ─── Feed ─────────────────────────────────────────────────────────────────────────────────
  function feedWidget(): void {
    let tab: "latest" | "mine" = "latest";
    let items: { type?: string; held?: boolean; comment: Comment; page: { url: string; headline: string | null } }[] =
      [];
    let cursor: string | null = null;
    let unread: number | null = null;
    const sinceKey = "masthead-feed-since-" + config.accountId;

    // A reload (the feed opened again, a tab chosen) supersedes the loads asked before it: their
    // answers, if they arrive later, are dropped rather than shown over the newer list.
    let generation = 0;

    async function load(reset: boolean): Promise<void> {
      if (reset) generation++;
      const asked = generation;
      const query: Obj = { limit: 20, cursor: reset ? undefined : cursor };
      let path = base + "/feed";
      if (tab === "mine") {
        path += "/me";
        query.jwt = jwt;
        query.since = safeStorage(sinceKey);
      }
      const answer = await api<{ items: typeof items; next_cursor: string | null; unread_count?: number | null }>(
        "GET",
        path,
        undefined,
        query,
      );
      if (asked !== generation) return;
      items = reset ? answer.items : items.concat(answer.items);
      cursor = answer.next_cursor;
      if (tab === "mine") {
        unread = answer.unread_count ?? null;
        const newest = items[0];
        if (newest) safeStorage(sinceKey, newest.comment.created_at);
      }
      render();
    }

    // The header and its close button are made once: a refresh (the feed opened again, a tab
    // chosen) renders the list under them, so a click on Close, or a keyboard reader's focus on
    // it, is never lost to a re-render that lands between press and release.
    const close = h("button", { class: "link", type: "button", "aria-label": t("close") }, "✕");
    close.addEventListener("click", () => toParent({ type: "close_feed" }));
    const header = h(
      "div",
      { class: "bar" },
      h("h1", {}, config.publisher ? config.publisher + " · " + t("feedTitle") : t("feedTitle")),
      close,
    );

    function render(): void {
      const tabs = h("div", { class: "tabs", role: "tablist" });
      for (const [id, key] of [
        ["latest", "feedLatest"],
        ["mine", "feedMine"],
      ] as ["latest" | "mine", StringKey][]) {
        if (id === "mine" && !jwt) continue;
        const label =
          t(key) + (id === "mine" && unread ? " (" + t("feedUnread", { n: unread >= 50 ? "50+" : unread }) + ")" : "");
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
          ? h("a", { href: item.page.url, target: "_top" }, page)
          : h("span", {}, page);
        list.append(
          h(
            "li",
            { class: "feed-item" },
            h(
              "div",
              { class: "head" },
              h("span", { class: "name" }, displayName(c)),
              label ? h("span", { class: "meta" }, label) : "",
              h("time", { datetime: c.created_at }, when(c.created_at)),
            ),
            renderBody(c.body.ops),
            h("div", { class: "meta" }, t("feedOn", { page: "" }), pageLink),
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

    onFeedOpen = () => void load(true).catch(() => render());
    whenUserKnown(() => {
      if (!jwt && tab === "mine") tab = "latest";
      load(true).catch(() => render());
    });
  }

  // ─── Contributions (UGC) ───────────────────────────────────────────────────────────────────
  function ugcWidget(): void {
    let topicType = config.topicType;
    let topicValue = config.topicValue;
    let sent = false;
    // What the reader has typed survives a re-render (the sign-in answer or a new topic arriving
    // while they type), and is cleared once the contribution is sent.
    const draft = { title: "", text: "", links: "" };
    onTopic = (type, value) => {
      topicType = type;
      topicValue = value;
      render();
    };

    function render(): void {
      const children: Node[] = [h("h2", {}, t("ugcTitle"))];
      if (topicType || topicValue)
        children.push(
          h("p", { class: "meta" }, t("ugcTopic", { topic: [topicType, topicValue].filter(Boolean).join(": ") })),
        );
      if (!jwt) {
        const button = h("button", { class: "btn", type: "button" }, t("ugcSignIn"));
        button.addEventListener("click", askLogin);
        children.push(button);
        app!.replaceChildren(...children);
        return;
      }
      if (sent) children.push(h("p", { class: "notice", role: "status" }, t("ugcSent")));
      const form = h("form", { class: "composer" }) as HTMLFormElement;
      const title = h("input", {
        type: "text",
        "aria-label": t("ugcTitleField"),
        placeholder: t("ugcTitleField"),
        maxlength: "200",
      }) as HTMLInputElement;
      const text = h("textarea", {
        "aria-label": t("ugcText"),
        placeholder: t("ugcText"),
        required: "",
        rows: "5",
      }) as HTMLTextAreaElement;
      const links = h("textarea", {
        "aria-label": t("ugcLinks"),
        placeholder: t("ugcLinks"),
        rows: "2",
      }) as HTMLTextAreaElement;
      const status = h("span", { class: "grow", "aria-live": "polite" });
      const submit = h("button", { class: "btn", type: "submit" }, t("ugcSend"));
      title.value = draft.title;
      text.value = draft.text;
      links.value = draft.links;
      form.addEventListener("input", () => {
        draft.title = title.value;
        draft.text = text.value;
        draft.links = links.value;
      });
      form.append(title, text, links, h("div", { class: "row" }, status, submit));
      form.addEventListener("submit", (event) => {
        event.preventDefault();
        submit.setAttribute("disabled", "");
        const submission: Obj = {
          topic_type: topicType || "general",
          topic_values: topicValue || "general",
          text: text.value,
        };
        if (title.value.trim()) submission.title = title.value.trim();
        const list = links.value.split(/\s+/).filter(Boolean);
        if (list.length) submission.links = list;
        api("POST", base + "/ugc", { jwt, submission })
          .then(() => {
            sent = true;
            draft.title = draft.text = draft.links = "";
            return mineList();
          })
          .catch((error: unknown) => {
            submit.removeAttribute("disabled");
            status.textContent = error instanceof ApiError ? error.message : t("error");
          });
      });
      children.push(form);
      app!.replaceChildren(...children);
      void mineList(false);
    }

    async function mineList(rerender = true): Promise<void> {
      if (rerender) render();
      if (!jwt) return;
      const answer = await api<{
        items: { id: number; title: string | null; text: string; status: string; created_at: string }[];
      }>("GET", base + "/ugc/me", undefined, { jwt, limit: 10 }).catch(() => ({ items: [] }));
      if (!answer.items.length) return;
      const list = h("ol", { class: "mine", "aria-label": t("ugcMine") });
      for (const item of answer.items) {
        list.append(
          h(
            "li",
            { class: "feed-item" },
            h("span", { class: "name" }, item.title || item.text.slice(0, 80)),
            " ",
            h("span", { class: "badge" }, t(("ugcStatus_" + item.status) as StringKey)),
          ),
        );
      }
      app!.querySelector(".mine")?.remove();
      app!.append(h("h3", { class: "meta" }, t("ugcMine")), list);
      reportHeight();
    }

    whenUserKnown(render);
  }

  // ─── Reactions on a page ───────────────────────────────────────────────────────────────────
  function reactionsWidget(): void {
    type PageReactions = { reactions: Record<string, number>; total_count: number; my_reactions: string[] };
    const live = h("div", { class: "sr-only", "aria-live": "polite" });
    let state: PageReactions | null = null;
    // Answers are shown in the order they were asked: the signed-in reload and a click's answer
    // can cross, and the older one must not paint over the newer counts.
    let asked = 0;
    let shown = 0;
    function show(n: number, answer: PageReactions, focusId?: string): void {
      if (n < shown) return;
      shown = n;
      state = answer;
      render(focusId);
    }

    function render(focusId?: string): void {
      const group = h("div", { class: "summary page-reactions", role: "group", "aria-label": t("reactionsOnPage") });
      for (const [id, emoji] of REACTIONS) {
        const count = (state && state.reactions[id]) || 0;
        const given = Boolean(state && state.my_reactions.indexOf(id) >= 0);
        const name = t(("reaction_" + id) as StringKey);
        const button = h(
          "button",
          {
            class: "reaction",
            type: "button",
            "data-reaction": id,
            "aria-pressed": String(given),
            "aria-label": name + ", " + count,
            title: name,
          },
          emoji + (count ? " " + count : ""),
        );
        button.addEventListener("click", () => {
          if (!jwt) return askLogin();
          button.setAttribute("disabled", "");
          const path = pagePath + "/reactions/" + id;
          const n = ++asked;
          (given ? api<PageReactions>("DELETE", path, undefined, { jwt }) : api<PageReactions>("POST", path, { jwt }))
            .then((answer) => show(n, answer, id))
            .catch((error: unknown) => {
              button.removeAttribute("disabled");
              live.textContent = error instanceof ApiError ? error.message : t("error");
            });
        });
        group.append(button);
      }
      redraw([group, live], "data-reaction", focusId);
      reportHeight();
    }

    whenUserKnown(() => {
      const n = ++asked;
      api<PageReactions>("GET", pagePath + "/reactions", undefined, { jwt })
        .then((answer) => show(n, answer))
        .catch(() => {
          if (n >= shown) app!.replaceChildren(h("p", { class: "meta" }, t("error")));
        });
    });
  }

  function when(iso: string): string {
    const date = new Date(iso);
    try {
      return new Intl.DateTimeFormat(config.lang || "en", { dateStyle: "medium", timeStyle: "short" }).format(date);
    } catch {
      return date.toISOString();
    }
  }
}

// ─── Helpers (no state) ─────────────────────────────────────────────────────────────────────
class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

function h(tag: string, attrs: Record<string, string>, ...children: (Node | string)[]): HTMLElement {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  el.append(...children);
  return el;
}

function img(src: string, alt: string, className?: string): HTMLElement {
  const el = h("img", { src, alt, loading: "lazy", referrerpolicy: "no-referrer" });
  if (className) el.className = className;
  return el;
}

function textWithBreaks(text: string): (Node | string)[] {
  const out: (Node | string)[] = [];
  text.split("\n").forEach((line, i) => {
    if (i) out.push(document.createElement("br"));
    if (line) out.push(line);
  });
  return out;
}

function safeStorage(key: string, value?: string): string | undefined {
  try {
    if (value === undefined) return localStorage.getItem(key) ?? undefined;
    localStorage.setItem(key, value);
  } catch {
    // storage blocked in third-party frames: the feed just shows no unread count
  }
  return undefined;
}

function str(value: unknown): string {
  return typeof value === "string" ? value : typeof value === "number" ? String(value) : "";
}
