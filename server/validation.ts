/**
 * The input guard: what no input may carry, whatever its schema, checked once at each edge
 * (apiRoute for REST, a middleware for tRPC, `parseInput` for domain functions called directly):
 *
 * - the NUL character (U+0000), which PostgreSQL's text and jsonb cannot store;
 * - an unpaired UTF-16 surrogate ("\ud800" in JSON): not a character at all; jsonb refuses it and
 *   text columns silently turn it into U+FFFD;
 * - arrays and objects nested deeper than INPUT_MAX_DEPTH, which recursive walkers (JSON.stringify,
 *   key canonicalisation, the drivers) overflow the stack on a few thousand levels down.
 *
 * Each is a 400 naming the field, never a 500. The walk is iterative, so any input is safe to
 * check, and it stops after a few findings (enough to show the client its mistake).
 */
import type { z } from "zod";

import { AppError, zodIssuesToDetails, type ErrorDetail } from "./errors";

/** Deeper than any legitimate input (story cards nest about 6 levels). */
const INPUT_MAX_DEPTH = 64;

const UNPAIRED_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const MAX_FINDINGS = 10;

const UNSTORABLE_TEXT_ISSUE = "must not contain the NUL character (U+0000) or an unpaired surrogate";

function isUnstorableText(text: string): boolean {
  return text.includes("\u0000") || UNPAIRED_SURROGATE.test(text);
}

type Node = { value: unknown; key: PropertyKey | null; parent: Node | null; depth: number };

/** A node keeps its parent, not its whole path: a path is built only for a value refused. */
function pathOf(node: Node, key?: PropertyKey): PropertyKey[] {
  const path = key === undefined ? [] : [key];
  for (let at: Node | null = node; at && at.key !== null; at = at.parent) path.unshift(at.key);
  return path;
}

/** What is wrong with `value` under the guard's rules, as paths and issues (empty: nothing). */
export function unsafeInputFindings(
  value: unknown,
  options: { maxDepth?: number } = {},
): { path: PropertyKey[]; issue: string }[] {
  const maxDepth = options.maxDepth ?? INPUT_MAX_DEPTH;
  const findings: { path: PropertyKey[]; issue: string }[] = [];
  const stack: Node[] = [{ value, key: null, parent: null, depth: 0 }];
  while (stack.length > 0 && findings.length < MAX_FINDINGS) {
    const node = stack.pop()!;
    const current = node.value;
    if (typeof current === "string") {
      if (isUnstorableText(current)) findings.push({ path: pathOf(node), issue: UNSTORABLE_TEXT_ISSUE });
      continue;
    }
    if (current === null || typeof current !== "object" || current instanceof Date) continue;
    if (node.depth >= maxDepth) {
      // The path down to the limit, shortened: enough to find the value, not 64 segments of it.
      const path = pathOf(node);
      findings.push({
        path: path.length > 8 ? [...path.slice(0, 8), "…"] : path,
        issue: `nests deeper than ${maxDepth} levels`,
      });
      continue;
    }
    const depth = node.depth + 1;
    if (Array.isArray(current)) {
      current.forEach((item, index) => stack.push({ value: item, key: index, parent: node, depth }));
    } else {
      for (const [key, item] of Object.entries(current)) {
        if (isUnstorableText(key)) findings.push({ path: pathOf(node, key), issue: UNSTORABLE_TEXT_ISSUE });
        stack.push({ value: item, key, parent: node, depth });
      }
    }
  }
  return findings;
}

/** 400 with every finding, fields prefixed with `where` ("body", "query"…). */
export function assertSafeInput(value: unknown, where?: string): void {
  const findings = unsafeInputFindings(value);
  if (findings.length === 0) return;
  const details: ErrorDetail[] = findings.map((f) => {
    const field = [where, f.path.map(String).join(".")].filter(Boolean).join(".") || "(root)";
    return { field, issue: f.issue };
  });
  throw new AppError("BAD_REQUEST", "The input is not valid.", { details });
}

/**
 * Validate a domain function's input, as the transports would: the guard, then the schema; a
 * 400 listing every bad field.
 */
export function parseInput<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  assertSafeInput(value);
  const result = schema.safeParse(value);
  if (!result.success)
    throw new AppError("BAD_REQUEST", "The input is not valid.", { details: zodIssuesToDetails(result.error) });
  return result.data;
}
