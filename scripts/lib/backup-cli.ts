/** Arguments of `npm run db:backup` and `npm run db:restore`, validated with zod. */
import path from "node:path";
import { parseArgs } from "node:util";

import { z } from "zod";

const zFile = z.string({ error: "is required" }).trim().min(1, "needs a file name");

export const backupArgsSchema = z.object({ out: zFile }).strict();
export const restoreArgsSchema = z.object({ from: zFile, force: z.boolean().default(false) }).strict();

/**
 * Parse `argv` with the options `schema` knows; on a bad or missing argument print `usage` and the
 * problem, and exit 2. Relative paths are relative to where the command was typed (npm runs scripts
 * from the project's root and keeps the original directory in INIT_CWD).
 */
export function parseCliArgs<T extends z.ZodType>(
  schema: T,
  options: Record<string, { type: "string" | "boolean" }>,
  usage: string,
  argv = process.argv.slice(2),
): z.infer<T> {
  let values: unknown;
  try {
    values = parseArgs({ args: argv, options, strict: true, allowPositionals: false }).values;
  } catch (error) {
    return usageError(usage, (error as Error).message);
  }
  const parsed = schema.safeParse(values);
  if (!parsed.success)
    return usageError(usage, parsed.error.issues.map((i) => `--${i.path.join(".")}: ${i.message}`).join("\n"));
  return parsed.data;
}

/** A path typed by the user, made absolute from the directory they typed it in. */
export function userPath(file: string): string {
  return path.resolve(process.env.INIT_CWD ?? process.cwd(), file);
}

function usageError(usage: string, problem: string): never {
  console.error(`${problem}\nUsage: ${usage}`);
  process.exit(2);
}
