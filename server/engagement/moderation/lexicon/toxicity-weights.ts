/** The weights of the toxicity signals and the shapes they share (./toxicity-rules.ts). */
import { type ToxicCategory } from "../scorer/scorer";

/** Weights of the toxicity signals (0 to 1). */
export const TOXIC_WEIGHTS = {
  /** Threats and incitement to violence. */
  threat: 0.9,
  /** Incitement to self-harm. */
  selfHarm: 0.9,
  /** Slurs against a group (race, religion, sexuality, disability). */
  slur: 0.85,
  /** A group dehumanised or smeared as a whole. */
  identityAttack: 0.85,
  /** A vulgar word for a person ("twat", "arsehole", "shit for brains"). */
  vulgarInsult: 0.7,
  /** Strong profanity. */
  strong: 0.45,
  /** Explicit sexual terms. */
  sexual: 0.35,
  /** Insults ("idiot", "moron") and dismissals ("shut up", "get a life"). */
  insult: 0.35,
  /** Mild profanity ("shit", "piss", "bloody"). */
  mild: 0.25,
  /** Insulting adjectives ("stupid", "pathetic"): also said of ideas, so weaker. */
  adjective: 0.2,
  /** Anatomical or clinical words a news comment may use in earnest ("rape", "sex", "penis"). */
  clinical: 0.1,
  /** An insult, a vulgar word or a slur aimed at someone. */
  aimed: 0.65,
  /** Capitals, with another signal. */
  shouting: 0.2,
} as const;

/** What a signal counts for inside quotation marks or reported speech. */
export const REPORTED_FACTOR = 0.25;

export type WeightName = keyof typeof TOXIC_WEIGHTS;

export type Signal = {
  key: string;
  weight: number;
  categories: ToxicCategory[];
  reason: string;
  aimed: boolean;
  reported: boolean;
};

export type ToxicityAnalysis = {
  /** 0 to 100, one decimal. */
  toxicity: number;
  /** Each category's own score, 0 to 100 (the aimed signal counts for insult). */
  categories: Record<ToxicCategory, number>;
  reasons: string[];
};
