/**
 * @mentions in any script (ops.ts): names in Devanagari with vowel signs, Tamil, Arabic, with
 * emoji and ZWJ sequences are found in the composer's text exactly where they were written as a
 * whole name, never inside a longer name or in the middle of a grapheme; the picker's query finds
 * them however the keyboard composed the text.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";

import { mentionAt, mentionMatches, mentionQuery, textToOps, type Mention, type Op } from "./ops";

const reader = (id: number, name: string): Mention => ({ id: String(id), name, slug: `r${id}`, avatar: null });
const NAMES = [
  "राम",
  "रामा",
  "प्रिया शर्मा",
  "க்ஷேத்ரா",
  "முருகன்",
  "نور الهدى",
  "نور",
  "Ana 👩🏽‍💻",
  "Ana 👩",
  "🇮🇳 Dev",
  "José",
  "Zoë",
];
const READERS = NAMES.map((name, i) => reader(i + 1, name));
const GRAPHEMES = new Intl.Segmenter("und", { granularity: "grapheme" });

/** The mentions of a body's ops, by reader id, in order. */
const mentioned = (ops: Op[]) =>
  ops.flatMap((op) => {
    const m = op.attributes?.mention as { id?: string } | undefined;
    return m ? [m.id] : [];
  });

describe("mentions in any script", () => {
  it("are found as whole names, never the start of a longer name or grapheme", () => {
    const [ram, rama, priya, kshetra, , noorHuda, noor, anaCoder, ana] = READERS;
    expect(mentioned(textToOps("@रामा और @राम आए", READERS, []))).toEqual([rama!.id, ram!.id]);
    // A vowel sign after the name makes another word: not a mention of "राम".
    expect(mentioned(textToOps("@रामि नमस्ते", [ram!], []))).toEqual([]);
    expect(mentioned(textToOps("नमस्ते @प्रिया शर्मा!", READERS, []))).toEqual([priya!.id]);
    expect(mentioned(textToOps("@க்ஷேத்ரா வணக்கம்", READERS, []))).toEqual([kshetra!.id]);
    expect(mentioned(textToOps("مرحبا @نور الهدى و @نور", READERS, []))).toEqual([noorHuda!.id, noor!.id]);
    expect(mentioned(textToOps("@Ana 👩🏽‍💻 and @Ana 👩 hi", READERS, []))).toEqual([anaCoder!.id, ana!.id]);
    // "Ana 👩" followed by a ZWJ is part of another emoji: not a mention of that name.
    expect(mentioned(textToOps("@Ana 👩‍🚀", [ana!], []))).toEqual([]);
    // Decomposed text (e + combining acute) finds the composed name, and the other way round.
    expect(mentioned(textToOps("@Jose\u0301 hola", READERS, []))).toEqual([READERS[10]!.id]);
    expect(mentioned(textToOps("@Zoë", [reader(99, "Zoe\u0308")], []))).toEqual(["99"]);
  });

  it("find every mention written, in order, and keep the rest of the text as typed", () => {
    const text = fc.oneof(
      fc.string({ unit: "grapheme", maxLength: 6 }),
      fc.constantFrom(" ", ", ", "! ", "\n", " नमस्ते ", " வணக்கம் ", " مرحبا ", " 🎉 "),
    );
    fc.assert(
      fc.property(
        fc.array(fc.tuple(text, fc.integer({ min: 0, max: READERS.length - 1 })), { maxLength: 6 }),
        text,
        (parts, tail) => {
          // Every mention is followed by a space or punctuation, as a reader writes one.
          const chosen = parts.map(([, i]) => READERS[i]!);
          const body = parts.map(([before, i]) => `${before} @${READERS[i]!.name} `).join("") + tail;
          const ops = textToOps(body, chosen, []);
          const ids = mentioned(ops);
          // Each written mention found (a generated grapheme may itself hold "@name": more is fine).
          let from = 0;
          for (const m of chosen) {
            const at = ids.indexOf(m.id, from);
            if (at < 0) {
              // Only a longer chosen name written at the same place may take its place.
              expect(chosen.some((o) => o.name.length > m.name.length && o.name.startsWith(m.name))).toBe(true);
            } else from = at + 1;
          }
          // The text is kept as typed (composed, trailing space dropped), and a mention ends on a
          // grapheme boundary of it.
          const written = body.normalize("NFC").replace(/\s+$/, "");
          const boundaries = new Set([...GRAPHEMES.segment(written)].map((g) => g.index)).add(written.length);
          let text = "";
          for (const op of ops) {
            const m = op.attributes?.mention as { name?: string } | undefined;
            text += m ? `@${m.name}` : typeof op.insert === "string" ? op.insert : "";
            if (m) expect(boundaries.has(text.length)).toBe(true);
          }
          expect(text).toBe(written.trim() ? written : "");
        },
      ),
      { numRuns: 500 },
    );
  });

  it("mentionAt finds a name only where it is followed by no letter, mark, digit, joiner or modifier", () => {
    fc.assert(
      fc.property(fc.constantFrom(...NAMES), fc.string({ unit: "grapheme", maxLength: 4 }), (name, after) => {
        const text = `x @${name}${after}`;
        const continues = /^[\p{L}\p{M}\p{N}\u200c\u200d\ufe0e\ufe0f\u{1f3fb}-\u{1f3ff}\u{e0020}-\u{e007f}]/u.test(
          after,
        );
        expect(mentionAt(text, name)).toBe(continues ? -1 : 2);
      }),
      { numRuns: 500 },
    );
  });

  it("the picker's query matches names in any script, composed or not", () => {
    expect(mentionQuery("नमस्ते @रा")).toEqual({ start: 7, query: "रा" });
    expect(mentionQuery("hi @")).toEqual({ start: 3, query: "" });
    expect(mentionQuery("mail a@b")).toBeNull();
    expect(mentionMatches(READERS, mentionQuery("@रा")!.query).map((m) => m.name)).toEqual(["राम", "रामा"]);
    expect(mentionMatches(READERS, mentionQuery("@jose\u0301")!.query).map((m) => m.name)).toEqual(["José"]);
    expect(mentionMatches(READERS, mentionQuery("@نو")!.query).map((m) => m.name)).toEqual(["نور الهدى", "نور"]);
    expect(mentionMatches(READERS, mentionQuery("@👩🏽")!.query).map((m) => m.name)).toEqual(["Ana 👩🏽‍💻"]);
    expect(mentionMatches(READERS, mentionQuery("@ம")!.query).map((m) => m.name)).toEqual(["முருகன்"]);
    fc.assert(
      fc.property(fc.constantFrom(...READERS), fc.integer({ min: 1, max: 3 }), (m, n) => {
        const first = [...GRAPHEMES.segment(m.name)]
          .slice(0, n)
          .map((g) => g.segment)
          .join("");
        fc.pre(!/\s/.test(first));
        const query = mentionQuery(`hello @${first.normalize("NFD")}`);
        expect(query).not.toBeNull();
        expect(mentionMatches(READERS, query!.query, READERS.length)).toContain(m);
      }),
      { numRuns: 200 },
    );
  });
});
