/**
 * Training the scorer's model (docs/moderation.md, "The trained model"): logistic regression over
 * the features of ./features.ts, one for toxic against the rest and one for spam against the rest,
 * fitted by full-batch Adam on the weighted log loss with an L2 penalty. Deterministic: the
 * examples are sorted, the fit has no randomness, and the weights are rounded to 16 bits.
 *
 * Used by scripts/moderation/train-scorer.ts (which writes ./weights.json) and
 * scripts/moderation/cross-validate-scorer.ts, and by the test that checks the shipped weights are
 * what training gives.
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";

import { mulberry32 } from "../../../../seeded-random";
import { contentOf } from "../../moderation";
import { analyseSpam, type SpamAnalysis } from "../spam-rules";
import { analyseToxicity } from "../toxicity-rules";
import type { ToxicityAnalysis } from "../toxicity-weights";
import { chooseHoldAt } from "./blend";
import {
  BUCKETS,
  FEATURES,
  featuresOf,
  HASH_BITS,
  MODEL_FEATURES,
  type FeatureOptions,
  type SparseVector,
} from "./features";

export type Label = "toxic" | "spam" | "ordinary" | "borderline";
export type Example = { id: string; source: string; text: string; label: Label; categories: string[] };

const MODERATION_DIR = path.join(import.meta.dirname, "..");

/**
 * The training material, named one by one (never a listing of corpus/: the report set there is
 * held out). Paths relative to server/engagement/moderation/.
 */
export const TRAINING_FILES = [
  "corpus/tuning.jsonl",
  "corpus/retired-report-1.jsonl",
  "development-examples.jsonl",
  "model/extra-examples.jsonl",
] as const;

/** Every example of the training files, sorted by file then id. */
export function loadTrainingExamples(files: readonly string[] = TRAINING_FILES): Example[] {
  const examples: Example[] = [];
  for (const file of files) {
    const full = path.join(MODERATION_DIR, file);
    if (!fs.existsSync(full)) continue;
    for (const line of fs.readFileSync(full, "utf8").split("\n")) {
      if (line.trim() === "") continue;
      const row = JSON.parse(line) as { id: string; text: string; label: Label; categories?: string[] };
      examples.push({ id: row.id, source: file, text: row.text, label: row.label, categories: row.categories ?? [] });
    }
  }
  return examples.sort((a, b) =>
    a.source === b.source ? (a.id < b.id ? -1 : a.id > b.id ? 1 : 0) : a.source < b.source ? -1 : 1,
  );
}

const ESTABLISHED_READER = { isNew: false, publishedComments: 20, firstCommentAt: new Date("2026-01-01T00:00:00Z") };

/** The rules' analyses of an example, as an established reader's comment with no link ops. */
export function rulesOf(text: string): { toxicity: ToxicityAnalysis; spam: SpamAnalysis } {
  const input = { ...contentOf([{ insert: text }]), reader: ESTABLISHED_READER };
  return { toxicity: analyseToxicity(input.text), spam: analyseSpam(input) };
}

type TrainOptions = {
  /** What the model reads. */
  features: FeatureOptions;
  /** L2 penalty (per example, on the weights, not the bias). */
  lambda: number;
  iterations: number;
  learningRate: number;
  /** Weight of a positive example (negatives 1). */
  positiveWeight: number;
  /** Weight of a borderline example (a negative for both models). */
  borderlineWeight: number;
  /**
   * Naive-Bayes scaling of the hashed features (NB-LR): each bucket scaled by the log-ratio of
   * its share among positives and negatives (smoothed by this), 0 for none. The scale is folded
   * into the weights, so scoring is the same linear model.
   */
  nbSmoothing: number;
};

/** Chosen by cross-validation (scripts/moderation/cross-validate-scorer.ts --grid). */
export const TOXIC_TRAIN_OPTIONS: TrainOptions = {
  features: MODEL_FEATURES.toxic,
  lambda: 1e-4,
  iterations: 300,
  learningRate: 0.05,
  positiveWeight: 1,
  borderlineWeight: 1,
  nbSmoothing: 0.25,
};
export const SPAM_TRAIN_OPTIONS: TrainOptions = { ...TOXIC_TRAIN_OPTIONS, features: MODEL_FEATURES.spam };

type LinearModel = { weights: Float64Array; bias: number };

const sigmoid = (z: number) => 1 / (1 + Math.exp(-z));

export function linearScore(model: { weights: ArrayLike<number>; bias: number }, x: SparseVector): number {
  let z = model.bias;
  for (let k = 0; k < x.index.length; k += 1) z += model.weights[x.index[k]!]! * x.value[k]!;
  return z;
}

/** Logistic regression, full-batch Adam from zero: the same inputs give the same weights. */
export function trainLogistic(xs: SparseVector[], ys: number[], sampleWeights: number[], o: TrainOptions): LinearModel {
  if (o.nbSmoothing > 0) {
    const r = nbRatios(xs, ys, o.nbSmoothing);
    const scaled = xs.map((x) => ({
      index: x.index,
      value: Float32Array.from(x.value, (v, k) => v * r[x.index[k]!]!),
    }));
    const model = trainLogistic(scaled, ys, sampleWeights, { ...o, nbSmoothing: 0 });
    for (let j = 0; j < FEATURES; j += 1) model.weights[j] = model.weights[j]! * r[j]!;
    return model;
  }
  const w = new Float64Array(FEATURES);
  let b = 0;
  const m = new Float64Array(FEATURES);
  const v = new Float64Array(FEATURES);
  let mb = 0;
  let vb = 0;
  const g = new Float64Array(FEATURES);
  const total = sampleWeights.reduce((s, x) => s + x, 0);
  const beta1 = 0.9;
  const beta2 = 0.999;
  const eps = 1e-8;
  for (let t = 1; t <= o.iterations; t += 1) {
    g.fill(0);
    let gb = 0;
    for (let i = 0; i < xs.length; i += 1) {
      const x = xs[i]!;
      const err = (sigmoid(linearScore({ weights: w, bias: b }, x)) - ys[i]!) * (sampleWeights[i]! / total);
      for (let k = 0; k < x.index.length; k += 1) g[x.index[k]!]! += err * x.value[k]!;
      gb += err;
    }
    const c1 = 1 - beta1 ** t;
    const c2 = 1 - beta2 ** t;
    for (let j = 0; j < FEATURES; j += 1) {
      const gj = g[j]! + o.lambda * w[j]!;
      if (gj === 0 && m[j] === 0) continue;
      m[j] = beta1 * m[j]! + (1 - beta1) * gj;
      v[j] = beta2 * v[j]! + (1 - beta2) * gj * gj;
      w[j] = w[j]! - (o.learningRate * (m[j]! / c1)) / (Math.sqrt(v[j]! / c2) + eps);
    }
    mb = beta1 * mb + (1 - beta1) * gb;
    vb = beta2 * vb + (1 - beta2) * gb * gb;
    b -= (o.learningRate * (mb / c1)) / (Math.sqrt(vb / c2) + eps);
  }
  return { weights: w, bias: b };
}

/** Per feature: the log-ratio of its presence among positives and negatives (1 for the rules' slots). */
function nbRatios(xs: SparseVector[], ys: number[], alpha: number): Float64Array {
  const pos = new Float64Array(FEATURES).fill(alpha);
  const neg = new Float64Array(FEATURES).fill(alpha);
  for (let i = 0; i < xs.length; i += 1) {
    const x = xs[i]!;
    const into = ys[i] === 1 ? pos : neg;
    for (let k = 0; k < x.index.length; k += 1) into[x.index[k]!]! += 1;
  }
  let posTotal = 0;
  let negTotal = 0;
  for (let j = 0; j < BUCKETS; j += 1) {
    posTotal += pos[j]!;
    negTotal += neg[j]!;
  }
  const r = new Float64Array(FEATURES).fill(1);
  for (let j = 0; j < BUCKETS; j += 1) r[j] = Math.log(pos[j]! / posTotal) - Math.log(neg[j]! / negTotal);
  return r;
}

export type Target = "toxic" | "spam";

/** Targets and sample weights of one model: positives of `target` against everything else. */
export function targetsOf(examples: Example[], target: Target, o: TrainOptions): { ys: number[]; ws: number[] } {
  const ys = examples.map((e) => (e.label === target ? 1 : 0));
  const ws = examples.map((e) =>
    e.label === target ? o.positiveWeight : e.label === "borderline" ? o.borderlineWeight : 1,
  );
  return { ys, ws };
}

export function featurise(examples: Example[], options: FeatureOptions): SparseVector[] {
  return examples.map((e) => featuresOf(e.text, options.rules ? rulesOf(e.text) : undefined, options));
}

// ─── cross-validation ─────────────────────────────────────────────────────────────────────────

export type Setting = { toxic: TrainOptions; spam: TrainOptions };
/** Each target's examples' feature vectors. */
export type TargetVectors = Record<Target, SparseVector[]>;
const SHIPPED_SETTING: Setting = {
  toxic: TOXIC_TRAIN_OPTIONS,
  spam: SPAM_TRAIN_OPTIONS,
};

/** Fold of each measured example (-1: always trained on), stratified by label. */
export function foldsOf(examples: Example[], indexes: number[], k: number, seed: number): Map<number, number> {
  const random = mulberry32(seed);
  const byLabel = new Map<string, number[]>();
  for (const i of indexes) byLabel.set(examples[i]!.label, [...(byLabel.get(examples[i]!.label) ?? []), i]);
  const fold = new Map<number, number>();
  let next = 0;
  for (const label of [...byLabel.keys()].sort()) {
    const list = byLabel.get(label)!;
    for (let i = list.length - 1; i > 0; i -= 1) {
      const j = Math.floor(random() * (i + 1));
      [list[i], list[j]] = [list[j]!, list[i]!];
    }
    for (const i of list) fold.set(i, next++ % k);
  }
  return fold;
}

/** Out-of-fold probabilities of both models for `measured`, training on `train` ∪ the other folds. */
export function outOfFold(
  xs: TargetVectors,
  examples: Example[],
  measured: number[],
  alwaysTrain: number[],
  k: number,
  seed: number,
  setting: Setting,
): Map<number, { toxic: number; spam: number }> {
  const fold = foldsOf(examples, measured, k, seed);
  const out = new Map<number, { toxic: number; spam: number }>();
  for (let f = 0; f < k; f += 1) {
    const train = [...alwaysTrain, ...measured.filter((i) => fold.get(i) !== f)];
    const test = measured.filter((i) => fold.get(i) === f);
    const trainExamples = train.map((i) => examples[i]!);

    const models = {} as Record<Target, { weights: Float64Array; bias: number }>;
    for (const target of ["toxic", "spam"] as const) {
      const o = setting[target];
      const { ys, ws } = targetsOf(trainExamples, target, o);
      models[target] = trainLogistic(
        train.map((i) => xs[target][i]!),
        ys,
        ws,
        o,
      );
    }
    for (const i of test) {
      out.set(i, {
        toxic: sigmoid(linearScore(models.toxic, xs.toxic[i]!)),
        spam: sigmoid(linearScore(models.spam, xs.spam[i]!)),
      });
    }
  }
  return out;
}

/** Both targets' feature vectors (computed once when they read the same). */
function featuriseTargets(examples: Example[], setting: Setting): TargetVectors {
  const toxic = featurise(examples, setting.toxic.features);
  const same = JSON.stringify(setting.toxic.features) === JSON.stringify(setting.spam.features);
  return { toxic, spam: same ? toxic : featurise(examples, setting.spam.features) };
}

// ─── the shipped file ────────────────────────────────────────────────────────────────────────

/** Weights are kept as 16-bit integers: weight = int × scale. */
function quantise(model: LinearModel): { scale: number; bias: number; weights: string } {
  let max = 0;
  for (const x of model.weights) max = Math.max(max, Math.abs(x));
  const scale = Number((max / 32767 || 1e-6).toPrecision(6));
  const ints = new Int16Array(model.weights.length);
  for (let j = 0; j < ints.length; j += 1)
    ints[j] = Math.max(-32767, Math.min(32767, Math.round(model.weights[j]! / scale)));
  return {
    scale,
    bias: Number(model.bias.toFixed(6)),
    weights: Buffer.from(ints.buffer, ints.byteOffset, ints.byteLength).toString("base64"),
  };
}

export type WeightsFile = {
  about: string;
  hashBits: number;
  features: number;
  /** Examples trained on, by label, and a hash of their texts and labels. */
  trainedOn: { examples: Record<Label, number>; sha256: string };
  /** The model's probability at which its score is the hold threshold (70) or the spam mark (50). */
  toxic: { scale: number; bias: number; holdAt: number; weights: string };
  spam: { scale: number; bias: number; holdAt: number; weights: string };
};

/** The folds and seed of the cross-validation that chooses the shipped probabilities to hold at. */
const SHIPPED_CV = { folds: 5, seed: 20260 } as const;
const EXTRA_FILE = "model/extra-examples.jsonl";

/** The shipped model's weights, trained on every example (no probabilities chosen yet). */
export function trainShippedWeights(
  examples: Example[],
  xs: TargetVectors = featuriseTargets(examples, SHIPPED_SETTING),
): { toxic: ReturnType<typeof quantise>; spam: ReturnType<typeof quantise> } {
  const fit = (target: Target) => {
    const o = SHIPPED_SETTING[target];
    const { ys, ws } = targetsOf(examples, target, o);
    return quantise(trainLogistic(xs[target], ys, ws, o));
  };
  return { toxic: fit("toxic"), spam: fit("spam") };
}

/** The probabilities to hold at, chosen on 5-fold out-of-fold predictions (./blend.ts chooseHoldAt). */
function shippedHoldAt(examples: Example[], xs: TargetVectors): { toxic: number; spam: number } {
  const indexes = examples.map((_, i) => i);
  const measured = indexes.filter((i) => examples[i]!.source !== EXTRA_FILE);
  const alwaysTrain = indexes.filter((i) => examples[i]!.source === EXTRA_FILE);
  const oof = outOfFold(xs, examples, measured, alwaysTrain, SHIPPED_CV.folds, SHIPPED_CV.seed, SHIPPED_SETTING);
  const rows = measured.map((i) => {
    const rules = rulesOf(examples[i]!.text);
    return {
      example: examples[i]!,
      rulesToxicity: rules.toxicity.toxicity,
      rulesIsSpam: rules.spam.isSpam,
      p: oof.get(i)!,
    };
  });
  const at = chooseHoldAt(rows);
  return { toxic: Number(at.toxic.toFixed(6)), spam: Number(at.spam.toFixed(6)) };
}

export function trainingHash(examples: Example[]): string {
  const hash = createHash("sha256");
  for (const e of examples) hash.update(`${e.source}\t${e.id}\t${e.label}\t${e.text}\n`);
  return hash.digest("hex");
}

/** The whole of weights.json, as scripts/moderation/train-scorer.ts writes it. */
export function buildWeightsFile(examples: Example[] = loadTrainingExamples()): WeightsFile {
  const xs = featuriseTargets(examples, SHIPPED_SETTING);
  const weights = trainShippedWeights(examples, xs);
  const holdAt = shippedHoldAt(examples, xs);
  const counts = { toxic: 0, spam: 0, ordinary: 0, borderline: 0 } as Record<Label, number>;
  for (const e of examples) counts[e.label] += 1;
  return {
    about:
      "Masthead comment scorer, trained model (docs/moderation.md). Written by scripts/moderation/train-scorer.ts: do not edit.",
    hashBits: HASH_BITS,
    features: FEATURES,
    trainedOn: { examples: counts, sha256: trainingHash(examples) },
    toxic: { ...pick(weights.toxic), holdAt: holdAt.toxic, weights: weights.toxic.weights },
    spam: { ...pick(weights.spam), holdAt: holdAt.spam, weights: weights.spam.weights },
  };
}

const pick = (q: { scale: number; bias: number }) => ({ scale: q.scale, bias: q.bias });

export const WEIGHTS_PATH = path.join(import.meta.dirname, "weights.json");

export function serialiseWeightsFile(file: WeightsFile): string {
  return `${JSON.stringify(file, null, 2)}\n`;
}
