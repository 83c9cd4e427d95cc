import fs from "node:fs";
import path from "node:path";

import { describe, expect, it } from "vitest";

import { EXPORT_SECTIONS, MEMBER_RELATION_SECTIONS } from "./format";

const ROOT = path.resolve(import.meta.dirname, "../../..");
/** The schema's files (prisma/schema/*.prisma), read as one text. */
const SCHEMA_DIR = path.join(ROOT, "prisma/schema");
const schema = fs
  .readdirSync(SCHEMA_DIR)
  .filter((name) => name.endsWith(".prisma"))
  .map((name) => fs.readFileSync(path.join(SCHEMA_DIR, name), "utf8"))
  .join("\n");

/** The models the schema declares, and one model's fields as [name, type without ? or []]. */
const models = new Set([...schema.matchAll(/^model (\w+) \{/gm)].map((m) => m[1]!));
function fieldsOf(model: string): [string, string][] {
  const block = new RegExp(`^model ${model} \\{\\n([\\s\\S]*?)^\\}`, "m").exec(schema);
  if (!block) throw new Error(`no model ${model}`);
  return block[1]!
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => /^\w+\s+\w/.test(line) && !line.startsWith("//"))
    .map((line) => {
      const [name, type] = line.split(/\s+/);
      return [name!, type!.replace(/[?[\]]/g, "")];
    });
}

describe("the data export's coverage of Member", () => {
  const relations = fieldsOf("Member")
    .filter(([, type]) => models.has(type))
    .map(([name]) => name);

  it("reads Member's relations from the schema", () => {
    expect(relations).toContain("comments");
    expect(relations).toContain("subscriptions");
    expect(relations.length).toBeGreaterThan(20);
  });

  it("names an export section for every relation of Member, and no relation Member lacks", () => {
    const uncovered = relations.filter((name) => !MEMBER_RELATION_SECTIONS.has(name));
    const stale = [...MEMBER_RELATION_SECTIONS.keys()].filter((name) => !relations.includes(name));
    expect({ uncovered, stale }).toEqual({ uncovered: [], stale: [] });
  });

  it("maps every relation to a section data.json has", () => {
    for (const section of MEMBER_RELATION_SECTIONS.values()) expect(EXPORT_SECTIONS).toContain(section);
  });

  it("documents every section in docs/privacy.md", () => {
    const docs = fs.readFileSync(path.join(ROOT, "docs/privacy.md"), "utf8");
    const missing = EXPORT_SECTIONS.filter((section) => !docs.includes(`\`${section}\``));
    expect(missing).toEqual([]);
  });
});
