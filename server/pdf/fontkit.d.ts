/** The part of fontkit (pdfkit's font engine) that ./fonts.ts reads: a font's character map and metrics. */
declare module "fontkit" {
  export function create(buffer: Buffer): {
    hasGlyphForCodePoint(codePoint: number): boolean;
    ascent: number;
    descent: number;
    unitsPerEm: number;
  };
}
