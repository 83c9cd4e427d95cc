/**
 * Content negotiation for endpoints that answer more than one media type (RFC 9110 §12.5.1):
 * which of the types the endpoint offers the `Accept` header prefers. Pure.
 *
 * Each offered type gets the quality of the most specific range that matches it (`type/subtype`
 * over `type/*` over `*\/*`); the best quality wins, then the more specific match, then the range
 * listed first; a full tie goes to the type offered first (the endpoint's default). `q=0` rules a
 * type out. No `Accept` (or an empty one) means anything: the default.
 */

type Range = { type: string; subtype: string; q: number; index: number };

function parseAccept(accept: string): Range[] {
  return accept.split(",").flatMap((part, index) => {
    const [mediaRange = "", ...params] = part.split(";");
    const [type, subtype] = mediaRange.trim().toLowerCase().split("/");
    if (!type || !subtype) return [];
    const q = qualityOf(params);
    return Number.isNaN(q) ? [] : [{ type, subtype, q, index }];
  });
}

/** The q parameter among a list element's parameters: 1 without one, NaN when malformed. */
function qualityOf(params: readonly string[]): number {
  let q = 1;
  for (const param of params) {
    const [name, value] = param.split("=").map((s) => s.trim().toLowerCase());
    if (name === "q") {
      // RFC 9110 qvalue: 0 to 1 with at most three decimals; anything else is ignored as malformed.
      q = value && /^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/.test(value) ? Number(value) : NaN;
    }
  }
  return q;
}

/** The best match of `mediaType` among the ranges: its quality, specificity (2, 1, 0) and position. */
function bestMatch(mediaType: string, ranges: readonly Range[]) {
  const [type, subtype] = mediaType.toLowerCase().split("/");
  let best: { q: number; specificity: number; index: number } | null = null;
  for (const range of ranges) {
    const specificity =
      range.type === type && range.subtype === subtype
        ? 2
        : range.type === type && range.subtype === "*"
          ? 1
          : range.type === "*" && range.subtype === "*"
            ? 0
            : -1;
    if (specificity < 0) continue;
    if (!best || specificity > best.specificity) best = { q: range.q, specificity, index: range.index };
  }
  return best;
}

/**
 * Which of `offered` (at least one; the first is the default) the client prefers, or null when
 * `Accept` rules every one of them out.
 */
export function preferredMediaType<T extends string>(accept: string | null, offered: readonly [T, ...T[]]): T | null {
  if (!accept?.trim()) return offered[0];
  const ranges = parseAccept(accept);
  let winner: { type: T; q: number; specificity: number; index: number } | null = null;
  for (const type of offered) {
    const match = bestMatch(type, ranges);
    if (!match || match.q <= 0) continue;
    if (
      !winner ||
      match.q > winner.q ||
      (match.q === winner.q && match.specificity > winner.specificity) ||
      (match.q === winner.q && match.specificity === winner.specificity && match.index < winner.index)
    )
      winner = { type, ...match };
  }
  return winner?.type ?? null;
}
