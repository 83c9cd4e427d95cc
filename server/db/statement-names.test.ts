import { describe, expect, it } from "vitest";

import { statementNames } from "./statement-names";

describe("statement names", () => {
  it("leaves a text's first execution unnamed and names it, the same each time, from the second", () => {
    const names = statementNames();
    const query = { sql: 'SELECT "id" FROM "stories" WHERE "slug" = $1' };
    expect(names.nameOf(query)).toBe("");
    const name = names.nameOf(query);
    expect(name).toMatch(/^mh_[\w-]{24}$/);
    expect(names.nameOf(query)).toBe(name);
    expect(names.nameOf({ sql: query.sql })).toBe(name);
  });

  it("gives different texts different names", () => {
    const names = statementNames();
    const a = { sql: "SELECT 1" };
    const b = { sql: "SELECT 2" };
    names.nameOf(a);
    names.nameOf(b);
    expect(names.nameOf(a)).not.toBe(names.nameOf(b));
  });

  it("names at most the bound, then sends the rest unnamed; the named keep their names", () => {
    const names = statementNames(2);
    const texts = ["SELECT 1", "SELECT 2", "SELECT 3"].map((sql) => ({ sql }));
    for (const query of texts) names.nameOf(query);
    const [one, two, three] = texts.map((query) => names.nameOf(query));
    expect(one).not.toBe("");
    expect(two).not.toBe("");
    expect(three).toBe("");
    expect(names.nameOf(texts[2]!)).toBe("");
    expect(names.nameOf(texts[0]!)).toBe(one);
    expect(names.size()).toBe(2);
  });
});
