/**
 * Every path of the project named in the docs (README.md, docs/, CONTEXT.md files) or in a source
 * file's comments exists: a renamed or removed file leaves no pointer to nowhere. A path counts when
 * it starts at one of the project's top folders and ends in a file's extension
 * (`server/members/members.ts`, `docs/i18n.md`, `prisma/schema/base.prisma`); a `#anchor` or `:line`
 * after it is not part of it. Module specifiers in code (`inngest/next`) are not comments, so not read.
 */
import fs from "node:fs";
import path from "node:path";

import { describe, expect, it } from "vitest";

import { PROJECT_ROOT, projectSourceFiles } from "./lib/source-files";

const TOP = ["server", "app", "components", "inngest", "scripts", "widgets", "sdk", "docs", "e2e", "prisma", "i18n"];
const NAMED = new RegExp(
  String.raw`(?<![\w./@-])((?:${TOP.join("|")})/[\w./\[\]()@+-]*?\.(?:tsx?|m?js|md|json|sql|prisma|css|ya?ml|txt|csv|xml|html))(?![\w/-])`,
  "g",
);
/** Made-up paths that show a pattern (a route file and the API path it serves), not a file. */
const EXAMPLES = new Set(["app/api/v1/things/route.ts", "app/api/v1/stories/[story-id]/route.ts"]);
/** Comments of a JavaScript or TypeScript source: `// …` to the line's end and `/* … *\/` blocks. */
const COMMENTS = /\/\*[\s\S]*?\*\/|(?<![:"'`\w])\/\/[^\n]*/g;

function docFiles(): string[] {
  const docs = path.join(PROJECT_ROOT, "docs");
  const files = [path.join(PROJECT_ROOT, "README.md")];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else if (entry.name.endsWith(".md") && entry.name !== "api-reference.md") files.push(file);
    }
  };
  walk(docs);
  for (const file of projectSourceFiles(["server", "app", "components", "widgets", "sdk", "inngest", "i18n"]))
    if (file.endsWith("/CONTEXT.md")) files.push(file);
  return files;
}

/** Where each missing path is named: "path ← file". */
function missingPaths(): string[] {
  const missing: string[] = [];
  const check = (file: string, text: string) => {
    for (const match of text.matchAll(NAMED)) {
      const named = match[1]!.split("](").pop()!;
      if (!EXAMPLES.has(named) && !fs.existsSync(path.join(PROJECT_ROOT, named)))
        missing.push(`${named} ← ${path.relative(PROJECT_ROOT, file)}`);
    }
  };
  for (const file of docFiles()) check(file, fs.readFileSync(file, "utf8"));
  for (const file of [...projectSourceFiles(), ...projectSourceFiles(["e2e", "i18n"])])
    check(file, (fs.readFileSync(file, "utf8").match(COMMENTS) ?? []).join("\n"));
  return [...new Set(missing)].sort();
}

describe("paths named in docs and comments", () => {
  it("each exist", () => {
    expect(missingPaths()).toEqual([]);
  });
});
