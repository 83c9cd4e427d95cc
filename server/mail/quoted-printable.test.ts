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
import { encodeQuotedPrintable, mailParts } from "./quoted-printable";

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

/** A mail's body as the transport gives it: its text, and its HTML or none. */
const anyBody = fc.record({ text: anyText, html: fc.option(anyText, { nil: undefined }) });

async function compose(parts: ReturnType<typeof mailParts>): Promise<string> {
  // A fixed boundary (nodemailer reads `baseBoundary`; its types leave it out), so two builds compare.
  const options: ConstructorParameters<typeof MailComposer>[0] & { baseBoundary: string } = {
    from: '"The Gazette" <news@gazette.test>',
    to: "reader@example.com",
    subject: "Ünïcode and plain",
    ...parts,
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

  it("makes the same message nodemailer makes, whole, for a mail of text, of HTML or of both", async () => {
    await fc.assert(
      fc.asyncProperty(anyBody, async ({ text, html }) => {
        const theirs = await compose(html === undefined ? { text } : { text, html });
        expect(await compose(mailParts(text, html, "quoted-printable"))).toBe(theirs);
      }),
      {
        numRuns: 400,
        examples: [[{ text: "Ünïcode only, no HTML.", html: undefined }], [{ text: "", html: "<p>Ü</p>" }]],
      },
    );
  });

  it("leaves plain short lines as they are, and encodes them past 128 kB as nodemailer does", async () => {
    const short = "Plain ASCII in short lines.\n".repeat(10);
    expect(mailParts(short, "<p>Ü</p>", "quoted-printable").text).toBe(short);
    const long = "Plain ASCII in short lines.\n".repeat(5000);
    const parts = mailParts(long, "<p>x</p>", "quoted-printable");
    expect(parts.text).toHaveProperty("raw");
    expect(await compose(parts)).toBe(await compose({ text: long, html: "<p>x</p>" }));
  });

  it("keeps every line of a long paragraph within 76 characters", () => {
    const part = wrap(encodeQuotedPrintable(SENTENCES.join(" ")), 76);
    for (const line of part.split("\r\n")) expect(line.length).toBeLessThanOrEqual(76);
  });
});
