/**
 * Text on a PDF page in any of the reader locales (docs/i18n.md "PDFs"): pdfkit draws glyph runs
 * that fontkit shapes (Indic conjuncts and vowel signs, Arabic joining), but it neither picks a
 * font per script nor orders a right-to-left line, and it lays out a line word by word in the
 * order written. So this writer breaks lines itself, orders each line's runs (./bidi.ts), picks
 * each stretch's font (./fonts.ts), and hands pdfkit one run at a time, shaped whole.
 *
 * fontkit reverses a run whose first letter is of a right-to-left script (Arabic) and no other: a
 * run drawn right to left without such a letter (digits and signs in an Arabic line, Arabic-Indic
 * digits read left to right) is reversed here first, brackets mirrored when it reads right to left.
 * Each line is marked with its text in reading order (/ActualText), so copying or extracting it
 * gives the words as written, not the glyphs' visual order.
 */
import type PDFDocument from "pdfkit";

import { directionOf, type Locale } from "@/i18n/locales";

import { mirrorBrackets, reverseRun, textDirection, visualRuns } from "./bidi";
import { fontRuns, fontStack, loadFont, type FontFamily, type FontWeight } from "./fonts";

type Doc = InstanceType<typeof PDFDocument>;

type TextStyle = { size: number; weight?: FontWeight; color?: string };

/**
 * Where a block goes: its left edge and width on the page; `align` on the locale's start or end
 * side. `auto`: the text's own direction, by its first letter (a Latin address in an Arabic
 * document reads left to right, still aligned on the document's side).
 */
export type Box = { x: number; width: number; align?: "start" | "end"; auto?: boolean };

const RTL_SCRIPT = /[\p{Script=Arabic}\p{Script=Hebrew}\p{Script=Syriac}\p{Script=Thaana}\p{Script=Nko}]/u;
const NEUTRAL_SCRIPT = /[\p{Script=Common}\p{Script=Inherited}\p{Script=Unknown}]/u;
/** Shaping features beyond the script's defaults: none (given, it makes pdfkit shape a run whole). */
const FEATURES: never[] = [];

/** Whether fontkit lays a run out right to left: its first character of a script is of a right-to-left one. */
function shaperReverses(text: string): boolean {
  for (const char of text) if (!NEUTRAL_SCRIPT.test(char)) return RTL_SCRIPT.test(char);
  return false;
}

type Piece = { text: string; font: string; width: number };

export class PdfText {
  readonly dir: "ltr" | "rtl";
  private readonly stack: FontFamily[];
  private readonly registered = new Set<string>();

  constructor(
    private readonly doc: Doc,
    readonly locale: Locale,
  ) {
    this.dir = directionOf(locale);
    this.stack = fontStack(locale);
  }

  private font(family: FontFamily, weight: FontWeight): string {
    const name = `${family}-${weight}`;
    if (!this.registered.has(name)) {
      this.doc.registerFont(name, loadFont(family, weight).data);
      this.registered.add(name);
    }
    return name;
  }

  private readonly widths = new Map<string, number>();

  /** A run's width in one font, measured once per document. */
  private runWidth(font: string, size: number, text: string): number {
    const id = `${font}\u0000${size}\u0000${text}`;
    let width = this.widths.get(id);
    if (width === undefined) {
      width = this.doc.font(font).fontSize(size).widthOfString(text, { features: FEATURES });
      this.widths.set(id, width);
    }
    return width;
  }

  /** The width of a stretch of text in logical order. */
  widthOf(text: string, style: TextStyle): number {
    const weight = style.weight ?? "regular";
    return fontRuns(text, this.stack, weight).reduce(
      (sum, run) => sum + this.runWidth(this.font(run.family, weight), style.size, run.text),
      0,
    );
  }

  /** A line's height and its baseline below the line's top, by the locale's own font. */
  metrics(style: TextStyle): { height: number; baseline: number } {
    const font = loadFont(this.stack[0]!, style.weight ?? "regular");
    return { height: (font.ascent - font.descent) * style.size, baseline: font.ascent * style.size };
  }

  /**
   * The lines `text` breaks into within `width`: at spaces, a word measured once and a line as the
   * sum of its words (kerning across a space is not counted); inside a word only when it alone is
   * wider than the line, between grapheme clusters.
   */
  lines(text: string, width: number, style: TextStyle): string[] {
    const out: string[] = [];
    const fits = (used: number, token: string) => used + this.widthOf(token.trimEnd(), style) <= width;
    for (const paragraph of text.split("\n")) {
      let line = "";
      let used = 0;
      for (const token of paragraph.match(/\S+\s*|\s+/g) ?? [""]) {
        if (fits(used, token)) {
          line += token;
          used += this.widthOf(token, style);
          continue;
        }
        if (line.trim()) out.push(line.trimEnd());
        line = "";
        used = 0;
        for (const { segment } of new Intl.Segmenter(this.locale, { granularity: "grapheme" }).segment(token)) {
          if (line && !fits(used, segment)) {
            out.push(line.trimEnd());
            line = "";
            used = 0;
          }
          line += segment;
          used += this.widthOf(segment, style);
        }
      }
      out.push(line.trimEnd());
    }
    return out;
  }

  /** A line's pieces in visual order, left to right, each ready for pdfkit. */
  private pieces(line: string, style: TextStyle, dir: "ltr" | "rtl"): Piece[] {
    const weight = style.weight ?? "regular";
    return visualRuns(line, dir).flatMap((run) => {
      const runs = fontRuns(run.text, this.stack, weight);
      if (run.rtl) runs.reverse();
      return runs.map((r) => {
        const shaped = shaperReverses(r.text);
        const text = shaped !== run.rtl ? reverseRun(r.text, run.rtl) : run.rtl ? mirrorBrackets(r.text) : r.text;
        const font = this.font(r.family, weight);
        return {
          text,
          font,
          width: this.runWidth(font, style.size, text),
        };
      });
    });
  }

  /** Draws `text` in `box` from `y` (the top of its first line), wrapping; returns the y below it. */
  write(text: string, box: Box, y: number, style: TextStyle): number {
    const { height, baseline } = this.metrics(style);
    const end = (box.align ?? "start") === "end";
    const right = end !== (this.dir === "rtl");
    let top = y;
    for (const line of this.lines(text, box.width, style)) {
      if (top + height > this.doc.page.height - this.doc.page.margins.bottom) {
        this.doc.addPage();
        top = this.doc.page.margins.top;
      }
      if (line) {
        const pieces = this.pieces(line, style, box.auto ? textDirection(line, this.dir) : this.dir);
        const total = pieces.reduce((sum, p) => sum + p.width, 0);
        let x = right ? box.x + box.width - total : box.x;
        this.doc.markContent("Span", { lang: this.locale, actual: line });
        this.doc.fillColor(style.color ?? "#000");
        for (const piece of pieces) {
          this.doc
            .font(piece.font)
            .fontSize(style.size)
            .text(piece.text, x, top + baseline, {
              lineBreak: false,
              baseline: "alphabetic",
              features: FEATURES,
            });
          x += piece.width;
        }
        this.doc.endMarkedContent();
      }
      top += height;
    }
    return top;
  }
}
