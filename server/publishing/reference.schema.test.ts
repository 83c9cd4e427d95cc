import { describe, expect, it } from "vitest";

import { ZAuthorParams, ZEntityListQuery, ZEntityRelationshipParams } from "./reference.schema";

describe("numbers in the reference reads' parameters", () => {
  it("takes entity ids only in canonical decimal digits, in lists too", () => {
    expect(ZEntityListQuery.parse({ ids: "1,2", id: "3" })).toMatchObject({ ids: [1, 2], id: 3 });
    expect(ZEntityListQuery.parse({ ids: ["4", "5"] })).toMatchObject({ ids: [4, 5] });
    const taken = ["0x10", "1e1", "+5", " 5", "5 ", "05", "1.0", "-1", "2147483648"].flatMap((bad) =>
      [{ ids: bad }, { ids: `1,${bad}` }, { ids: ["1", bad] }, { id: bad }]
        .filter((query) => ZEntityListQuery.safeParse(query).success)
        .map((query) => JSON.stringify(query)),
    );
    expect(taken).toEqual([]);
  });

  it("takes path ids only in canonical decimal digits", () => {
    for (const bad of ["0x10", "1e1", "+5", "05", " 5"]) {
      expect(ZAuthorParams.safeParse({ authorId: bad }).success, bad).toBe(false);
      expect(ZEntityRelationshipParams.safeParse({ id: bad, subentity: ["players"] }).success, bad).toBe(false);
    }
    // In a relationship path, digits are an entity id (anything else is a relation name).
    for (const bad of ["05", "00"])
      expect(ZEntityRelationshipParams.safeParse({ id: "1", subentity: ["players", bad] }).success, bad).toBe(false);
  });
});
