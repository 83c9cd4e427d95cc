/**
 * The scorer's trained model at scoring time (docs/moderation.md, "The trained model"): the weights
 * of ./weights.json (written by scripts/moderation/train-scorer.ts), read once, and the two
 * probabilities of a comment, toxic and spam, from its features (./features.ts). Synchronous,
 * pure TypeScript: a few hundred multiplications a comment.
 */
import type { SpamAnalysis } from "../spam-rules";
import type { ToxicityAnalysis } from "../toxicity-weights";
import { BUCKETS, FEATURES, HASH_BITS, MODEL_FEATURES, ownWords, ruleFeatures, textBuckets } from "./features";
import WEIGHTS from "./weights.json";

type Part = { scale: number; bias: number; holdAt: number; weights: string };

const BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/** Little-endian 16-bit integers from base64, times `scale`. */
function decode(part: Part): { weights: Float32Array; bias: number; holdAt: number } {
  const lookup = new Uint8Array(128);
  for (let i = 0; i < BASE64.length; i += 1) lookup[BASE64.charCodeAt(i)] = i;
  const text = part.weights.replace(/=+$/, "");
  const bytes = new Uint8Array(Math.floor((text.length * 3) / 4));
  let at = 0;
  for (let i = 0; i < text.length; i += 4) {
    const n =
      (lookup[text.charCodeAt(i)]! << 18) |
      (lookup[text.charCodeAt(i + 1)]! << 12) |
      ((lookup[text.charCodeAt(i + 2)] ?? 0) << 6) |
      (lookup[text.charCodeAt(i + 3)] ?? 0);
    bytes[at++] = (n >> 16) & 255;
    if (at < bytes.length) bytes[at++] = (n >> 8) & 255;
    if (at < bytes.length) bytes[at++] = n & 255;
  }
  const weights = new Float32Array(FEATURES);
  for (let j = 0; j < FEATURES; j += 1) {
    const u = bytes[2 * j]! | (bytes[2 * j + 1]! << 8);
    weights[j] = (u >= 32768 ? u - 65536 : u) * part.scale;
  }
  return { weights, bias: part.bias, holdAt: part.holdAt };
}

let loaded: { toxic: ReturnType<typeof decode>; spam: ReturnType<typeof decode> } | undefined;

function model() {
  if (!loaded) {
    // What modelProbabilities reads for each model.
    if (
      !MODEL_FEATURES.toxic.text ||
      MODEL_FEATURES.toxic.rules ||
      !MODEL_FEATURES.spam.text ||
      !MODEL_FEATURES.spam.rules
    )
      throw new Error("model/features.ts MODEL_FEATURES changed: change modelProbabilities to match");
    if (WEIGHTS.hashBits !== HASH_BITS || WEIGHTS.features !== FEATURES) {
      throw new Error("model/weights.json does not match model/features.ts: run scripts/moderation/train-scorer.ts");
    }
    loaded = { toxic: decode(WEIGHTS.toxic), spam: decode(WEIGHTS.spam) };
  }
  return loaded;
}

const sigmoid = (z: number) => 1 / (1 + Math.exp(-z));

/**
 * The models' probabilities that the comment is toxic (from its text) and that it is spam (from
 * its text and the rules' signals, given as the rules found them).
 */
export function modelProbabilities(
  text: string,
  rules: { toxicity: ToxicityAnalysis; spam: SpamAnalysis },
): { toxic: number; spam: number } {
  const m = model();
  const own = ownWords(text);
  // Nothing of the reader's own to read (no text, emoji only, all quoted): the model says nothing.
  if (!own.words.some((w) => /[\p{L}\p{N}]/u.test(w))) return { toxic: 0, spam: 0 };
  const { words, chars, wordValue, charValue } = textBuckets(own);
  const textScore = (part: { weights: Float32Array; bias: number }) => {
    let wordSum = 0;
    for (const b of words) wordSum += part.weights[b]!;
    let charSum = 0;
    for (const b of chars) charSum += part.weights[b]!;
    return part.bias + wordValue * wordSum + charValue * charSum;
  };
  let spamScore = textScore(m.spam);
  ruleFeatures(rules, own).forEach((v, k) => {
    spamScore += m.spam.weights[BUCKETS + k]! * v;
  });
  return { toxic: sigmoid(textScore(m.toxic)), spam: sigmoid(spamScore) };
}

/** The probabilities at which the model's scores reach the hold threshold (toxic) and spam. */
export function modelHoldAt(): { toxic: number; spam: number } {
  const m = model();
  return { toxic: m.toxic.holdAt, spam: m.spam.holdAt };
}
