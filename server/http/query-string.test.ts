import { describe, expect, it } from "vitest";

import { parseQueryString } from "./query-string";

const pairs = (params: URLSearchParams) => [...params];

describe("parseQueryString", () => {
  it("reads what URLSearchParams reads, for the queries clients send and the ones they should not", () => {
    const cases = [
      "",
      "?",
      "?a=1",
      "a=1&b=2",
      "?page_ids=aHR0cHM6Ly9leGFtcGxlLmNvbS9h%2CaHR0cHM6Ly9leGFtcGxlLmNvbS9i",
      "?q=caf%C3%A9+au+lait&limit=20",
      "?a+b=c+d&%2B=%2B",
      "?ids[]=1&ids[]=2&ids%5B%5D=3",
      "?&&a=&=b&=&c",
      "?a==b&b=c=d",
      "?bad=%zz&ok=1",
      "?half=%E2%82&ok=%E2%82%AC",
      "?lone=%ED%A0%80",
      "?ff=%ff%fe",
      "?pct=%&pct2=%2",
      "?emoji=%F0%9F%98%80&raw=\u00e9",
      "?j%77t=token&%6Bey=k",
      "?a=1&?b=%zz",
    ];
    for (const search of cases) {
      expect(pairs(parseQueryString(search)), search).toEqual(pairs(new URLSearchParams(search)));
    }
  });

  it("agrees with URLSearchParams on random text of the characters that matter", () => {
    const alphabet = ["a", "b", "=", "&", "+", "%", "2", "B", "C", "3", "F", "e", "8", "é", "😀", "?", " "];
    let seed = 42;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed / 2_147_483_648;
    };
    for (let n = 0; n < 20_000; n++) {
      const length = Math.floor(random() * 24);
      const search = Array.from({ length }, () => alphabet[Math.floor(random() * alphabet.length)]).join("");
      expect(pairs(parseQueryString(search)), search).toEqual(pairs(new URLSearchParams(search)));
    }
  });
});
