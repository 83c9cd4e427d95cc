/**
 * Around the comments widget's list (docs/widgets.md "Conversation tools"): the sort control (the
 * reader's choice kept in localStorage), the featured strip above the list, the reader's questions
 * awaiting an answer on a Q&A page, and the tick that keeps the edit window's words current and
 * takes the Edit button away when the window ends.
 */
import { editWindowText, saveSort, SORTS, type Sort } from "../conversation";
import { type StringKey } from "../translate";
import { commentItem } from "./comment-item";
import { reportHeight, t } from "./core";
import { h } from "./dom";
import { frameStorage, state, thread } from "./thread-state";

const SORT_LABELS: Record<Sort, StringKey> = {
  newest: "sortNewest",
  oldest: "sortOldest",
  most_reacted: "sortMostReacted",
};

/** The sort control: a labelled select; a change reloads the list from its start and keeps the choice. */
export function sortSelect(): HTMLElement {
  const select = h("select", { id: "sort", "aria-label": t("sortLabel") }) as HTMLSelectElement;
  for (const value of SORTS) select.append(h("option", { value }, t(SORT_LABELS[value])));
  select.value = state.sort;
  select.addEventListener("change", () => {
    state.sort = select.value as Sort;
    saveSort(frameStorage(), state.sort);
    thread
      .load(true)
      .then(() => document.getElementById("sort")?.focus())
      .catch(thread.showError);
  });
  return select;
}

/** The featured comments, first, under their own heading (nothing when there are none). */
export function featuredStrip(): HTMLElement | null {
  if (!state.featured.length) return null;
  const list = h("ol", { class: "thread", "aria-labelledby": "featured-title" });
  for (const c of state.featured) list.append(commentItem(c, null, "featured"));
  return h("section", { class: "featured" }, h("h3", { id: "featured-title" }, t("featuredTitle")), list);
}

/** Q&A pages: the reader's own questions readers do not see yet, marked as awaiting an answer. */
export function awaitingList(): HTMLElement | null {
  if (!state.awaiting.length) return null;
  const list = h("ol", { class: "thread", "aria-labelledby": "awaiting-title" });
  for (const c of state.awaiting) list.append(commentItem(c, null, "awaitingAnswer"));
  return h("section", { class: "awaiting" }, h("h3", { id: "awaiting-title" }, t("awaitingTitle")), list);
}

let ticking = false;

/**
 * Every 15 seconds: the edit window's words under the reader's comments say what is left; when a
 * window ends, the line and the comment's Edit button go (an open edit box stays: saving it then
 * is refused with the reason).
 */
export function startEditWindowTick(): void {
  if (ticking) return;
  ticking = true;
  window.setInterval(() => {
    const lines = document.querySelectorAll<HTMLElement>("[data-edit-until]");
    let changed = false;
    lines.forEach((line) => {
      const left = editWindowText(line.getAttribute("data-edit-until"), Date.now());
      if (left) {
        const text = t(left.key, left.values);
        if (line.textContent !== text) line.textContent = text;
        return;
      }
      document.querySelector('[data-edit="' + line.getAttribute("data-for") + '"]')?.remove();
      line.remove();
      changed = true;
    });
    if (changed) reportHeight();
  }, 15_000);
}
