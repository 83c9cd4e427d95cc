import { describe, expect, it } from "vitest";

import {
  effectiveSort,
  EMPTY_LIST_STATE,
  listInputFromState,
  listStateFromParams,
  listStateToParams,
  searchPlan,
  summarizeBulk,
  ZBulkStoriesInput,
  zeroFillDays,
  ZListStoriesInput,
} from "./story-finding.schema";

describe("searchPlan", () => {
  it("runs words of 3+ characters as a full-text query, the last word as a prefix", () => {
    expect(searchPlan("Tram lin")).toEqual({ kind: "fulltext", tsquery: "tram & lin:*", pattern: "%Tram lin%" });
  });
  it("keeps letters and digits only, so the tsquery syntax cannot be injected", () => {
    expect(searchPlan("budget' | !x & (2026):*")).toMatchObject({ kind: "fulltext", tsquery: "budget & x & 2026:*" });
    expect(searchPlan("Zürich café")).toMatchObject({ tsquery: "zürich & café:*" });
    // Vowel signs and viramas are marks: they stay inside the word, in any script.
    expect(searchPlan("किसानों की फसल")).toMatchObject({ tsquery: "किसानों & की & फसल:*" });
    expect(searchPlan("விவசாயிகள் அறுவடை")).toMatchObject({ tsquery: "விவசாயிகள் & அறுவடை:*" });
  });
  it("falls back to the headline for short words and for punctuation only, with LIKE wildcards escaped", () => {
    expect(searchPlan("EU")).toEqual({ kind: "headline", pattern: "%EU%" });
    expect(searchPlan("50%_\\")).toEqual({ kind: "headline", pattern: "%50\\%\\_\\\\%" });
    expect(searchPlan("  ")).toEqual({ kind: "none" });
    expect(searchPlan(undefined)).toEqual({ kind: "none" });
  });
  it("uses at most 10 words", () => {
    const plan = searchPlan(Array.from({ length: 12 }, (_, i) => `word${i}`).join(" "));
    expect(plan.kind === "fulltext" && plan.tsquery.split(" & ")).toHaveLength(10);
  });
});

describe("effectiveSort", () => {
  it("defaults to relevance when searching, else newest update; relevance needs a search", () => {
    expect(effectiveSort(undefined, true)).toBe("relevance");
    expect(effectiveSort(undefined, false)).toBe("updated-desc");
    expect(effectiveSort("relevance", false)).toBe("updated-desc");
    expect(effectiveSort("headline", true)).toBe("headline");
  });
});

describe("the list's state in the URL", () => {
  it("round-trips every field and leaves defaults out", () => {
    const state = {
      ...EMPTY_LIST_STATE,
      q: "tram line",
      status: "PUBLISHED" as const,
      section: 3,
      author: 4,
      tag: 5,
      mine: true,
      scheduled: true,
      date: "published" as const,
      from: "2026-01-01",
      to: "2026-01-31",
      sort: "headline" as const,
      page: 3,
    };
    const query = listStateToParams(state);
    expect(listStateFromParams(new URLSearchParams(query))).toEqual(state);
    expect(listStateToParams(EMPTY_LIST_STATE)).toBe("");
  });
  it("drops malformed values instead of failing", () => {
    const state = listStateFromParams(
      new URLSearchParams("status=nope&section=-1&author=abc&tag=99999999999&from=2026-02-30&sort=x&page=0&date=z"),
    );
    expect(state).toEqual(EMPTY_LIST_STATE);
  });
  it("turns a state into the list's input, which the schema accepts", () => {
    const input = listInputFromState({ ...EMPTY_LIST_STATE, q: " a ", status: "DRAFT", page: 3 }, 25);
    expect(input).toMatchObject({ search: "a", status: "DRAFT", offset: 50, limit: 25 });
    expect(ZListStoriesInput.safeParse(input).success).toBe(true);
  });
});

describe("ZListStoriesInput", () => {
  it("refuses a range that ends before it starts, impossible days and out-of-bounds paging", () => {
    expect(ZListStoriesInput.safeParse({ from: "2026-02-02", to: "2026-02-01" }).success).toBe(false);
    expect(ZListStoriesInput.safeParse({ from: "2026-02-30" }).success).toBe(false);
    expect(ZListStoriesInput.safeParse({ limit: 101 }).success).toBe(false);
    expect(ZListStoriesInput.safeParse({ offset: -1 }).success).toBe(false);
    expect(ZListStoriesInput.safeParse({ search: "x".repeat(201) }).success).toBe(false);
    expect(ZListStoriesInput.parse({})).toMatchObject({ offset: 0, limit: 25, dateField: "updated" });
  });
});

describe("ZBulkStoriesInput", () => {
  const id = "6f1e8a52-3c1b-4d1e-9a55-0c6b7f3e2a10";
  it("needs a collection for add-to-collection and only then, at most 100 distinct ids", () => {
    expect(ZBulkStoriesInput.safeParse({ ids: [id], action: "add-to-collection" }).success).toBe(false);
    expect(ZBulkStoriesInput.safeParse({ ids: [id], action: "add-to-collection", collectionId: 1 }).success).toBe(true);
    expect(ZBulkStoriesInput.safeParse({ ids: [id], action: "publish", collectionId: 1 }).success).toBe(false);
    expect(ZBulkStoriesInput.safeParse({ ids: [id, id], action: "publish" }).success).toBe(false);
    expect(ZBulkStoriesInput.safeParse({ ids: [], action: "publish" }).success).toBe(false);
    expect(ZBulkStoriesInput.safeParse({ ids: ["not-a-uuid"], action: "publish" }).success).toBe(false);
    const many = Array.from({ length: 101 }, (_, i) => `6f1e8a52-3c1b-4d1e-9a55-${String(i).padStart(12, "0")}`);
    expect(ZBulkStoriesInput.safeParse({ ids: many, action: "submit" }).success).toBe(false);
    expect(ZBulkStoriesInput.safeParse({ ids: many.slice(1), action: "submit" }).success).toBe(true);
  });
});

describe("summarizeBulk", () => {
  const ok = (id: string) => ({ id, headline: id, ok: true, reason: null });
  const no = (id: string, reason: string) => ({ id, headline: id, ok: false, reason });
  it("says how many were done and why the others were refused", () => {
    expect(summarizeBulk({ action: "publish", results: [ok("a"), ok("b")] })).toBe("2 published");
    expect(summarizeBulk({ action: "publish", results: [ok("a"), no("b", "not approved (draft)")] })).toBe(
      "1 published, 1 refused: not approved (draft)",
    );
    expect(
      summarizeBulk({
        action: "delete",
        results: [no("a", "not a draft (published)"), no("b", "no such story"), no("c", "not a draft (published)")],
      }),
    ).toBe("0 deleted, 3 refused: not a draft (published) (2); no such story (1)");
  });
});

describe("days", () => {
  it("zero-fills the days without counts and totals them", () => {
    const filled = zeroFillDays(
      ["2026-03-01", "2026-03-02", "2026-03-03"],
      new Map([["2026-03-02", 2]]),
      new Map([
        ["2026-03-01", 5],
        ["2026-02-01", 9],
      ]),
    );
    expect(filled.days).toEqual([
      { day: "2026-03-01", published: 0, votes: 5 },
      { day: "2026-03-02", published: 2, votes: 0 },
      { day: "2026-03-03", published: 0, votes: 0 },
    ]);
    expect(filled.totals).toEqual({ published: 2, votes: 5 });
  });
});
