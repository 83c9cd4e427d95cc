import { describe, expect, it } from "vitest";

import { acceptedTags, chooseLocale, directionOf, LOCALES, matchLocale } from "./locales";

describe("choosing a locale", () => {
  it("matches a tag exactly, then by its language", () => {
    expect(matchLocale("pt-BR")).toBe("pt-BR");
    expect(matchLocale("pt_br")).toBe("pt-BR");
    expect(matchLocale("pt-PT")).toBe("pt-BR");
    expect(matchLocale("es-MX")).toBe("es");
    expect(matchLocale("hi-IN")).toBe("hi");
    expect(matchLocale("AR")).toBe("ar");
    expect(matchLocale("zh-CN")).toBeNull();
    expect(matchLocale("hi", ["en", "ta"])).toBeNull();
    expect(matchLocale("")).toBeNull();
    expect(matchLocale("'><script>")).toBeNull();
    expect(matchLocale("__proto__")).toBeNull();
  });

  it("reads Accept-Language by q-value, keeping the order of equals", () => {
    expect(acceptedTags("fr-CH, fr;q=0.9, en;q=0.8, de;q=0.7, *;q=0.5")).toEqual(["fr-CH", "fr", "en", "de"]);
    expect(acceptedTags("en;q=0, ta")).toEqual(["ta"]);
    expect(acceptedTags("de;q=0.5, hi;q=0.9")).toEqual(["hi", "de"]);
    expect(acceptedTags(null)).toEqual([]);
    expect(acceptedTags(";;;,,,q=")).toEqual([]);
  });

  it("takes the first candidate an offered locale matches, else the fallback", () => {
    expect(chooseLocale([null, "zh", ...acceptedTags("ar-EG,en;q=0.5")], LOCALES, "en")).toBe("ar");
    expect(chooseLocale(["ar"], ["en", "hi"], "hi")).toBe("hi");
  });

  it("writes Arabic right to left and the others left to right", () => {
    expect(LOCALES.filter((l) => directionOf(l) === "rtl")).toEqual(["ar"]);
  });
});
