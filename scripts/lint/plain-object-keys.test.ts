// The rule masthead/no-string-key-on-plain-object (./plain-object-keys.mjs), on small files with
// their own tsconfig: what it flags and what it leaves alone.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

import { ESLint } from "eslint";
import tseslint from "typescript-eslint";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { noStringKeyOnPlainObject } from "./plain-object-keys.mjs";

const HEADER = `declare const word: string;
declare const code: "a" | "b";
declare const n: number;
declare function nullPrototypeRecord<V>(): Record<string, V>;
declare const nullPrototype: unique symbol;
type NullPrototypeRecord<V> = Record<string, V> & { readonly [nullPrototype]?: true };
const TABLE: Record<string, string> = { a: "x", b: "y" };
const LITERAL = { a: 1, b: 2 };
`;

const FLAGGED = {
  "a Record read by a string": "export const v = TABLE[word];",
  "an object literal read through keyof": "export const v = LITERAL[word as keyof typeof LITERAL];",
  "a write": "const out: Record<string, number> = {};\nout[word] = 1;\nexport { out };",
  "an in test": "export const v = word in TABLE;",
  "Object.fromEntries of text": "const m = Object.fromEntries([[word, 1]]);\nexport const v = m[word];",
  "a guard on another key":
    "declare const other: string;\nexport const v = Object.hasOwn(TABLE, other) ? TABLE[word] : undefined;",
  "a template literal key": "export const v = TABLE[`${word}!`];",
};

const ALLOWED = {
  "a literal key": 'export const v = TABLE["a"];',
  "a key of a closed set": "export const v = TABLE[code];",
  "an array index": "declare const list: string[];\nexport const v = list[n];",
  "a Map": "const m = new Map<string, number>();\nexport const v = m.get(word);",
  "Object.create(null)": "const out = Object.create(null) as Record<string, number>;\nout[word] = 1;\nexport { out };",
  "nullPrototypeRecord()": "const out = nullPrototypeRecord<number>();\nout[word] = 1;\nexport { out };",
  "a NullPrototypeRecord passed in": "export const f = (o: NullPrototypeRecord<number>) => o[word];",
  "an Object.hasOwn guard": "export const v = Object.hasOwn(TABLE, word) ? TABLE[word] : undefined;",
  "an Object.hasOwn && guard": "export const v = Object.hasOwn(TABLE, word) && TABLE[word];",
  "an if guard": "export function f() {\n  if (Object.hasOwn(TABLE, word)) return TABLE[word];\n  return undefined;\n}",
  "a string's character": "export const v = word[n];",
};

let dir = "";
let eslint: ESLint;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "plain-object-keys-"));
  fs.writeFileSync(
    path.join(dir, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: { strict: true, target: "ES2022", lib: ["ES2023"], noEmit: true },
      include: ["*.ts"],
    }),
  );
  const cases = { ...FLAGGED, ...ALLOWED };
  Object.values(cases).forEach((body, i) => fs.writeFileSync(path.join(dir, `case${i}.ts`), `${HEADER}${body}\n`));
  eslint = new ESLint({
    cwd: dir,
    overrideConfigFile: true,
    overrideConfig: [
      {
        files: ["**/*.ts"],
        languageOptions: {
          parser: tseslint.parser,
          parserOptions: { project: "./tsconfig.json", tsconfigRootDir: dir },
        },
        plugins: { masthead: { rules: { "no-string-key-on-plain-object": noStringKeyOnPlainObject } } },
        rules: { "masthead/no-string-key-on-plain-object": "error" },
      },
    ],
  });
});

afterAll(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

async function problems(index: number): Promise<string[]> {
  const [result] = await eslint.lintFiles([path.join(dir, `case${index}.ts`)]);
  return result!.messages.map((m) => `${m.ruleId ?? "parse"}: ${m.message}`);
}

describe("masthead/no-string-key-on-plain-object", () => {
  const flagged = Object.keys(FLAGGED);
  it.each(flagged.map((name, i) => [name, i] as const))("flags %s", async (_, i) => {
    const found = await problems(i);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(/^masthead\/no-string-key-on-plain-object: .*Map/);
  });
  it.each(Object.keys(ALLOWED).map((name, i) => [name, flagged.length + i] as const))(
    "leaves alone %s",
    async (_, i) => {
      expect(await problems(i)).toEqual([]);
    },
  );
});
