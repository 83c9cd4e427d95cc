/**
 * README.md's "Configuration" table, written from env.js: a row per variable of ENV_DOCS, in its
 * order, the default as ENV_DOCS shows it or else the schema's own (`unset` when it has none). Laid
 * out as Prettier lays out a Markdown table, so that the README stays formatted.
 */
import { z } from "zod";

import { ENV_DOCS, envSchema } from "../../env.js";

const TABLE_START = "<!-- env-table:start (written by npm run docs:env from env.js) -->";
const TABLE_END = "<!-- env-table:end -->";

/** The schema's default for `name`, as the table shows it. */
function schemaDefault(name: string): string {
  const shape: Record<string, z.ZodType> = (envSchema.in as z.ZodObject).shape;
  const field = shape[name];
  if (field instanceof z.ZodDefault) {
    const value: unknown = field.def.defaultValue;
    return `\`${String(value)}\``;
  }
  return "unset";
}

/** The table's Markdown, header and delimiter row included. */
export function envTable(): string {
  const rows = Object.entries(ENV_DOCS).map(([name, { doc, shown }]) => [
    `\`${name}\``,
    shown ?? schemaDefault(name),
    doc.replaceAll("|", "\\|"),
  ]);
  const header = ["Variable", "Default", "Meaning"];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(" | ")} |`;
  return [line(header), `| ${widths.map((w) => "-".repeat(w)).join(" | ")} |`, ...rows.map(line)].join("\n");
}

/** `readme` with the text between the table's markers replaced by the table of today's env.js. */
export function withEnvTable(readme: string): string {
  const start = readme.indexOf(TABLE_START);
  const end = readme.indexOf(TABLE_END);
  if (start < 0 || end < start) throw new Error(`README.md has no ${TABLE_START} … ${TABLE_END} markers`);
  return `${readme.slice(0, start + TABLE_START.length)}\n\n${envTable()}\n\n${readme.slice(end)}`;
}
