import { describe, expect, it } from "vitest";

import { ZBulkRequests, ZSearchQuery, ZStoredCollectionRules, ZStoriesQuery } from "./content.schema";

const UUID = "0b7f9f4e-3c1a-4d2b-9e8f-1a2b3c4d5e6f";

describe("ZStoriesQuery", () => {
  it("defaults limit 20, offset 0, newest first", () => {
    expect(ZStoriesQuery.parse({})).toMatchObject({
      limit: 20,
      offset: 0,
      order: "published",
      randomize: false,
      excludeIds: [],
      fields: undefined,
    });
  });

  it("caps limit at 100 and refuses non-numbers, zero, negatives and fractions", () => {
    expect(ZStoriesQuery.parse({ limit: "1000" }).limit).toBe(100);
    for (const limit of ["abc", "0", "-1", "2.5", "", "1e3", " 7 ", "+5", "0x10", "010"])
      expect(ZStoriesQuery.safeParse({ limit }).success, limit).toBe(false);
  });

  it("splits lists given comma-separated or repeated", () => {
    expect(ZStoriesQuery.parse({ fields: "headline, slug,,", "not-story-content-ids": [UUID, UUID] })).toMatchObject({
      fields: ["headline", "slug"],
      excludeIds: [UUID, UUID],
    });
    expect(ZStoriesQuery.safeParse({ "not-story-content-ids": `${UUID},42` }).success).toBe(false);
  });

  it("maps story-order strictly and story-group leniently", () => {
    expect(ZStoriesQuery.parse({ "story-order": "last-updated" }).order).toBe("last-published");
    expect(ZStoriesQuery.parse({ "story-group": "stack-17" }).order).toBe("published");
    expect(ZStoriesQuery.parse({ "story-group": "oldest" }).order).toBe("oldest");
    expect(ZStoriesQuery.parse({ "story-order": "oldest", "story-group": "top" }).order).toBe("oldest");
    expect(ZStoriesQuery.safeParse({ "story-order": "stack-17" }).success).toBe(false);
  });

  it("treats a story-group named like an Object.prototype member as any other unknown group (newest first)", () => {
    for (const group of ["constructor", "toString", "__proto__", "hasOwnProperty"])
      expect(ZStoriesQuery.parse({ "story-group": group }).order, group).toBe("published");
  });
});

describe("ZSearchQuery", () => {
  it("sorts by relevance with q and newest first without; reads epoch ms", () => {
    expect(ZSearchQuery.parse({ q: "budget" }).sort).toBe("relevance");
    expect(ZSearchQuery.parse({ q: "  " })).toMatchObject({ q: undefined, sort: "desc" });
    expect(ZSearchQuery.parse({ q: "x", sort: "ascending" }).sort).toBe("asc");
    expect(ZSearchQuery.parse({ "published-after": "1700000000000" }).publishedAfter).toEqual(
      new Date(1_700_000_000_000),
    );
    expect(ZSearchQuery.safeParse({ "published-after": "2024-01-01" }).success).toBe(false);
  });

  it("reads epoch ms in canonical decimal digits only, before 1970 too", () => {
    expect(ZSearchQuery.parse({ "published-before": "-86400000" }).publishedBefore).toEqual(new Date(-86_400_000));
    for (const bad of ["1.7e12", "0x18BCFE56800", "+1700000000000", " 1700000000000", "01700000000000", "-0"])
      expect(ZSearchQuery.safeParse({ "published-after": bad }).success, bad).toBe(false);
  });
});

describe("ZBulkRequests", () => {
  it("reads collection and stories requests, numbers or strings, stories by default", () => {
    const parsed = ZBulkRequests.parse({
      a: { _type: "collection", slug: "home", limit: 3, "story-fields": "headline" },
      b: { "story-group": "top", limit: "2", "section-id": 4 },
    });
    expect(parsed.a).toEqual({
      type: "collection",
      slug: "home",
      query: { itemType: undefined, excludeStoryIds: [], storyFields: ["headline"], limit: 3, offset: 0 },
    });
    expect(parsed.b).toMatchObject({ type: "stories", query: { order: "published", limit: 2, sectionId: 4 } });
  });

  it("refuses unknown types, empty and oversized bodies", () => {
    expect(ZBulkRequests.safeParse({ a: { _type: "video" } }).success).toBe(false);
    expect(ZBulkRequests.safeParse({}).success).toBe(false);
    expect(
      ZBulkRequests.safeParse(Object.fromEntries(Array.from({ length: 26 }, (_, i) => [`r${i}`, {}]))).success,
    ).toBe(false);
  });
});

describe("ZStoredCollectionRules", () => {
  it("keeps readable rules and drops the rest", () => {
    expect(
      ZStoredCollectionRules.parse({ "section-ids": [1, 2], "tag-slugs": "x", sort: "last-published-at", other: 1 }),
    ).toEqual({ "section-ids": [1, 2], sort: "last-published-at" });
    expect(ZStoredCollectionRules.parse(null)).toEqual({});
  });
});
