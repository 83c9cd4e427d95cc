/**
 * The contribution (UGC) widget: a signed-in reader sends a title, a text and links on the
 * page's topic, and sees the status of their last contributions.
 */
import { graphemePrefix } from "../../../server/text/graphemes";
import { type StringKey } from "../translate";
import {
  api,
  app,
  askLogin,
  base,
  config,
  errorText,
  jwt,
  onReaderChange,
  parts,
  reportHeight,
  setTopicHandler,
  t,
  whenUserKnown,
} from "./core";
import { bdi, h } from "./dom";
import { type Obj } from "./types";

/** Start the widget: the form once the reader is known, drawn again when the page sets a topic. */
export function ugcWidget(): void {
  topicType = config.topicType;
  topicValue = config.topicValue;
  setTopicHandler((type, value) => {
    topicType = type;
    topicValue = value;
    render();
  });
  // Another reader: the last one's words and "sent" are not theirs.
  onReaderChange(() => {
    sent = false;
    draft.title = draft.text = draft.links = "";
  });
  whenUserKnown(render);
}

/** The topic the contribution is about (the frame's settings, then the page's `updateUGCTopic`). */
let topicType = "";
let topicValue = "";
let sent = false;
// What the reader has typed survives a re-render (the sign-in answer or a new topic arriving
// while they type), and is cleared once the contribution is sent.
const draft = { title: "", text: "", links: "" };
function render(): void {
  const children: Node[] = [h("h2", {}, t("ugcTitle"))];
  if (topicType || topicValue)
    children.push(
      h(
        "p",
        { class: "meta" },
        ...parts("ugcTopic", { topic: bdi([topicType, topicValue].filter(Boolean).join(": ")) }),
      ),
    );
  if (!jwt) {
    const button = h("button", { class: "btn", type: "button" }, t("ugcSignIn"));
    button.addEventListener("click", askLogin);
    children.push(button);
    app.replaceChildren(...children);
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
        status.textContent = errorText(error);
      });
  });
  children.push(form);
  app.replaceChildren(...children);
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
        h("span", { class: "name", dir: "auto" }, item.title || graphemePrefix(item.text, 80)),
        " ",
        h("span", { class: "badge" }, t(("ugcStatus_" + item.status) as StringKey)),
      ),
    );
  }
  app.querySelector(".mine")?.remove();
  app.append(h("h3", { class: "meta" }, t("ugcMine")), list);
  reportHeight();
}
