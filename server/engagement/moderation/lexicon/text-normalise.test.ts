/** The lexicon scorer's reading of a comment: disguises undone, quotations and clauses marked. */
import { describe, expect, it } from "vitest";

import { foldText, joinSpeltOut, normalise, quotedCharacters } from "./text-normalise";

const canon = (text: string) => normalise(text).canon;

describe("foldText", () => {
  it("reads fullwidth, accented and look-alike Cyrillic and Greek letters as plain Latin", () => {
    expect(foldText("Ｃｌｏｗｎ")).toBe("clown");
    expect(foldText("Crétin")).toBe("cretin");
    expect(foldText("уоu аrе")).toBe("you are");
    expect(foldText("ѕтυріd")).toBe("stupid");
    expect(foldText("“quoted” ‘too’ — dash")).toBe(`"quoted" 'too' - dash`);
  });

  it("keeps capitals when asked", () => {
    expect(foldText("Visit Shop.Example", { keepCase: true })).toBe("Visit Shop.Example");
  });
});

describe("joinSpeltOut", () => {
  it("joins letters spelt out with one separator, and keeps words apart where the gap is wider", () => {
    expect(joinSpeltOut("s h u t  u p").text).toBe("shut  up");
    expect(joinSpeltOut("w-a-n-k-e-r").text).toBe("wanker");
    expect(joinSpeltOut("c.l.o.w.n and friends").text).toBe("clown and friends");
    expect(joinSpeltOut("call 0 7 7 0 0").text).toBe("call 07700");
  });

  it("leaves initials and short runs alone", () => {
    expect(joinSpeltOut("J. K. Rowling wrote it").text).toBe("J. K. Rowling wrote it");
    expect(joinSpeltOut("plan B is a good one").text).toBe("plan B is a good one");
  });
});

describe("quotedCharacters", () => {
  it("marks double and single quotations but not apostrophes", () => {
    const text = `He said 'go away' and it's "over" now`;
    const quoted = quotedCharacters(text);
    const marked = [...text].filter((_, i) => quoted[i]).join("");
    expect(marked).toBe(`'go away'"over"`);
  });
});

describe("normalise", () => {
  it("reads leetspeak, signs and masks as the listed word they can only be", () => {
    expect(canon("ur a m0r0n")).toBe("ur a moron");
    expect(canon("what a pr!ck")).toBe("what a prick");
    expect(canon("total a$$hat")).toBe("total asshat");
    expect(canon("f**king sh*t")).toBe("fucking shit");
    expect(canon("Y0U 4R3 TH1CK")).toBe("you are thick");
  });

  it("leaves codes, years and prices as they are", () => {
    expect(canon("the M25 in 1990s cost £4.5m")).toBe("the m25 in 1990s cost £4.5m");
    expect(canon("B2B sales up 3%")).toBe("b2b sales up 3");
  });

  it("reads stretched letters once or twice, whichever is a word", () => {
    expect(canon("sooooo stuuuupid")).toBe("so stupid");
    expect(canon("killlll")).toBe("kill");
    expect(canon("Firsttttt")).toBe("first");
  });

  it("splits words spelt out together into the listed words they are made of", () => {
    expect(canon("g o d i e")).toBe("go die");
    expect(normalise("g o d i e").tokens.every((t) => t.disguised)).toBe(true);
  });

  it("expands contractions and French elisions", () => {
    expect(canon("you're gonna regret it")).toBe("you are going to regret it");
    expect(canon("T'es nul")).toBe("tu es nul");
  });

  it("numbers sentences and clauses, and marks quoted words", () => {
    const { tokens } = normalise(`Fine. He wrote "you lose", then left`);
    const you = tokens.find((t) => t.text === "you")!;
    const fine = tokens.find((t) => t.text === "fine")!;
    const left = tokens.find((t) => t.text === "left")!;
    expect(you.quoted).toBe(true);
    expect(left.quoted).toBe(false);
    expect(fine.sentence).toBeLessThan(you.sentence);
    expect(you.clause).not.toBe(left.clause);
  });
});
