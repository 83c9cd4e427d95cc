/** The @mention picker of the comment composer: a listbox under the textarea, keyboard first. */
import { mentionMatches, mentionQuery, type Mention } from "../ops";
import { me, reportHeight, t } from "./core";
import { h } from "./dom";

/** The @mention picker over the thread's readers, under the textarea (a listbox, keyboard first). */
export function mentionPicker(area: HTMLTextAreaElement, chosen: Mention[]): HTMLElement {
  const list = h("ul", {
    class: "picker",
    role: "listbox",
    id: "picker-" + Math.random().toString(36).slice(2),
    "aria-label": t("mentionPicker"),
    hidden: "",
  });
  // A textarea keeps its textbox role, which takes no aria-expanded: the open list is told by the
  // option it makes active (aria-activedescendant).
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
    const typing = mentionQuery(area.value.slice(0, area.selectionStart));
    if (!typing) return close();
    start = typing.start;
    options = mentionMatches(candidates(), typing.query);
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
