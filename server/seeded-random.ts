/**
 * A small deterministic generator of numbers in [0, 1) (mulberry32): the same seed gives the same
 * sequence on every run. For demo data, folds of labelled examples and replayable tests; never for
 * anything secret (node:crypto is for that).
 */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
