/**
 * Every link to a heading of a hand-written doc (`docs/webhooks.md#events`, `#dunning` within a page)
 * finds that heading: a renamed or removed section leaves no link to nowhere. The docs (README.md,
 * docs/, CONTEXT.md files) and source comments are read; headings get GitHub's anchors (lower case,
 * punctuation dropped, spaces to hyphens, `-1`, `-2`… for a repeat).
 */
import fs from "node:fs";
import path from "node:path";

import { describe, expect, it } from "vitest";

import { handWrittenDocs } from "./lib/docs";
import { PROJECT_ROOT, projectSourceFiles } from "./lib/source-files";

/** GitHub's anchors of a markdown file's headings (fenced code left out). */
function anchors(text: string): Set<string> {
  const seen = new Map<string, number>();
  const found = new Set<string>();
  for (const line of text.replace(/^```[\s\S]*?^```/gm, "").split("\n")) {
    const heading = /^#{1,6} (.+?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const slug = heading[1]!
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, "")
      .replace(/\s/g, "-");
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    found.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return found;
}

/** Links to a doc's heading: `(target.md#anchor)`, `(#anchor)` and `docs/<page>.md#<anchor>`. */
const LINK = /\]\(([\w./-]*?)#([\w-]+)\)|(?<![\w./-])((?:docs\/[\w./-]*|README)\.md)#([\w-]+)/g;

function brokenLinks(): string[] {
  const cache = new Map<string, Set<string> | null>();
  const headingsOf = (file: string) => {
    if (!cache.has(file)) cache.set(file, fs.existsSync(file) ? anchors(fs.readFileSync(file, "utf8")) : null);
    return cache.get(file)!;
  };
  const broken: string[] = [];
  const check = (file: string, text: string) => {
    for (const match of text.matchAll(LINK)) {
      const target = match[1] ?? match[3]!;
      const anchor = match[2] ?? match[4]!;
      if (target !== "" && !target.endsWith(".md")) continue;
      // A link resolves from its page; a path named in prose or a comment from the project's root.
      const targetFile = target === "" ? file : path.resolve(match[3] ? PROJECT_ROOT : path.dirname(file), target);
      const headings = headingsOf(targetFile);
      if (headings && !headings.has(anchor))
        broken.push(`${path.relative(PROJECT_ROOT, targetFile)}#${anchor} ← ${path.relative(PROJECT_ROOT, file)}`);
    }
  };
  for (const file of handWrittenDocs({ contextFiles: true })) check(file, fs.readFileSync(file, "utf8"));
  for (const file of projectSourceFiles()) check(file, fs.readFileSync(file, "utf8"));
  return [...new Set(broken)].sort();
}

describe("links to a doc's heading", () => {
  it("each find the heading", () => {
    expect(brokenLinks()).toEqual([]);
  });
});
