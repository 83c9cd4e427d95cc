import { describe, expect, it } from "vitest";

import { conversionCsv } from "./conversion-csv";
import {
  attributeConversions,
  conversionFigures,
  personOf,
  type ConversionEvent,
  type StoryMeta,
  type WallHit,
} from "./conversion-figures";

const H = 60 * 60 * 1000;
const T = Date.parse("2026-11-10T12:00:00Z");
const at = (offsetMs: number) => new Date(T + offsetMs);
const hit = (storyId: string, readerId: string, first: number, last = first): WallHit => ({
  storyId,
  readerId,
  firstAt: at(first),
  lastAt: at(last),
});
const event = (memberId: number, kind: ConversionEvent["kind"], offset = 0, cents = 0): ConversionEvent => ({
  memberId,
  kind,
  at: at(offset),
  revenue: cents ? [{ currency: "EUR", cents }] : [],
});

describe("attributeConversions", () => {
  const links = [{ readerId: "phone", memberId: 1 }];

  it("gives a conversion to the wall hit 23 hours before it, not to one 25 hours before", () => {
    expect(attributeConversions([event(1, "paid")], [hit("a", "phone", -23 * H)], links)).toMatchObject([
      { storyId: "a", sameVisit: false },
    ]);
    expect(attributeConversions([event(1, "paid")], [hit("a", "phone", -25 * H)], links)).toEqual([]);
  });

  it("takes the last hit of all the member's devices, and its row's last moment", () => {
    const twoDevices = [...links, { readerId: "laptop", memberId: 1 }];
    const hits = [hit("a", "phone", -5 * H, -10 * 60 * 1000), hit("b", "laptop", -2 * H)];
    expect(attributeConversions([event(1, "trial")], hits, twoDevices)).toMatchObject([
      { storyId: "a", sameVisit: true, hitAt: at(-10 * 60 * 1000) },
    ]);
  });

  it("uses a row's first moment when its last one is after the conversion, and ignores hits after it", () => {
    expect(attributeConversions([event(1, "paid")], [hit("a", "phone", -1 * H, 2 * H)], links)).toMatchObject([
      { storyId: "a", hitAt: at(-1 * H) },
    ]);
    expect(attributeConversions([event(1, "paid")], [hit("a", "phone", 1 * H)], links)).toEqual([]);
  });

  it("never attributes a member whose readers are not linked", () => {
    expect(attributeConversions([event(2, "paid")], [hit("a", "phone", -1 * H)], links)).toEqual([]);
  });
});

describe("personOf", () => {
  it("counts a reader id as its lowest linked member, else as itself", () => {
    const person = personOf([
      { readerId: "shared", memberId: 7 },
      { readerId: "shared", memberId: 3 },
    ]);
    expect(person("shared")).toBe("m:3");
    expect(person("other")).toBe("r:other");
  });
});

describe("conversionFigures", () => {
  const stories: StoryMeta[] = [
    {
      id: "a",
      headline: "Alpha",
      sections: [
        { id: 1, name: "News" },
        { id: 2, name: "Money" },
      ],
      authors: [{ id: 9, name: "Ana" }],
      tags: [],
    },
    { id: "b", headline: "Beta", sections: [{ id: 1, name: "News" }], authors: [], tags: [{ id: 4, name: "tax" }] },
    { id: "c", headline: "Gamma", sections: [], authors: [], tags: [] },
  ];
  const links = [
    { readerId: "phone", memberId: 1 },
    { readerId: "laptop", memberId: 1 },
  ];
  const hits = [
    hit("a", "phone", -3 * H),
    hit("a", "laptop", -2 * H),
    hit("b", "anon", -1 * H),
    hit("c", "anon", -30 * H), // before the range: attributes nothing in it, counts no reader
  ];
  const events = [event(1, "registered", -1 * H), event(1, "paid", -30 * 60 * 1000, 1500), event(1, "paid", 48 * H)];
  const base = {
    start: at(-12 * H),
    end: at(12 * H),
    zone: "Europe/Berlin",
    days: ["2026-11-10", "2026-11-11"],
    hits,
    links,
    events,
    stories,
  };

  it("counts readers (one member on two devices is one), conversions and revenue per story", () => {
    const figures = conversionFigures({ ...base, by: "story" });
    expect(figures.rows).toEqual([
      {
        key: "a",
        label: "Alpha",
        readers: 1,
        registered: 1,
        trials: 0,
        paid: 1,
        sameVisit: 0,
        revenue: [{ currency: "EUR", cents: 1500 }],
      },
      { key: "b", label: "Beta", readers: 1, registered: 0, trials: 0, paid: 0, sameVisit: 0, revenue: [] },
    ]);
    expect(figures.totals).toEqual({
      readers: 2,
      registered: 1,
      trials: 0,
      paid: 1,
      sameVisit: 0,
      revenue: [{ currency: "EUR", cents: 1500 }],
    });
    expect(figures.days).toEqual([
      { day: "2026-11-10", readers: 2, registered: 1, trials: 0, paid: 1 },
      { day: "2026-11-11", readers: 0, registered: 0, trials: 0, paid: 0 },
    ]);
  });

  it("rolls up per section, most paid first then most readers (a story in two sections counts in both; readers are not double counted)", () => {
    const rows = conversionFigures({ ...base, by: "section" }).rows;
    expect(rows.map((r) => [r.label, r.readers, r.paid])).toEqual([
      ["News", 2, 1],
      ["Money", 1, 1],
    ]);
    const tags = conversionFigures({ ...base, by: "tag" }).rows;
    expect(tags.map((r) => [r.key, r.label, r.readers, r.paid])).toEqual([
      ["none", "No tag", 1, 1],
      ["4", "tax", 1, 0],
    ]);
  });

  it("writes the CSV with a column of cents per currency", () => {
    const csv = conversionCsv({ ...conversionFigures({ ...base, by: "author" }), by: "author" });
    expect(csv.header).toEqual([
      "author_id",
      "name",
      "readers_hit_wall",
      "registered",
      "trials_started",
      "paid_started",
      "same_visit",
      "revenue_cents_EUR",
    ]);
    expect(csv.rows).toEqual([
      ["9", "Ana", 1, 1, 0, 1, 0, 1500],
      ["none", "No author", 1, 0, 0, 0, 0, 0],
    ]);
  });
});
