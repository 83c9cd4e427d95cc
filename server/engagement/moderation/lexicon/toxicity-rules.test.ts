/**
 * Toxicity rules: each kind of signal, with comments written for these tests (none from the
 * labelled corpus). "Held" is toxicity ≥ 70, the moderation settings' default threshold.
 */
import { describe, expect, it } from "vitest";

import { analyseToxicity } from "./toxicity-rules";

const THRESHOLD = 70;
const held = (text: string) => analyseToxicity(text).toxicity >= THRESHOLD;

function expectHeld(texts: string[]) {
  expect(texts.filter((text) => !held(text))).toEqual([]);
}
function expectPublished(texts: string[]) {
  expect(texts.filter((text) => held(text))).toEqual([]);
}

describe("insults", () => {
  it("holds insults said to the reader, with or without swearing", () => {
    expectHeld([
      "You're a gormless prat.",
      "you are so incredibly dim",
      "What a spineless little weasel you are.",
      "Honestly, you must be the densest reader this paper has.",
      "Sit down, muppet.",
      "u r such a l0ser",
      "Only a halfwit like you would swallow that.",
      "You absolute spanner.",
      "Nobody wants to hear from you, give it a rest.",
      "Are you really this thick?",
    ]);
  });

  it("holds vulgar names for a person wherever they stand", () => {
    expectHeld(["tosser.", "The columnist is a complete bellend", "Another knobhead heard from."]);
  });

  it("leaves heated disagreement about ideas, policies and public conduct", () => {
    expectPublished([
      "This scheme is idiotic and the council should scrap it.",
      "The mayor is wrong and should resign.",
      "What a stupid decision to close the baths.",
      "You're wrong, the figures were revised in March.",
      "Your argument ignores the cost of borrowing.",
      "I felt like an idiot waiting an hour for that bus.",
      "This is a joke of a timetable.",
      "You make a fair point, but I still disagree.",
    ]);
  });

  it("scores an insult said of no one below one said to someone", () => {
    expect(analyseToxicity("Idiots everywhere in this debate").toxicity).toBeLessThan(
      analyseToxicity("You idiot.").toxicity,
    );
  });
});

describe("threats and incitement", () => {
  it("holds threats with no swear word", () => {
    expectHeld([
      "I will make you regret writing this.",
      "We know which school your daughter goes to.",
      "Lovely car you have. Shame if something happened to it.",
      "Someone should give that editor a good hiding.",
      "The judge deserves to be strung up.",
      "Keep publishing and you'll end up in a ditch.",
      "I'd happily put a knife in his back.",
      "Let's all turn up at her house and show her.",
    ]);
  });

  it("leaves idioms, sport and violence described", () => {
    expectPublished([
      "This commute is killing me.",
      "I could murder a pint after that meeting.",
      "We absolutely battered them on Saturday, what a match.",
      "Shoot, I left the oven on.",
      "The attack happened near the station, police say.",
      "Stab vests are now standard for the night shift.",
      "The film's killer is revealed in the last scene.",
    ]);
  });
});

describe("self-harm incitement", () => {
  it("holds incitement however it is spelt", () => {
    expectHeld(["k.y.s", "Go jump off a cliff.", "nobody would miss you if you were gone", "Just top yourself."]);
  });

  it("leaves people speaking of themselves", () => {
    expectPublished(["This tax form will be the death of me.", "Kill me now, another meeting."]);
  });
});

describe("identity attacks", () => {
  it("holds a group dehumanised, smeared as a whole, or told to leave", () => {
    expectHeld([
      "Migrants are a plague on this island.",
      "Catholics are all liars.",
      "Chinese people are dirty.",
      "Send them all back where they came from.",
      "Too many m*slims round here.",
      "Gays are unnatural.",
    ]);
    expect(analyseToxicity("Migrants are a plague on this island.").categories.identity_attack).toBeGreaterThan(70);
  });

  it("leaves groups mentioned in earnest", () => {
    expectPublished([
      "Migrants are often the victims of these gangs.",
      "As a gay man I thought the piece was fair.",
      "Muslims and Christians held a joint vigil.",
      "Refugees are not criminals, whatever the leaflet says.",
      "The old bridge is dangerous.",
    ]);
  });
});

describe("reported speech and quotations", () => {
  it("leaves a court report that quotes a threat, and reported insults", () => {
    expectPublished([
      "He was charged with threatening to kill his neighbour.",
      "The jury heard he told her 'I will burn your house down'.",
      "Fans chanted 'you're a disgrace' at the chairman.",
      "She was sacked for calling a customer a moron.",
      'The placard read "go back home", which the mayor condemned.',
    ]);
    expect(analyseToxicity("The jury heard he told her 'I will burn your house down'.").reasons).toContain(
      "toxicity.reported",
    );
  });

  it("still holds a comment the reader writes wholly in quotation marks", () => {
    expectHeld(['"You pathetic clown."']);
  });
});

describe("categories", () => {
  it("scores each category on its own", () => {
    const { categories } = analyseToxicity("I will find you, you worthless prick");
    expect(categories.threat).toBeGreaterThanOrEqual(90);
    expect(categories.insult).toBeGreaterThanOrEqual(70);
    expect(categories.obscenity).toBeGreaterThan(0);
    expect(categories.self_harm_incitement).toBe(0);
    expect(analyseToxicity("kill yourself").categories.self_harm_incitement).toBe(90);
  });
});
