/**
 * No dead exports: every name a source file of server/, app/, components/, inngest/, scripts/,
 * widgets/ or sdk/ exports (`export const|let|function|class|type|interface|enum Name`) is named
 * in another of the project's files (sources, tests, e2e specs, configs). A name only its own file
 * uses is declared without `export`; one nothing uses is deleted.
 *
 * The check reads names as words, not TypeScript's symbols: a word that happens to be spelled the
 * same elsewhere keeps an export alive, so it can miss a dead export, never flag a live one. Left
 * out: what Next.js reads by convention (route, page and layout files and their kind), the
 * generated bundles, and the SDK's published types (sdk/accesstype/types.ts is its .d.ts). A value
 * whose file derives a type from it (`typeof Name`) is kept exported with it: TypeScript's lint
 * refuses a value used only as a type unless it is exported.
 */
import fs from "node:fs";
import path from "node:path";

import { describe, expect, it } from "vitest";

import { PROJECT_ROOT, projectSourceFiles, SOURCE_FOLDERS } from "./lib/source-files";

const USERS = [...SOURCE_FOLDERS, "e2e"];
const TEST = /\.(?:test|spec)\.tsx?$/;
/** Files whose exports Next.js reads by their names (docs: "File conventions"). */
const NEXT_CONVENTION =
  /(?:^|\/)(?:route|page|layout|template|loading|error|global-error|not-found|default|opengraph-image|twitter-image|icon|sitemap|robots|manifest|instrumentation|middleware|proxy)\.(?:ts|tsx|js)$/;
/** The SDK's public types: shipped to its users as accesstype.d.ts (scripts/build-bundles.mjs). */
const PUBLISHED = new Set(["sdk/accesstype/types.ts"]);
const EXPORTED =
  /^export (?:declare )?(?:async )?(?:const|let|function\*?|class|type|interface|enum) ([A-Za-z_$][\w$]*)/gm;

/** The files below `folders` and at the root (package.json too), relative to the project's root. */
const files = (folders: readonly string[]) =>
  [...projectSourceFiles(folders), path.join(PROJECT_ROOT, "package.json")].map((file) =>
    path.relative(PROJECT_ROOT, file),
  );

/** The exported names no other file names, as "file: name". */
function deadExports(): string[] {
  const users = files(USERS);
  const text = new Map(users.map((file) => [file, fs.readFileSync(path.join(PROJECT_ROOT, file), "utf8")]));
  // Which files name each word.
  const namedIn = new Map<string, Set<string>>();
  for (const [file, source] of text) {
    for (const word of new Set(source.match(/[A-Za-z_$][\w$]*/g))) {
      let where = namedIn.get(word);
      if (!where) namedIn.set(word, (where = new Set()));
      where.add(file);
    }
  }
  const dead: string[] = [];
  for (const file of files(SOURCE_FOLDERS)) {
    if (TEST.test(file) || NEXT_CONVENTION.test(file) || PUBLISHED.has(file) || !text.has(file)) continue;
    const source = text.get(file)!;
    for (const [, name] of source.matchAll(EXPORTED)) {
      const where = namedIn.get(name!);
      if (where && [...where].some((other) => other !== file)) continue;
      // A value its own file derives a type from (`typeof Name`) lives as long as that type.
      if (source.includes(`typeof ${name}`)) continue;
      dead.push(`${file}: ${name}`);
    }
  }
  return dead;
}

describe("exports", () => {
  it("are each named by another file of the project", () => {
    expect(deadExports()).toEqual([]);
  });
});
