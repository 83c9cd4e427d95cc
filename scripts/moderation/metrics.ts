/** The figures a scorer is measured by (evaluate-scorer.ts, cross-validate-scorer.ts). */

/** Precision, recall, F1 and the confusion counts of `predicted` against `actual`. */
export function confusion<T>(items: readonly T[], actual: (s: T) => boolean, predicted: (s: T) => boolean) {
  let tp = 0;
  let fp = 0;
  let fn = 0;
  let tn = 0;
  for (const s of items) {
    const a = actual(s);
    const p = predicted(s);
    if (a && p) tp += 1;
    else if (!a && p) fp += 1;
    else if (a && !p) fn += 1;
    else tn += 1;
  }
  const precision = tp + fp === 0 ? 0 : tp / (tp + fp);
  const recall = tp + fn === 0 ? 0 : tp / (tp + fn);
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  return { tp, fp, fn, tn, precision, recall, f1 };
}

/** The probability that a random positive scores above a random negative (ties count half). */
export function rocAuc(positives: readonly number[], negatives: readonly number[]): number {
  if (positives.length === 0 || negatives.length === 0) return Number.NaN;
  let wins = 0;
  for (const p of positives) for (const n of negatives) wins += p > n ? 1 : p === n ? 0.5 : 0;
  return wins / (positives.length * negatives.length);
}
