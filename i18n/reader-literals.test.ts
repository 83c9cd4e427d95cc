/**
 * No reader-facing words outside the catalogue (docs/i18n.md): the reader surfaces (./reader-surfaces.ts) are read
 * with the TypeScript parser, and words written in them where a reader would see them fail here:
 * JSX text, the visible or spoken attributes (aria-label, title, placeholder, alt, label…), text
 * given to the DOM (textContent, innerText, setAttribute, the frames' h() children), and the text
 * between tags of an HTML template (mail). A line may be exempted with a comment holding
 * `i18n-exempt: <why>` (a brand name, a symbol), on that line or the one before.
 */
import fs from "node:fs";
import path from "node:path";

import ts from "typescript";
import { describe, expect, it } from "vitest";

import { READER_SURFACES } from "./reader-surfaces";

const root = path.resolve(import.meta.dirname, "..");

const VISIBLE_ATTRIBUTES = new Set([
  "aria-label",
  "aria-description",
  "aria-roledescription",
  "title",
  "placeholder",
  "alt",
  "label",
]);
const VISIBLE_PROPERTIES = new Set(["textContent", "innerText", "title", "placeholder", "ariaLabel", "alt"]);
const WORDS = /\p{L}{2,}/u;

function filesOf(entry: string): string[] {
  const full = path.join(root, entry);
  if (!fs.existsSync(full)) return [];
  if (fs.statSync(full).isFile()) return [entry];
  return fs.readdirSync(full).flatMap((name) => filesOf(path.join(entry, name)));
}

/** Folders are walked; tests, generated modules and *.schema.ts are skipped. */
const isSource = (file: string) =>
  /\.tsx?$/.test(file) && !/\.(test|int\.test|generated|schema)\.tsx?$/.test(file) && !file.endsWith(".d.ts");

/** Text of a literal a reader would read: markup and placeholders taken out. */
function readable(text: string): string {
  return text
    .replace(/<[^>]*>/g, " ")
    .replace(/&[a-z]+;|&#\d+;/gi, " ")
    .replace(/\{[^}]*\}/g, " ");
}

function literalText(node: ts.Node): string | null {
  if (ts.isStringLiteralLike(node)) return node.text;
  if (ts.isTemplateExpression(node))
    return [node.head.text, ...node.templateSpans.map((s) => s.literal.text)].join(" ");
  return null;
}

function readerLiterals(file: string, source: string): string[] {
  const sf = ts.createSourceFile(
    file,
    source,
    ts.ScriptTarget.Latest,
    true,
    file.endsWith("x") ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );
  const lines = source.split("\n");
  const found: string[] = [];
  const report = (node: ts.Node, text: string) => {
    if (!WORDS.test(readable(text))) return;
    const line = sf.getLineAndCharacterOfPosition(node.getStart()).line;
    if (/i18n-exempt:/.test(lines[line] ?? "") || /i18n-exempt:/.test(lines[line - 1] ?? "")) return;
    found.push(`${file}:${line + 1}: ${JSON.stringify(text.trim().slice(0, 60))}`);
  };
  const visit = (node: ts.Node) => {
    if (ts.isJsxText(node) && node.text.trim()) report(node, node.text);
    else if (ts.isJsxAttribute(node) && VISIBLE_ATTRIBUTES.has(node.name.getText()) && node.initializer) {
      const init = ts.isJsxExpression(node.initializer) ? node.initializer.expression : node.initializer;
      const text = init && literalText(init);
      if (text !== null && text !== undefined) report(node, text);
    } else if (
      ts.isBinaryExpression(node) &&
      node.operatorToken.kind === ts.SyntaxKind.EqualsToken &&
      ts.isPropertyAccessExpression(node.left) &&
      VISIBLE_PROPERTIES.has(node.left.name.text)
    ) {
      const text = literalText(node.right);
      if (text !== null) report(node, text);
    } else if (ts.isCallExpression(node)) {
      const callee = node.expression.getText();
      const [first, second] = node.arguments;
      if (
        /setAttribute$/.test(callee) &&
        first &&
        second &&
        ts.isStringLiteral(first) &&
        VISIBLE_ATTRIBUTES.has(first.text)
      ) {
        const text = literalText(second);
        if (text !== null) report(node, text);
      }
      if (/^(h|el)$/.test(callee)) {
        for (const child of node.arguments.slice(2)) {
          const text = literalText(child);
          if (text !== null) report(child, text);
        }
      }
    } else if (ts.isTemplateExpression(node) || ts.isNoSubstitutionTemplateLiteral(node)) {
      const text = literalText(node) ?? "";
      // An HTML template: the text between its tags.
      if (/<[a-z][^>]*>/i.test(text)) {
        for (const between of text.match(/>[^<]+</g) ?? []) report(node, between.slice(1, -1));
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}

describe.each([...READER_SURFACES.keys()])("the %s surface", (surface) => {
  it("shows readers no words outside the catalogue", () => {
    const files = (READER_SURFACES.get(surface) ?? []).flatMap(filesOf).filter(isSource);
    expect(files.length).toBeGreaterThan(0);
    const found = files.flatMap((file) => readerLiterals(file, fs.readFileSync(path.join(root, file), "utf8")));
    expect(found).toEqual([]);
  });
});

describe("the literal finder", () => {
  it("finds words in JSX, visible attributes, the DOM and HTML templates, and leaves code alone", () => {
    const source = [
      `const a = <p className="mt-1 text-sm">Sign in</p>;`,
      `const b = <input placeholder="Your e-mail" data-testid="email-field" />;`,
      `node.textContent = "Paying…";`,
      `node.setAttribute("aria-label", "Card payment");`,
      `node.setAttribute("data-kind", "card payment");`,
      "const html = `<p>Hello ${name},</p><p>${t('x')}</p>`;",
      `const c = <p>{t("signIn")}</p>;`,
      `throw new Error("Not for readers");`,
      `// i18n-exempt: the brand`,
      `const d = <span>Masthead</span>;`,
    ].join("\n");
    expect(readerLiterals("x.tsx", source).map((f) => f.split(": ")[0])).toEqual([
      "x.tsx:1",
      "x.tsx:2",
      "x.tsx:3",
      "x.tsx:4",
      "x.tsx:6",
    ]);
  });
});
