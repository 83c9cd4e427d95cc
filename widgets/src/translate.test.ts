/**
 * The frames' words (translate.ts): a frame formats the parsed messages the frame page sends
 * (server/widgets/frame-catalogue.ts) exactly as the server formats the catalogue's text, in every
 * locale, whatever the values; plurals follow each language's categories; nodes stand in place.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";

import { LOCALES } from "@/i18n/locales";
import { argumentsOf, messagesOf, parseMessage } from "@/i18n/messages";
import { translator } from "@/i18n/translate";

import { frameMessages } from "../../server/widgets/frame-catalogue";
import { frameWords, type StringKey } from "./translate";

const KEYS = [...messagesOf("widgets", "en").keys()] as StringKey[];

/** Values for a message's arguments: a count for plurals and numbers, any text for the rest. */
function valuesFor(key: StringKey) {
  const args = [...argumentsOf(parseMessage(messagesOf("widgets", "en").get(key)!))];
  return fc.record(
    Object.fromEntries(
      args.map(([name, kind]) => [
        name,
        kind === "plural" || kind === "number" ? fc.nat({ max: 2_000_000 }) : fc.string({ maxLength: 30 }),
      ]),
    ),
  );
}

describe("a frame's words", () => {
  it.each(LOCALES)("in %s are the server's, for any values", (locale) => {
    const frame = frameWords(locale, frameMessages(locale)).t;
    const server = translator("widgets", locale);
    const key = fc.constantFrom(...KEYS).chain((k) => valuesFor(k).map((values) => ({ k, values })));
    fc.assert(
      fc.property(key, ({ k, values }) => {
        expect(frame(k, values)).toBe(server(k, values));
      }),
      { numRuns: 300 },
    );
  });

  it("choose Arabic's six plural forms, and English's two", () => {
    const ar = frameWords("ar", frameMessages("ar")).t;
    const forms = [0, 1, 2, 3, 11, 100].map((n) => ar("commentCount", { n }));
    expect(new Set(forms).size).toBe(6);
    expect(forms.slice(0, 3)).toEqual(["لا تعليقات", "تعليق واحد", "تعليقان"]);
    const en = frameWords("en", frameMessages("en")).t;
    expect([1, 2].map((n) => en("commentCount", { n }))).toEqual(["1 comment", "2 comments"]);
    expect(en("editFor", { n: 1 })).toBe("You can edit this for 1 more minute.");
  });

  it("put nodes in their place in the sentence, wherever the language puts them", () => {
    const link = { link: true };
    expect(frameWords("en", frameMessages("en")).parts("feedOn", { page: link })).toEqual(["on ", link]);
    expect(frameWords("hi", frameMessages("hi")).parts("feedOn", { page: link })).toEqual([link, " पर"]);
    expect(frameWords("ta", frameMessages("ta")).parts("signedInAs", { name: link })[0]).toBe(link);
  });

  it("leave a value not given empty, say an unknown key as itself, and write numbers in the locale", () => {
    const { t, num } = frameWords("en", frameMessages("en"));
    expect(t("signedInAs")).toBe("Signed in as ");
    expect(t("commentCount")).toBe("0 comments");
    expect(t("noSuchKey" as StringKey)).toBe("noSuchKey");
    expect(num(1234567)).toBe("1,234,567");
    expect(frameWords("de", frameMessages("de")).num(1234567)).toBe("1.234.567");
  });

  it("take an account's override in place of the catalogue's message", () => {
    const own = new Map([["signedInAs", parseMessage("Welcome back, {name}")]]);
    const { t } = frameWords("en", frameMessages("en", own));
    expect(t("signedInAs", { name: "Ada" })).toBe("Welcome back, Ada");
    expect(t("comments")).toBe("Comments");
  });
});
