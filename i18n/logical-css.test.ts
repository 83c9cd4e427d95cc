/**
 * Right to left by logical sides (docs/i18n.md): the widgets, the member pages and the paywall
 * (./reader-surfaces.ts) style their sides as the start and end of the line, never as left and
 * right, so an Arabic page mirrors without a second set of rules. Failing here:
 *
 * - Tailwind classes with a physical side: `ml-`/`mr-`, `pl-`/`pr-`, `scroll-m[lr]-`, `left-`/
 *   `right-`, `text-left`/`text-right`, `border-l`/`border-r`, `rounded-l`/`-r`/`-tl`…, `space-x-`,
 *   `divide-x`, `float-` and `clear-left`/`-right` (use `ms-`/`me-`, `ps-`/`pe-`, `start-`/`end-`,
 *   `text-start`/`text-end`, `border-s`/`border-e`, `rounded-s`/`-e`/`-ss`…, `gap-`, `float-start`),
 *   unless the class or a class beside it in the same string says what happens right to left
 *   (`rtl:`/`ltr:`);
 * - CSS (in .css files and in strings) with `margin-`, `padding-` or `border-left`/`-right`,
 *   `left:`/`right:`, `text-align`, `float` or `clear` left or right, or a physical corner's
 *   radius, outside a rule whose selector names a direction (`[dir="rtl"]`, `:dir(rtl)`);
 * - style objects and DOM styles with the same (`marginLeft`, `style.right = …`,
 *   `setProperty("padding-left", …)`, `textAlign: "left"`).
 *
 * The mail surface is not read: mail clients honour few logical properties, so mail sets `dir`
 * and aligns to the locale's side itself (server/i18n/reader-mail.ts). A line may be exempted with
 * a comment holding `logical-css-exempt: <why>` on that line or the one before.
 */
import fs from "node:fs";
import path from "node:path";

import ts from "typescript";
import { describe, expect, it } from "vitest";

import { READER_SURFACES } from "./reader-surfaces";

const root = path.resolve(import.meta.dirname, "..");
const SURFACES = ["widgets", "member", "paywall"] as const;

function filesOf(entry: string): string[] {
  const full = path.join(root, entry);
  if (!fs.existsSync(full)) return [];
  if (fs.statSync(full).isFile()) return [entry];
  return fs.readdirSync(full).flatMap((name) => filesOf(path.join(entry, name)));
}

const isScanned = (file: string) =>
  /\.(tsx?|css)$/.test(file) && !/\.(test|int\.test|generated)\.tsx?$/.test(file) && !file.endsWith(".d.ts");

const VALUE = String.raw`(?:\d+(?:\.\d+)?|px|auto|full|\d+\/\d+|\[[^\]]+\]|\([^)]+\))`;

/** Each physical Tailwind utility (variants and `!`/`-` taken off) with the group an `rtl:` class would handle. */
const PHYSICAL_UTILITIES: readonly [RegExp, string][] = [
  [new RegExp(`^m[lr]-${VALUE}$`), "margin"],
  [new RegExp(`^p[lr]-${VALUE}$`), "padding"],
  [new RegExp(`^scroll-[mp][lr]-${VALUE}$`), "scroll"],
  [new RegExp(`^(?:left|right)-${VALUE}$`), "inset"],
  [/^text-(?:left|right)$/, "text-align"],
  [/^border-[lr](?:-.+)?$/, "border"],
  [/^rounded-(?:[lr]|tl|tr|bl|br)(?:-.+)?$/, "rounded"],
  [new RegExp(`^space-x-(?:${VALUE}|reverse)$`), "space"],
  [/^divide-x(?:-.+)?$/, "divide"],
  [/^(?:float|clear)-(?:left|right)$/, "float"],
];

/** A class's variants and its utility: `sm:rtl:-ml-2` → [["sm", "rtl"], "ml-2"]. Brackets may hold colons. */
function splitClass(token: string): { variants: string[]; utility: string } {
  const parts: string[] = [];
  let depth = 0;
  let current = "";
  for (const ch of token) {
    if (ch === "[" || ch === "(") depth++;
    else if (ch === "]" || ch === ")") depth--;
    if (ch === ":" && depth === 0) {
      parts.push(current);
      current = "";
    } else current += ch;
  }
  return { variants: parts, utility: current.replace(/^!|!$/g, "").replace(/^-/, "") };
}

const groupOf = (utility: string) => PHYSICAL_UTILITIES.find(([pattern]) => pattern.test(utility))?.[1] ?? null;
const directional = (variants: readonly string[]) => variants.some((v) => v === "rtl" || v === "ltr");

/** The physical classes of one string of classes that nothing beside them turns round. */
function physicalClasses(text: string): string[] {
  const classes = text.split(/\s+/).filter(Boolean).map(splitClass);
  const handled = new Set(classes.filter((c) => directional(c.variants)).flatMap((c) => groupOf(c.utility) ?? []));
  return classes.flatMap(({ variants, utility }) => {
    const group = groupOf(utility);
    if (group === null || directional(variants) || handled.has(group)) return [];
    return [[...variants, utility].join(":")];
  });
}

const PHYSICAL_DECLARATION = new RegExp(
  [
    String.raw`(?<![-\w])(?:margin|padding|scroll-margin|scroll-padding)-(?:left|right)\s*:`,
    String.raw`(?<![-\w])border-(?:left|right)(?:-[a-z]+)?\s*:`,
    String.raw`(?<![-\w])border-(?:top|bottom)-(?:left|right)-radius\s*:`,
    String.raw`(?<![-\w$.])(?:left|right)\s*:\s*[-+\d.a-z(]`,
    String.raw`(?<![-\w])(?:text-align|float|clear)\s*:\s*(?:left|right)\b`,
  ].join("|"),
  "g",
);
const DIRECTION_SELECTOR = /\[dir(?:=["']?(?:rtl|ltr)["']?)?\]|:dir\(/;

/** The physical declarations of a style sheet (or a string holding CSS), with the line each starts on. */
function physicalDeclarations(css: string): { offset: number; text: string }[] {
  const found: { offset: number; text: string }[] = [];
  const source = css.replace(/\/\*[\s\S]*?\*\//g, (c) => c.replace(/[^\n]/g, " "));
  const selectors: string[] = [];
  let start = 0;
  for (let i = 0; i <= source.length; i++) {
    const ch = source[i];
    if (ch !== "{" && ch !== "}" && ch !== ";" && i < source.length) continue;
    const piece = source.slice(start, i);
    if (ch === "{") selectors.push(piece.trim());
    else {
      const underDirection = selectors.some((s) => DIRECTION_SELECTOR.test(s));
      for (const match of piece.matchAll(PHYSICAL_DECLARATION))
        if (!underDirection) found.push({ offset: start + match.index, text: match[0].trim() });
      if (ch === "}") selectors.pop();
    }
    start = i + 1;
  }
  return found;
}

const PHYSICAL_STYLE_KEYS =
  /^(?:(?:margin|padding|scrollMargin|scrollPadding)(?:Left|Right)|border(?:Left|Right)\w*|border(?:Top|Bottom)(?:Left|Right)Radius)$/;
const PHYSICAL_PROPERTY_NAME = /^(?:margin|padding|scroll-margin|scroll-padding|border)-(?:left|right)(?:-[a-z]+)?$/;

function isStyleObject(node: ts.ObjectLiteralExpression): boolean {
  const parent = node.parent;
  if (ts.isJsxExpression(parent) && ts.isJsxAttribute(parent.parent)) return parent.parent.name.getText() === "style";
  if (ts.isPropertyAssignment(parent)) return parent.name.getText() === "style";
  return false;
}

/** The physical sides in a TypeScript source: classes, CSS in strings, style objects and DOM styles. */
function physicalInSource(file: string, source: string): { offset: number; text: string }[] {
  const kind = file.endsWith("x") ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true, kind);
  const found: { offset: number; text: string }[] = [];
  const visit = (node: ts.Node) => {
    const text =
      ts.isStringLiteralLike(node) || ts.isTemplateHead(node) || ts.isTemplateMiddle(node) || ts.isTemplateTail(node)
        ? node.text
        : null;
    if (text !== null) {
      for (const cls of physicalClasses(text)) found.push({ offset: node.getStart(), text: cls });
      for (const decl of physicalDeclarations(text)) found.push({ offset: node.getStart(), text: decl.text });
      if (PHYSICAL_PROPERTY_NAME.test(text)) found.push({ offset: node.getStart(), text });
    }
    if (ts.isPropertyAssignment(node) || ts.isShorthandPropertyAssignment(node)) {
      const key = node.name.getText().replace(/^["']|["']$/g, "");
      const value = ts.isPropertyAssignment(node) ? node.initializer : null;
      const sideValue = value !== null && ts.isStringLiteralLike(value) && /^(?:left|right)$/.test(value.text);
      const inStyle = ts.isObjectLiteralExpression(node.parent) && isStyleObject(node.parent);
      if (
        PHYSICAL_STYLE_KEYS.test(key) ||
        (/^(?:textAlign|float|clear|cssFloat)$/.test(key) && sideValue) ||
        (inStyle && /^(?:left|right)$/.test(key))
      )
        found.push({ offset: node.getStart(), text: key });
    }
    if (
      ts.isBinaryExpression(node) &&
      node.operatorToken.kind === ts.SyntaxKind.EqualsToken &&
      ts.isPropertyAccessExpression(node.left) &&
      /(?:^|\.)style$/.test(node.left.expression.getText())
    ) {
      const key = node.left.name.text;
      const sideValue = ts.isStringLiteralLike(node.right) && /^(?:left|right)$/.test(node.right.text);
      if (
        /^(?:left|right)$/.test(key) ||
        PHYSICAL_STYLE_KEYS.test(key) ||
        (/^(?:textAlign|cssFloat|clear)$/.test(key) && sideValue)
      )
        found.push({ offset: node.getStart(), text: `style.${key}` });
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}

/** "file:line: what" for each physical side in a file, less the exempted lines. */
function physicalSides(file: string, source: string): string[] {
  const found = file.endsWith(".css") ? physicalDeclarations(source) : physicalInSource(file, source);
  const lines = source.split("\n");
  const lineOf = (offset: number) => source.slice(0, offset).split("\n").length - 1;
  return found
    .map((f) => ({ ...f, line: lineOf(f.offset) }))
    .filter(({ line }) => !/logical-css-exempt:/.test(`${lines[line - 1] ?? ""}\n${lines[line] ?? ""}`))
    .map(({ line, text }) => `${file}:${line + 1}: ${text}`);
}

describe.each(SURFACES)("the %s surface", (surface) => {
  it("styles its sides as start and end, never left and right", () => {
    const files = (READER_SURFACES.get(surface) ?? []).flatMap(filesOf).filter(isScanned);
    expect(files.length).toBeGreaterThan(0);
    const found = files.flatMap((file) => physicalSides(file, fs.readFileSync(path.join(root, file), "utf8")));
    expect(found).toEqual([]);
  });
});

describe("the physical-side finder", () => {
  it("finds physical classes, CSS and styles, and leaves logical ones and handled ones alone", () => {
    const source = [
      `const a = <p className="ml-2 pe-3 text-left sm:-mr-1">x</p>;`,
      `const b = <p className="ms-2 ps-3 text-start start-0 end-1 border-s rounded-e-md gap-2">x</p>;`,
      `const c = <span className="left-2 rtl:left-auto rtl:right-2 border-l-2 rounded-tl-lg space-x-2" />;`,
      `const d = <i style={{ marginLeft: 4, insetInlineStart: 0, left: 0 }} />;`,
      `node.style.right = "0";`,
      "const css = `.x{padding-left:4px;margin-inline-start:2px}`;",
      `node.style.setProperty("margin-right", "1px");`,
      `// logical-css-exempt: a slider's fill grows from the left in either direction`,
      `const e = <span className="left-0" />;`,
      `const f = { float: "left", textAlign: "start", label: "on the right", id: "right-panel" };`,
    ].join("\n");
    expect(physicalSides("x.tsx", source)).toEqual([
      "x.tsx:1: ml-2",
      "x.tsx:1: text-left",
      "x.tsx:1: sm:mr-1",
      "x.tsx:3: border-l-2",
      "x.tsx:3: rounded-tl-lg",
      "x.tsx:3: space-x-2",
      "x.tsx:4: marginLeft",
      "x.tsx:4: left",
      "x.tsx:5: style.right",
      "x.tsx:6: padding-left:",
      "x.tsx:7: margin-right",
      "x.tsx:10: float",
    ]);
  });

  it("reads style sheets, with rules for one direction left alone", () => {
    const css = [
      `.a { margin-left: 4px; padding-inline-end: 2px; }`,
      `/* right: 0 in a comment */`,
      `.b { text-align: right; border-right-width: 1px; }`,
      `[dir="rtl"] .c { right: 0; left: auto; }`,
      `@media (min-width: 40rem) { .d { left: 0 } }`,
      `.e { border-top-left-radius: 4px; inset-inline-start: 0; text-align: start; }`,
    ].join("\n");
    expect(physicalSides("x.css", css)).toEqual([
      "x.css:1: margin-left:",
      "x.css:3: text-align: right",
      "x.css:3: border-right-width:",
      "x.css:5: left: 0",
      "x.css:6: border-top-left-radius:",
    ]);
  });
});
