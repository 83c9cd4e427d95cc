/**
 * What the locale specs check on every reader surface (docs/i18n.md; issue 59's "Chromium check at
 * 1440 and 390 px"): the element that carries the surface's language says the locale in `lang`
 * and its direction in `dir`, and the browser lays it out that way (computed `direction`); the
 * document does not scroll sideways; no text is cut off by a box too narrow for it; and the
 * inline start and end are where the direction puts them (right and left in Arabic).
 */
import type { Frame, Page } from "@playwright/test";

import { directionOf, LOCALES, type Locale } from "../../i18n/locales";
import { expect } from "../fixtures";

export { LOCALES };
export type { Locale };

/** The two widths the issue names. */
export const WIDTHS = [
  { name: "1440", width: 1440, height: 900 },
  { name: "390", width: 390, height: 844 },
] as const;

export const dirOf = (locale: Locale) => directionOf(locale);

type Where = Page | Frame;

/**
 * The element `selector` (the surface's root) says `locale` and its direction, and lays out so;
 * its nearest `lang` ancestor is itself (nothing inside a surface is left in another language).
 */
export async function expectLangDir(where: Where, selector: string, locale: Locale, what: string): Promise<void> {
  const seen = await where
    .locator(selector)
    .first()
    .evaluate((el) => ({
      lang: el.getAttribute("lang"),
      dir: el.getAttribute("dir"),
      direction: getComputedStyle(el).direction,
      bodyDirection: getComputedStyle(el.ownerDocument.body).direction,
    }));
  const dir = directionOf(locale);
  expect.soft(seen.lang, `${what}: lang`).toBe(locale);
  expect.soft(seen.dir, `${what}: dir`).toBe(dir);
  expect.soft(seen.direction, `${what}: computed direction`).toBe(dir);
  if (selector === "html") expect.soft(seen.bodyDirection, `${what}: the body's direction`).toBe(dir);
}

/**
 * The document does not scroll sideways, and no visible element with text of its own is wider
 * inside than its box shows while the box hides the rest (overflow hidden or clip): text cut off.
 * A box that ends in an ellipsis is accepted only when it carries the whole text in `title` (the
 * intended, labelled truncation). Screen-reader-only text (a 1 px box) is not shown, so not checked.
 */
export async function expectNothingCut(where: Where, what: string): Promise<void> {
  const found = await where.evaluate(() => {
    const root = document.documentElement;
    const clipped: string[] = [];
    for (const el of Array.from(document.body.querySelectorAll<HTMLElement>("*"))) {
      const ownText = Array.from(el.childNodes).some((n) => n.nodeType === 3 && (n.textContent ?? "").trim() !== "");
      if (!ownText && !(el instanceof HTMLInputElement || el instanceof HTMLButtonElement)) continue;
      const rect = el.getBoundingClientRect();
      if (rect.width <= 2 || rect.height <= 2) continue;
      const style = getComputedStyle(el);
      if (style.visibility === "hidden") continue;
      const hides = (v: string) => v === "hidden" || v === "clip";
      const wide = el.scrollWidth > el.clientWidth + 1 && hides(style.overflowX);
      const tall = el.scrollHeight > el.clientHeight + 1 && hides(style.overflowY) && style.textOverflow !== "ellipsis";
      if (!wide && !tall) continue;
      if (wide && style.textOverflow === "ellipsis" && el.title.trim() !== "") continue;
      const name =
        el.tagName.toLowerCase() +
        (el.className && typeof el.className === "string" ? "." + el.className.trim().replace(/\s+/g, ".") : "");
      clipped.push(
        `${name} "${(el.textContent ?? "").trim().slice(0, 40)}" (${el.scrollWidth}×${el.scrollHeight} in ${el.clientWidth}×${el.clientHeight})`,
      );
    }
    // Boxes sticking out of the window sideways (a body with overflow-x hidden would hide them
    // instead of scrolling), unless they sit in a box of their own that scrolls.
    const out: string[] = [];
    const scrolls = (el: Element) => {
      for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
        const x = getComputedStyle(a).overflowX;
        if (x === "auto" || x === "scroll") return true;
      }
      return false;
    };
    for (const el of Array.from(document.body.querySelectorAll<HTMLElement>("*"))) {
      const rect = el.getBoundingClientRect();
      if (rect.width <= 2 || rect.height <= 2 || getComputedStyle(el).visibility === "hidden") continue;
      if (rect.right <= root.clientWidth + 1 && rect.left >= -1) continue;
      if (getComputedStyle(el).position === "fixed" || scrolls(el)) continue;
      out.push(`${el.tagName.toLowerCase()}#${el.id} [${Math.round(rect.left)}, ${Math.round(rect.right)}]`);
    }
    return { scrollWidth: root.scrollWidth, clientWidth: root.clientWidth, clipped, out: out.slice(0, 5) };
  });
  expect
    .soft(found.scrollWidth, `${what} is ${found.scrollWidth} px wide in ${found.clientWidth} px`)
    .toBeLessThanOrEqual(found.clientWidth);
  expect.soft(found.out, `${what}: boxes outside the ${found.clientWidth} px window`).toEqual([]);
  expect.soft(found.clipped, `${what}: text cut off`).toEqual([]);
}

/**
 * Where `selector` sits in its `within` ancestor, on the logical sides: its distance from the inline
 * start edge and from the inline end edge (right and left in a right-to-left box), in px.
 */
export async function inlineOffsets(
  where: Where,
  selector: string,
  within: string,
): Promise<{ start: number; end: number; direction: string }> {
  return where
    .locator(selector)
    .first()
    .evaluate((el, w) => {
      const box = el.closest(w)!;
      const r = el.getBoundingClientRect();
      const c = box.getBoundingClientRect();
      const rtl = getComputedStyle(box).direction === "rtl";
      return {
        start: Math.round(rtl ? c.right - r.right : r.left - c.left),
        end: Math.round(rtl ? r.left - c.left : c.right - r.right),
        direction: getComputedStyle(box).direction,
      };
    }, within);
}

/** A text field's text starts on the locale's start side (right in Arabic), however it says so. */
export async function expectTextStartsAtStart(where: Where, selector: string, locale: Locale, what: string) {
  const seen = await where
    .locator(selector)
    .first()
    .evaluate((el) => ({ direction: getComputedStyle(el).direction, align: getComputedStyle(el).textAlign }));
  const rtl = directionOf(locale) === "rtl";
  const physical =
    seen.align === "start"
      ? seen.direction === "rtl"
        ? "right"
        : "left"
      : seen.align === "end"
        ? seen.direction === "rtl"
          ? "left"
          : "right"
        : seen.align;
  expect
    .soft(physical, `${what}: text starts on the ${rtl ? "right" : "left"} (${JSON.stringify(seen)})`)
    .toBe(rtl ? "right" : "left");
}
