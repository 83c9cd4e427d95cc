/** The page-reactions widget: the six reactions on the page itself, with their counts. */
import { type StringKey } from "../translate";
import { api, app, askLogin, errorText, jwt, num, pagePath, redraw, reportHeight, t, whenUserKnown } from "./core";
import { h } from "./dom";
import { REACTIONS } from "./types";

/** Start the widget: the counts once the reader is known, and again each time they change. */
export function reactionsWidget(): void {
  live = h("div", { class: "sr-only", "aria-live": "polite" });
  whenUserKnown(() => {
    const n = ++asked;
    api<PageReactions>("GET", pagePath + "/reactions", undefined, { jwt })
      .then((answer) => show(n, answer))
      .catch(() => {
        if (n >= shown) app.replaceChildren(h("p", { class: "meta" }, t("error")));
      });
  });
}

type PageReactions = { reactions: Record<string, number>; total_count: number; my_reactions: string[] };

/** Announces a failed click to screen readers (made by `reactionsWidget`). */
let live: HTMLElement;
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
    const count = (state && Object.prototype.hasOwnProperty.call(state.reactions, id) && state.reactions[id]) || 0;
    const given = Boolean(state && state.my_reactions.indexOf(id) >= 0);
    const name = t(("reaction_" + id) as StringKey);
    const button = h(
      "button",
      {
        class: "reaction",
        type: "button",
        "data-reaction": id,
        "aria-pressed": String(given),
        "aria-label": t("reactionWithCount", { reaction: name, n: count }),
        title: name,
      },
      emoji + (count ? " " + num(count) : ""),
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
          live.textContent = errorText(error);
        });
    });
    group.append(button);
  }
  redraw([group, live], "data-reaction", focusId);
  reportHeight();
}
