/**
 * README.md's "Configuration" list of variables, written from env.js: an item per variable of
 * ENV_DOCS, in its order, `- \`NAME\` (default: …): meaning`, the default as ENV_DOCS shows it or
 * else the schema's own (`unset` when it has none). A list rather than a table: Prettier pads every
 * cell of a table to its column's widest, which tripled the bytes of this one.
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

/** The list's Markdown, one line per variable. */
export function envTable(): string {
  return Object.entries(ENV_DOCS)
    .map(([name, { doc, shown }]) => `- \`${name}\` (default: ${shown ?? schemaDefault(name)}): ${doc}`)
    .join("\n");
}

/** `readme` with the text between the table's markers replaced by the table of today's env.js. */
export function withEnvTable(readme: string): string {
  const start = readme.indexOf(TABLE_START);
  const end = readme.indexOf(TABLE_END);
  if (start < 0 || end < start) throw new Error(`README.md has no ${TABLE_START} … ${TABLE_END} markers`);
  return `${readme.slice(0, start + TABLE_START.length)}\n\n${envTable()}\n\n${readme.slice(end)}`;
}
