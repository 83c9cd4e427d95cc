/**
 * The scorer's trained model: the shipped weights are what training gives, and the blend with the
 * rules keeps what the rules promise (quotations and reported speech discounted, heated
 * disagreement published) while the model raises what the rules miss. Comments here are written
 * for these tests, none from the training material.
 */
import fs from "node:fs";

import { describe, expect, it } from "vitest";

import { contentOf } from "../../moderation";
import { KNOWN_REASON_CODES } from "../../queue/reasons";
import { ZCommentScore, type CommentScore } from "../../scorer/scorer";
import { lexiconScorer, scoreToxicity } from "../lexicon-scorer";
import { modelSpam, modelToxicity } from "./blend";
import {
  loadTrainingExamples,
  rulesOf,
  trainingHash,
  trainShippedWeights,
  WEIGHTS_PATH,
  type WeightsFile,
} from "./train";
import { modelHoldAt, modelProbabilities } from "./trained-model";

const reader = { isNew: false, publishedComments: 20, firstCommentAt: new Date("2026-01-01T00:00:00Z") };
const score = (text: string) => lexiconScorer.score({ ...contentOf([{ insert: text }]), reader }) as CommentScore;

describe("the shipped weights", () => {
  const shipped = JSON.parse(fs.readFileSync(WEIGHTS_PATH, "utf8")) as WeightsFile;

  it("are small", () => {
    expect(fs.statSync(WEIGHTS_PATH).size).toBeLessThan(1024 * 1024);
  });

  it("were trained on the training material as it is now", () => {
    expect(trainingHash(loadTrainingExamples())).toBe(shipped.trainedOn.sha256);
  });

  // The probabilities to hold at come from a 5-fold cross-validation (ten more fits):
  // `npx tsx scripts/moderation/train-scorer.ts --check` reproduces the whole file. The two final
  // fits take about 8 s on one idle core; the time limit allows for a machine busy with other tests.
  it("are what training gives, byte for byte", { timeout: 120_000 }, () => {
    const trained = trainShippedWeights(loadTrainingExamples());
    for (const target of ["toxic", "spam"] as const) {
      expect(trained[target].scale).toBe(shipped[target].scale);
      expect(trained[target].bias).toBe(shipped[target].bias);
      expect(trained[target].weights === shipped[target].weights, `${target} weights`).toBe(true);
    }
  });
});

describe("the blend of rules and model", () => {
  it("maps the model's probability to hold exactly at the chosen one", () => {
    const at = modelHoldAt();
    expect(modelToxicity(at.toxic, at.toxic)).toBe(70);
    expect(modelSpam(at.spam, at.spam)).toBe(50);
    for (const p of [at.toxic, at.spam]) {
      expect(p).toBeGreaterThan(0.1);
      expect(p).toBeLessThan(1);
    }
  });

  it("keeps every score the rules give (the model only raises)", () => {
    for (const text of ["you idiot", "fuck you", "kys", "idiots everywhere", "this is fucking brilliant"]) {
      expect(score(text).toxicity, text).toBeGreaterThanOrEqual(scoreToxicity(text).toxicity);
    }
  });

  it("raises threats and attacks on a group worded outside the rules' lists, and says so", () => {
    for (const text of [
      "Those people are a disease spreading through our towns.",
      "Your opinion is as worthless as you are.",
    ]) {
      const s = score(text);
      expect(s.toxicity, text).toBeGreaterThanOrEqual(70);
      expect(s.reasons, text).toContain("toxicity.model");
    }
    expect(scoreToxicity("Those people are a disease spreading through our towns.").toxicity).toBeLessThan(70);
  });

  it("still discounts quotations and reported speech, and publishes heated disagreement", () => {
    for (const text of [
      "He was charged with threatening to kill his neighbour.",
      "The jury heard he told her 'I will burn your house down'.",
      "Fans chanted 'you're a disgrace' at the chairman.",
      "She was sacked for calling a customer a moron.",
      'The placard read "go back home", which the mayor condemned.',
      "This scheme is idiotic and the council should scrap it.",
      "The mayor is wrong and should resign.",
      "Migrants are often the victims of these gangs.",
      "We absolutely battered them on Saturday, what a match.",
      "I could murder a pint after that meeting.",
      "Hope you all have a lovely weekend.",
    ]) {
      const s = score(text);
      expect(s.toxicity, text).toBeLessThan(70);
      expect(s.reasons, text).not.toContain("toxicity.model");
      expect(s.isSpam, text).toBe(false);
    }
  });

  it("reads only the reader's own words: a threat quoted from a court report moves the model little", () => {
    const p = (text: string) => modelProbabilities(text, rulesOf(text)).toxic;
    const own = p("I will burn your house down with you inside.");
    const reported = p("The court heard he said 'I will burn your house down with you inside'.");
    expect(reported).toBeLessThan(own);
    expect(reported).toBeLessThan(0.5);
  });

  it("says nothing of a comment with no words of the reader's own", () => {
    for (const text of ["", "🔥🔥🔥", "👍"]) {
      expect(modelProbabilities(text, rulesOf(text)), text).toEqual({ toxic: 0, spam: 0 });
      expect(score(text).toxicity, text).toBe(0);
    }
  });

  it("keeps the rules' categories, a valid score and reasons in plain words", () => {
    const s = score("Those people are a disease spreading through our towns.");
    expect(ZCommentScore.parse(s)).toEqual(s);
    expect(s.categories).toEqual({
      insult: 0,
      threat: 0,
      identity_attack: 0,
      obscenity: 0,
      self_harm_incitement: 0,
    });
    expect(KNOWN_REASON_CODES).toContain("toxicity.model");
    expect(KNOWN_REASON_CODES).toContain("spam.model");
  });

  it("does not read a link's domain: an ordinary comment citing a source is not spam", () => {
    for (const text of [
      "Full figures here: https://www.ons.gov.uk/economy/inflationandpriceindices",
      "The council's own report says otherwise, see bristol.gov.uk/budget",
    ]) {
      expect(score(text).isSpam, text).toBe(false);
    }
  });
});
