/**
 * The catalogue (docs/i18n.md): every surface has every shipped locale; each locale has exactly the
 * English keys; every message parses, uses only the arguments its English message passes (of the
 * same kind), carries no markup, and a translation is not English left in place.
 */
import { describe, expect, it } from "vitest";

import { CATALOGUES } from "./catalogues.generated";
import { LOCALES } from "./locales";
import { argumentsOf, messagesOf, parseMessage, SURFACES } from "./messages";
import { formatMessage, translator } from "./translate";

describe.each(SURFACES)("the %s catalogue", (surface) => {
  const english = messagesOf(surface, "en");

  it("has a table for every shipped locale and no other", () => {
    expect(Object.keys(CATALOGUES[surface]).sort()).toEqual([...LOCALES].sort());
  });

  it.each(LOCALES)("in %s has exactly the English keys", (locale) => {
    const keys = [...messagesOf(surface, locale).keys()].sort();
    const missing = [...english.keys()].filter((k) => !messagesOf(surface, locale).has(k));
    const extra = keys.filter((k) => !english.has(k));
    expect({ missing, extra }).toEqual({ missing: [], extra: [] });
  });

  it.each(LOCALES)("in %s parses, and asks only for English's arguments", (locale) => {
    const problems: string[] = [];
    for (const [key, message] of messagesOf(surface, locale)) {
      const reference = english.get(key);
      if (reference === undefined) continue;
      try {
        const args = argumentsOf(parseMessage(message));
        const allowed = argumentsOf(parseMessage(reference));
        for (const [name, kind] of args) {
          const want = allowed.get(name);
          if (!want) problems.push(`${key}: {${name}} is not an argument of the English message`);
          else if (kind !== "argument" && want !== "argument" && kind !== want)
            problems.push(`${key}: {${name}} is a ${kind} here, a ${want} in English`);
        }
        if (/<\/?[a-z][^>]*>/i.test(message)) problems.push(`${key}: markup`);
        if (message !== message.trim()) problems.push(`${key}: leading or trailing space`);
      } catch (error) {
        problems.push(`${key}: ${(error as Error).message}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it.each(LOCALES.filter((l) => l !== "en"))("in %s is translated, not English left in place", (locale) => {
    const same = [...messagesOf(surface, locale)].filter(([key, m]) => m === english.get(key) && /\p{L}{4}/u.test(m));
    expect(same.length, same.map(([k]) => k).join(", ")).toBeLessThanOrEqual(Math.ceil(english.size * 0.05));
  });
});

describe("formatting", () => {
  it("fills arguments, chooses plurals by the locale's rules and leaves a missing value empty", () => {
    expect(formatMessage("en", "{n, plural, one {# comment} other {# comments}}", { n: 1 })).toBe("1 comment");
    expect(formatMessage("ar", "{n, plural, zero {لا تعليقات} two {تعليقان} other {# تعليق}}", { n: 2 })).toBe(
      "تعليقان",
    );
    expect(formatMessage("fr", "{n, plural, one {# commentaire} other {# commentaires}}", { n: 0 })).toBe(
      "0 commentaire",
    );
    expect(formatMessage("en", "Hello {name}", {})).toBe("Hello ");
  });

  it("lets an override win over the catalogue, key by key", () => {
    const key = [...messagesOf("widgets", "en").keys()][0] as never;
    const t = translator("widgets", "en", new Map([[key, "Our own words"]]));
    expect(t(key)).toBe("Our own words");
    expect(translator("widgets", "en")(key)).toBe(messagesOf("widgets", "en").get(key));
  });
});
