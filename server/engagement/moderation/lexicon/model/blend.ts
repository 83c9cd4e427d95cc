/**
 * How the trained model's probabilities join the rules' scores (docs/moderation.md, "Rules and
 * model together"). The rules keep every score they give; the model can only raise one:
 *
 * - toxicity = max(rules, model), the model's score being its probability mapped so that the
 *   probability `holdAt` (chosen by cross-validation) is exactly the default hold threshold, 70:
 *   100 × σ(logit p − logit holdAt + logit 0.7);
 * - spam = max(rules, model), the model's score 50 at its `holdAt`: 100 × σ(logit q − logit
 *   holdAt); spam when either says so (spam ≥ 50).
 */

/** The default hold threshold (settings.schema.ts MODERATION_DEFAULTS.toxicityThreshold). */
const HOLD_THRESHOLD = 70;
/**
 * Largest share of ordinary comments the model alone may hold at the chosen probabilities, on the
 * out-of-fold predictions it is chosen on: none (cross-validated F1 0.971 against 0.969 at 0.5 %
 * and 0.967 at 1 %, with fewer ordinary comments held).
 */
const MAX_ORDINARY_HELD = { toxic: 0, spam: 0 };
/** Below this the model's score is not given as a reason, even when it is above the rules'. */
const MODEL_REASON_FROM = 50;

const logit = (p: number) => {
  const q = Math.min(Math.max(p, 1e-9), 1 - 1e-9);
  return Math.log(q / (1 - q));
};
const sigmoid = (z: number) => 1 / (1 + Math.exp(-z));
const round1 = (n: number) => Math.round(n * 10) / 10;

/** The model's toxicity score, 0 to 100: 70 at `holdAt`. */
export function modelToxicity(p: number, holdAt: number): number {
  return round1(100 * sigmoid(logit(p) - logit(holdAt) + logit(HOLD_THRESHOLD / 100)));
}

/** The model's spam score, 0 to 100: 50 at `holdAt`. */
export function modelSpam(q: number, holdAt: number): number {
  return round1(100 * sigmoid(logit(q) - logit(holdAt)));
}

export function blendToxicity(
  rules: number,
  p: number,
  holdAt: number,
): { toxicity: number; model: number; raised: boolean } {
  const model = modelToxicity(p, holdAt);
  return { toxicity: Math.max(rules, model), model, raised: model > rules && model >= MODEL_REASON_FROM };
}

export function blendSpam(
  rules: number,
  rulesIsSpam: boolean,
  q: number,
  holdAt: number,
): { spam: number; isSpam: boolean; raised: boolean } {
  const model = modelSpam(q, holdAt);
  const modelSays = model >= 50;
  return { spam: Math.max(rules, model), isSpam: rulesIsSpam || modelSays, raised: modelSays && !rulesIsSpam };
}

type Row = {
  example: { label: string };
  rulesToxicity: number;
  rulesIsSpam: boolean;
  p: { toxic: number; spam: number };
};

/**
 * The probabilities at which the model holds (toxic) and calls spam: each the one giving the best
 * F1 on `rows` (borderline left out) while holding at most MAX_ORDINARY_HELD of the ordinary
 * comments; of equal F1, the higher. `on: "model"` (the default) judges the model alone: the
 * rules were written while reading most of the training material, so judged beside them the model
 * would look needless there and be set too shy for comments the rules have never seen.
 */
export function chooseHoldAt(rows: Row[], on: "model" | "blend" = "model"): { toxic: number; spam: number } {
  const pick = (target: "toxic" | "spam") => {
    const rulesHold = (r: Row) =>
      on === "blend" && (target === "toxic" ? r.rulesToxicity >= HOLD_THRESHOLD : r.rulesIsSpam);
    const values = [...new Set(rows.map((r) => r.p[target]))].sort((a, b) => a - b);
    const candidates = [1 - 1e-9];
    for (let i = 1; i < values.length; i += 1) candidates.push((values[i - 1]! + values[i]!) / 2);
    const ordinary = rows.filter((r) => r.example.label === "ordinary").length;
    let best = { at: 1 - 1e-9, f1: -1 };
    for (const at of candidates) {
      let tp = 0;
      let fp = 0;
      let fn = 0;
      let ordinaryHeld = 0;
      for (const r of rows) {
        const held = rulesHold(r) || r.p[target] >= at;
        const positive = r.example.label === target;
        if (r.example.label === "ordinary" && held) ordinaryHeld += 1;
        if (r.example.label === "borderline") continue;
        if (positive && held) tp += 1;
        else if (!positive && held) fp += 1;
        else if (positive) fn += 1;
      }
      if (ordinaryHeld > MAX_ORDINARY_HELD[target] * ordinary) continue;
      const f1 = tp === 0 ? 0 : (2 * tp) / (2 * tp + fp + fn);
      if (f1 > best.f1 + 1e-12 || (Math.abs(f1 - best.f1) <= 1e-12 && at > best.at)) best = { at, f1 };
    }
    return best.at;
  };
  return { toxic: pick("toxic"), spam: pick("spam") };
}
