/**
 * What a reader page in one locale must hold, read from the page as drawn (docs/i18n.md): `<html
 * lang dir>` the locale's, no sideways scroll, no text cut off or pushed out of its box or the
 * window, no serious or critical axe violation, and the layout on the locale's side: text and
 * controls run in its direction, nothing aligned to the physical side the other way round, a label
 * above its control starting where the control starts, a button starting at its block's start, a
 * select's arrow room on its end side, and the language picker at the end of its row.
 */
import type { Page } from "@playwright/test";

import { directionOf, type Locale } from "../../i18n/locales";
import { expect, expectNoHorizontalPageScroll, seriousViolations } from "../fixtures";

/** Text cut off or out of bounds: by a box that clips it, by its own box, or by the window. */
export function clippedText(): string[] {
  const problems: string[] = [];
  const width = document.documentElement.clientWidth;
  const name = (el: Element) =>
    `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ""} "${(el.textContent ?? "").trim().slice(0, 40)}"`;
  const tiny = (el: Element) => {
    const r = el.getBoundingClientRect();
    return r.width <= 1 || r.height <= 1; // visually hidden (sr-only): read aloud, not drawn
  };
  for (const el of document.body.querySelectorAll("*")) {
    if (!el.checkVisibility({ opacityProperty: false, visibilityProperty: true })) continue;
    const texts = [...el.childNodes].filter((n) => n.nodeType === Node.TEXT_NODE && n.textContent?.trim());
    if (texts.length === 0) continue;
    let ancestor: Element | null = el;
    let hidden = false;
    for (; ancestor && !hidden; ancestor = ancestor.parentElement) hidden = tiny(ancestor);
    if (hidden) continue;
    // The element's own text (a visually hidden child, read aloud only, is left out).
    const rects = texts.map((node) => {
      const range = document.createRange();
      range.selectNodeContents(node);
      return range.getBoundingClientRect();
    });
    const text = {
      left: Math.min(...rects.map((r) => r.left)),
      right: Math.max(...rects.map((r) => r.right)),
      top: Math.min(...rects.map((r) => r.top)),
      bottom: Math.max(...rects.map((r) => r.bottom)),
    };
    const box = el.getBoundingClientRect();
    const style = getComputedStyle(el);
    if (text.left < -1 || text.right > width + 1) problems.push(`${name(el)} runs out of the window`);
    if (style.overflowX !== "visible" && el.scrollWidth > el.clientWidth + 1)
      problems.push(`${name(el)} is cut off (${el.scrollWidth} px of text in ${el.clientWidth} px)`);
    if (style.display !== "inline" && (text.left < box.left - 1 || text.right > box.right + 1))
      problems.push(`${name(el)} runs out of its box`);
    for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
      const s = getComputedStyle(a);
      if (s.overflowX === "visible" && s.overflowY === "visible") continue;
      const r = a.getBoundingClientRect();
      if (text.left < r.left - 1 || text.right > r.right + 1 || text.top < r.top - 1 || text.bottom > r.bottom + 1)
        problems.push(`${name(el)} is cut off by ${name(a).split(" ")[0]}`);
    }
  }
  return problems;
}

/** Where the layout does not follow the page's direction. */
export function misplaced(dir: "ltr" | "rtl"): string[] {
  const problems: string[] = [];
  const rtl = dir === "rtl";
  const name = (el: Element) =>
    `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ""} "${(el.textContent ?? "").trim().slice(0, 40)}"`;
  const visible = (el: Element) => el.checkVisibility() && el.getBoundingClientRect().width > 1;
  // Inside an element that sets its own direction (an address, a name: dir="ltr"/"auto", <bdi>) the page's does not hold.
  const ownDirection = (el: Element) => {
    const set = el.closest("[dir]")?.getAttribute("dir");
    return el.closest("bdi") !== null || (set !== undefined && set !== dir);
  };
  const contentBox = (el: Element) => {
    const r = el.getBoundingClientRect();
    const s = getComputedStyle(el);
    const px = (v: string) => parseFloat(v) || 0;
    return {
      left: r.left + px(s.borderLeftWidth) + px(s.paddingLeft),
      right: r.right - px(s.borderRightWidth) - px(s.paddingRight),
    };
  };
  const main = document.querySelector("main");
  if (!main) return ["no <main>"];
  for (const el of [main, ...main.querySelectorAll("*")]) {
    if (!visible(el) || ownDirection(el)) continue;
    const style = getComputedStyle(el);
    if (style.direction !== dir) problems.push(`${name(el)} runs ${style.direction}`);
    if (style.textAlign === (rtl ? "left" : "right")) problems.push(`${name(el)} is aligned ${style.textAlign}`);
    if (style.float === (rtl ? "left" : "right")) problems.push(`${name(el)} floats ${style.float}`);
  }
  // A label above its control starts where the control starts.
  for (const label of main.querySelectorAll("label[for]")) {
    const control = document.getElementById(label.getAttribute("for") ?? "");
    if (!control || !visible(label) || !visible(control)) continue;
    if (control.matches("input[type=checkbox], input[type=radio], [role=switch]")) continue;
    const range = document.createRange();
    range.selectNodeContents(label);
    const text = range.getBoundingClientRect();
    const box = control.getBoundingClientRect();
    if (box.top < text.bottom - 1) continue; // beside it, not above it
    const gap = rtl ? Math.abs(box.right - text.right) : Math.abs(text.left - box.left);
    if (gap > 2) problems.push(`${name(label)} starts ${Math.round(gap)} px from its control's start`);
  }
  // A button in a block of its own starts at the block's start.
  for (const button of main.querySelectorAll("button, [role=button]")) {
    const parent = button.parentElement;
    if (!parent || !visible(button) || ownDirection(button)) continue;
    const ps = getComputedStyle(parent);
    const startsRow =
      ps.display === "block" ||
      (ps.display.endsWith("flex") &&
        ps.flexDirection === "row" &&
        ["normal", "flex-start", "start"].includes(ps.justifyContent) &&
        parent.firstElementChild === button);
    if (!startsRow || ps.textAlign === "center") continue;
    const box = contentBox(parent);
    const r = button.getBoundingClientRect();
    const gap = rtl ? box.right - r.right : r.left - box.left;
    if (Math.abs(gap) > 2) problems.push(`${name(button)} starts ${Math.round(gap)} px from its row's start`);
  }
  // A select's native arrow sits on its end side: the wider inline padding must be there.
  for (const select of document.querySelectorAll("select")) {
    if (!visible(select)) continue;
    const s = getComputedStyle(select);
    const [left, right] = [parseFloat(s.paddingLeft), parseFloat(s.paddingRight)];
    if (left !== right && left > right !== rtl)
      problems.push(`select#${select.id} keeps its arrow room on the start side`);
  }
  // The language picker ends its row (the header's end: right, or left right to left).
  const picker = document.querySelector("[data-testid=language-picker]");
  const header = picker?.closest("header");
  if (picker && header && visible(picker)) {
    const row = contentBox(header);
    const r = picker.getBoundingClientRect();
    const gap = rtl ? r.left - row.left : row.right - r.right;
    if (Math.abs(gap) > 2) problems.push(`the language picker is ${Math.round(gap)} px from its row's end`);
  }
  return problems;
}

/** Every check of one page load in `locale`; `what` names it in failures. */
export async function expectReaderPage(page: Page, locale: Locale, what: string): Promise<void> {
  const dir = directionOf(locale);
  const html = page.locator("html");
  await expect(html, what).toHaveAttribute("lang", locale);
  await expect(html, what).toHaveAttribute("dir", dir);
  await expectNoHorizontalPageScroll(page, what);
  expect(await page.evaluate(clippedText), `${what}: clipped text`).toEqual([]);
  expect(await page.evaluate(misplaced, dir), `${what}: not laid out ${dir}`).toEqual([]);
  expect(await seriousViolations(page), `${what}: axe`).toEqual([]);
}
