/** Spam rules, with comments written for these tests (none from the labelled corpus). */
import { describe, expect, it } from "vitest";

import { analyseSpam } from "./spam-rules";

const reader = { isNew: false, publishedComments: 12, firstCommentAt: new Date("2026-01-01T00:00:00Z") };
const spam = (text: string, links: string[] = []) => analyseSpam({ text, links, reader });
const spamTexts = (texts: string[]) => texts.filter((text) => !spam(text).isSpam);
const cleanTexts = (texts: string[]) => texts.filter((text) => spam(text).isSpam);

describe("analyseSpam", () => {
  it("holds an offer beside a way to take it up, on any domain", () => {
    expect(
      spamTexts([
        "Garden furniture 60% off until Sunday: patio-kings.shop",
        "Quick loans for anyone, no checks, text CASH to 07700 900 431",
        "New $FROG coin launching, 500x easy, join the Telegram",
        "I earn £900 a week from my kitchen table, details in my bio",
        "Cheap replica trainers, worldwide shipping, order on WhatsApp +44 7700 900777",
        "Need a hacker to fix your credit score? Email fixit@mailbox.test",
        "Lonely ladies near you want to meet, see link",
        "Claim your free £50 gift card now: gift-claims.example",
      ]),
    ).toEqual([]);
  });

  it("puts disguised links back together and holds them", () => {
    const result = spam("Great offers at cheap-shop [dot] com and w w w . deals . net");
    expect(result.isSpam).toBe(true);
    expect(result.reasons).toContain("spam.disguised_link");
    expect(spam('<a href="http://pills.example">click</a>').isSpam).toBe(true);
  });

  it("leaves sources, helplines, shops mentioned and crypto discussed", () => {
    expect(
      cleanTexts([
        "The full ruling is at judiciary.uk/judgments if you want the detail.",
        "Citizens Advice helped me, their line is 0800 144 8848.",
        "The bakery on Mill Lane does a lovely sourdough, not cheap though.",
        "Bitcoin lost a third of its value this year; the article is right to warn people.",
        "I saved about 20% by switching supplier, worth a look.",
        "Email the letters desk at letters@paper.example if you disagree.",
        "Loans to councils were the real story here.",
      ]),
    ).toEqual([]);
  });

  it("gives a spam score of 50 at one point, rising towards 100", () => {
    expect(spam("nothing to see").spam).toBe(0);
    const result = spam("Designer watches 80% off today only, order now at watch-outlet.example");
    expect(result.points).toBeGreaterThan(1);
    expect(result.spam).toBeGreaterThan(50);
    expect(result.spam).toBeLessThan(100);
  });
});
