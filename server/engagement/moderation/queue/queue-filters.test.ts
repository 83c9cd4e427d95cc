import { describe, expect, it } from "vitest";

import { parseQueueSearchParams, queueSearchParams, ZQueueFilters } from "./queue-filters.schema";

describe("ZQueueFilters", () => {
  it("trims terms and drops empty ones", () => {
    expect(ZQueueFilters.parse({ q: "  budget  ", page: " ", reader: "", from: "", to: undefined })).toEqual({
      q: "budget",
    });
  });

  it("bounds every term and checks reasons and days", () => {
    const issues = (input: Record<string, string>) =>
      ZQueueFilters.safeParse(input).error?.issues.map((i) => `${String(i.path[0])}: ${i.message}`) ?? [];
    expect(issues({ q: "x".repeat(200) })).toEqual([]);
    expect(issues({ q: "x".repeat(201) })).toEqual(["q: must be at most 200 characters"]);
    expect(issues({ reader: "a\nb" })).toEqual(["reader: must not contain control characters"]);
    expect(issues({ reason: "toxicity.insult" })).toEqual([]);
    expect(issues({ reason: "Toxicity insult" })).toEqual(["reason: must be a reason code such as toxicity.insult"]);
    expect(issues({ from: "2026-02-29" })).toEqual(["from: is not a day of the calendar"]);
    expect(issues({ from: "2028-02-29" })).toEqual([]);
    expect(issues({ to: "25/11/2026" })).toEqual(["to: must be a day as YYYY-MM-DD"]);
    expect(issues({ from: "2026-11-25", to: "2026-11-24" })).toEqual(["to: must not be before from"]);
    expect(issues({ from: "2026-11-25", to: "2026-11-25" })).toEqual([]);
  });
});

describe("the page's URL", () => {
  it("round-trips a view, order and filters, leaving defaults out", () => {
    const state = {
      view: "rejected" as const,
      order: "oldest" as const,
      filters: { q: "100% & more", reader: "ada@example.com", from: "2026-11-01" },
    };
    const query = queueSearchParams(state);
    expect(query).toBe("view=rejected&order=oldest&q=100%25+%26+more&reader=ada%40example.com&from=2026-11-01");
    expect(parseQueueSearchParams(new URLSearchParams(query))).toEqual({ ...state, invalid: [] });
    expect(queueSearchParams({ view: "pending", order: "newest", filters: {} })).toBe("");
  });

  it("reads Next's searchParams object, falling back on bad views and leaving bad filters out", () => {
    expect(
      parseQueueSearchParams({
        view: "everything",
        order: "sideways",
        q: ["first", "second"],
        from: "nope",
        page: "x",
      }),
    ).toEqual({ view: "pending", order: "newest", filters: { q: "first", page: "x" }, invalid: ["from"] });
    expect(parseQueueSearchParams({ view: "marked_spam", from: "2026-11-02", to: "2026-11-01" })).toEqual({
      view: "marked_spam",
      order: "newest",
      filters: { from: "2026-11-02" },
      invalid: ["to"],
    });
  });
});
