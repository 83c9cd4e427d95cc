/**
 * The one rule for whole numbers that arrive as text: every query and path parameter of the REST
 * API, the feeds and the dashboard's pages, and the same parameters when a bulk body gives them
 * (as text or as JSON numbers).
 *
 * Text must be canonical decimal digits: "0", or a non-zero digit followed by digits, with a
 * leading "-" only where negatives make sense (a time before 1970). Everything else is refused,
 * though `Number()` and `z.coerce.number()` would take much of it: "+5", " 5", "0x10", "0o17",
 * "1e1", "5.0", "010", "", non-ASCII digits. A number is a safe integer, so text too long to be
 * exact ("9007199254740993") is refused rather than rounded; callers bound it further (database
 * ids fit PostgreSQL's integer: PG_INT_MAX).
 *
 * Imports only zod: schema files import it.
 */
import { z } from "zod";

/** PostgreSQL's `integer`: the largest id any of our tables can hold. */
export const PG_INT_MAX = 2_147_483_647;

const CANONICAL = /^(?:0|[1-9][0-9]{0,15})$/;
const CANONICAL_SIGNED = /^(?:0|-?[1-9][0-9]{0,15})$/;

type WholeNumberOptions = { negative?: boolean };

/** The number `value` spells under the rule above, or null. */
export function parseWholeNumber(value: unknown, options: WholeNumberOptions = {}): number | null {
  let n: number;
  if (typeof value === "number") n = value;
  else if (typeof value === "string" && (options.negative ? CANONICAL_SIGNED : CANONICAL).test(value))
    n = Number(value);
  else return null;
  if (!Number.isSafeInteger(n)) return null;
  if (n < 0 && !options.negative) return null;
  return Object.is(n, -0) ? 0 : n;
}

/**
 * A zod field for a whole-number parameter (text or JSON number) under parseWholeNumber, within
 * `min`..`max` (by default 0, or -MAX_SAFE_INTEGER with `negative`, to MAX_SAFE_INTEGER).
 */
export function zWholeNumber(options: WholeNumberOptions & { min?: number; max?: number } = {}) {
  const min = options.min ?? (options.negative ? -Number.MAX_SAFE_INTEGER : 0);
  const max = options.max ?? Number.MAX_SAFE_INTEGER;
  return z.union([z.string(), z.number()]).transform((value, ctx) => {
    const n = parseWholeNumber(value, options);
    if (n === null) {
      ctx.addIssue({
        code: "custom",
        message: `Expected a whole number in decimal digits (no sign${options.negative ? " but -" : ""}, spaces, leading zeros, exponent or hex).`,
      });
      return z.NEVER;
    }
    if (n < min) {
      ctx.addIssue({ code: "custom", message: `Must be at least ${min}.` });
      return z.NEVER;
    }
    if (n > max) {
      ctx.addIssue({ code: "custom", message: `Must be at most ${max}.` });
      return z.NEVER;
    }
    return n;
  });
}
