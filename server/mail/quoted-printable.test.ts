/**
 * The quoted-printable encoder (./quoted-printable.ts) against nodemailer's own, over text of every
 * script (generated code points of the whole of Unicode, lone surrogates included) and real
 * sentences in eight languages (the moderation samples): the same characters, and whole messages
 * composed with the pre-encoded parts are the same bytes as nodemailer's.
 */
import fc from "fast-check";
import MailComposer from "nodemailer/lib/mail-composer";
import { encode, wrap } from "nodemailer/lib/qp";
import { describe, expect, it } from "vitest";

import { readSentences, SAMPLED } from "../engagement/moderation/language/sentences/read";
import { encodeQuotedPrintable, quotedPrintablePart } from "./quoted-printable";

const SENTENCES = SAMPLED.flatMap((language) => readSentences(language, "tuning").slice(0, 40));
const WORDS = SENTENCES.flatMap((s) => s.split(/\s+/));
/** Pieces that sit at the edges of the rules: line ends, trailing blanks, "=", dots, tabs. */
const EDGES = fc.constantFrom(" ", "\t", "\n", "\r\n", "=", ".", " \n", "\t\r\n", "==3D", "\u00a0", "\ud83d", "\ude00");
const anyText = fc.oneof(
  fc.string({ unit: "binary", maxLength: 300 }),
  fc.string({ unit: "grapheme", maxLength: 300 }),
  fc.constantFrom(...SENTENCES),
  fc.array(fc.oneof(fc.constantFrom(...WORDS), EDGES), { maxLength: 120 }).map((w) => w.join(" ")),
  fc.array(fc.oneof(fc.string({ unit: "binary", maxLength: 12 }), EDGES), { maxLength: 60 }).map((w) => w.join("")),
);

const nonEmpty = anyText.filter((text) => text.length > 0);

async function compose(
  text: ReturnType<typeof quotedPrintablePart>,
  html: ReturnType<typeof quotedPrintablePart>,
): Promise<string> {
  // A fixed boundary (nodemailer reads `baseBoundary`; its types leave it out), so two builds compare.
  const options: ConstructorParameters<typeof MailComposer>[0] & { baseBoundary: string } = {
    from: '"The Gazette" <news@gazette.test>',
    to: "reader@example.com",
    subject: "Ünïcode and plain",
    text,
    html,
    textEncoding: "quoted-printable",
    messageId: "<1@gazette.test>",
    date: new Date("2026-11-30T05:00:00Z"),
    baseBoundary: "fixed",
    headers: { "List-Unsubscribe": "<https://news.test/u/1>" },
  };
  const message = new MailComposer(options).compile();
  return new Promise((resolve, reject) =>
    message.build((error, raw) => (error ? reject(error) : resolve(raw.toString("latin1")))),
  );
}

describe("encodeQuotedPrintable", () => {
  it("escapes what RFC 2045 says, and nothing else", () => {
    expect(encodeQuotedPrintable("a=b")).toBe("a=3Db");
    expect(encodeQuotedPrintable("café")).toBe("caf=C3=A9");
    expect(encodeQuotedPrintable("end \nnext\t")).toBe("end=20\nnext=09");
    expect(encodeQuotedPrintable("😀")).toBe("=F0=9F=98=80");
    expect(encodeQuotedPrintable("\ud83d.")).toBe("=EF=BF=BD.");
  });

  it("is nodemailer's encoding, character for character, for text of every script", () => {
    fc.assert(
      fc.property(anyText, (text) => {
        expect(encodeQuotedPrintable(text)).toBe(encode(Buffer.from(text, "utf-8")));
      }),
      { numRuns: 2000 },
    );
  });

  it("makes the same message nodemailer makes from the plain text and HTML", async () => {
    await fc.assert(
      // nodemailer leaves an empty part out; the transport gives it no empty part either.
      fc.asyncProperty(nonEmpty, nonEmpty, async (text, html) => {
        const theirs = await compose(text, html);
        const ours = await compose(quotedPrintablePart("text/plain", text), quotedPrintablePart("text/html", html));
        expect(ours).toBe(theirs);
      }),
      { numRuns: 300 },
    );
  });

  it("leaves plain short lines as they are, and encodes them past 128 kB as nodemailer does", async () => {
    const short = "Plain ASCII in short lines.\n".repeat(10);
    expect(quotedPrintablePart("text/plain", short)).toBe(short);
    const long = "Plain ASCII in short lines.\n".repeat(5000);
    expect(await compose(quotedPrintablePart("text/plain", long), "<p>x</p>")).toBe(await compose(long, "<p>x</p>"));
    expect(quotedPrintablePart("text/plain", long)).toHaveProperty("raw");
  });

  it("keeps every line of a long paragraph within 76 characters", () => {
    const part = wrap(encodeQuotedPrintable(SENTENCES.join(" ")), 76);
    for (const line of part.split("\r\n")) expect(line.length).toBeLessThanOrEqual(76);
  });
});
