import { describe, expect, it } from "vitest";

import type { TCard } from "@/server/publishing/cards.schema";

import {
  cardsText,
  changedGroups,
  changedOnlyByThem,
  FIELD_GROUPS,
  formValuesOf,
  rebase,
  searchResult,
  takeGroups,
  toInput,
  truncate,
  type FormValues,
} from "./story-form";

const card = (text: string, extra: Partial<TCard> = {}): TCard => ({
  id: "c1",
  status: "draft",
  version: 1,
  metadata: {},
  "story-elements": [{ id: "e1", type: "text", subtype: null, text, metadata: {} }],
  ...extra,
});

function values(overrides: Partial<FormValues> = {}): FormValues {
  return { ...formValuesOf(null, () => [card("<p>Body</p>")]), headline: "Headline", ...overrides };
}

describe("story form values", () => {
  it("loads a revision snapshot (dates as ISO strings) and sends entities and tags back as ids", () => {
    const loaded = formValuesOf(
      {
        headline: "H",
        subheadline: null,
        slug: "h",
        summary: null,
        cards: [card("<p>x</p>")],
        sections: [{ id: 1, name: "News" }],
        authors: [],
        tags: [{ id: 3, name: "Tag" }],
        entities: [{ id: 7, name: "Ada", type: "person" }],
        heroImage: null,
        seo: { metaTitle: null, metaDescription: "D", metaKeywords: ["a", "b"] },
        access: "weird",
        storyTemplate: null,
        isBreakingNews: true,
        breakingNewsExpiresAt: "2026-03-01T10:00:00.000Z",
        breakingNewsLinkedStoryId: null,
      },
      () => [],
    );
    expect(loaded).toMatchObject({ access: "public", metaKeywords: "a, b", metaDescription: "D" });
    expect(loaded.breakingNewsExpiresAt).toMatch(/^2026-03-01T\d\d:00$/);
    const input = toInput(loaded);
    expect(input).toMatchObject({ entityIds: [7], tags: [{ id: 3 }], sectionIds: [1] });
    expect(input.seo?.metaKeywords).toEqual(["a", "b"]);
  });

  it("shows and reads the breaking-news end on the account's clocks", () => {
    const snapshot = {
      headline: "H",
      subheadline: null,
      slug: "h",
      summary: null,
      cards: [],
      sections: [],
      authors: [],
      tags: [],
      entities: [],
      heroImage: null,
      seo: { metaTitle: null, metaDescription: null, metaKeywords: [] },
      access: "public",
      storyTemplate: null,
      isBreakingNews: true,
      breakingNewsExpiresAt: "2026-03-01T10:00:00.000Z",
      breakingNewsLinkedStoryId: null,
    };
    const tokyo = formValuesOf(snapshot, () => [], "Asia/Tokyo");
    expect(tokyo.breakingNewsExpiresAt).toBe("2026-03-01T19:00");
    expect(toInput(tokyo, "Asia/Tokyo").breakingNewsExpiresAt).toEqual(new Date("2026-03-01T10:00:00.000Z"));
    const publishing = FIELD_GROUPS.find((g) => g.key === "publishing")!;
    expect(publishing.text(tokyo)).toContain("breaking news until 1 Mar 2026, 19:00");
    const newYork = { ...tokyo, breakingNewsExpiresAt: "2026-03-01T05:00" };
    expect(toInput(newYork, "America/New_York").breakingNewsExpiresAt).toEqual(new Date("2026-03-01T10:00:00.000Z"));
  });

  it("compares field by field, ignoring card bookkeeping and entity order", () => {
    const a = values({
      entities: [
        { id: 1, name: "A", type: "person" },
        { id: 2, name: "B", type: "team" },
      ],
    });
    const b = {
      ...a,
      cards: [card("<p>Body</p>", { version: 5, "content-version-id": "x" })],
      entities: [...a.entities].reverse(),
    };
    expect(changedGroups(a, b)).toEqual([]);
    const c = { ...a, headline: "Other", metaTitle: "T", heroCaption: "cap", cards: [card("<p>Changed</p>")] };
    expect(changedGroups(a, c).map((g) => g.key)).toEqual(["headline", "cards", "hero", "metaTitle"]);
  });

  it("takes whole groups from another state", () => {
    const mine = values({ headline: "Mine", summary: "my summary", heroKey: "k1", heroCaption: "mine" });
    const theirs = values({ headline: "Theirs", summary: "their summary", heroKey: "k2", heroCaption: "theirs" });
    const merged = takeGroups(mine, theirs, ["summary", "hero"]);
    expect(merged).toMatchObject({ headline: "Mine", summary: "their summary", heroKey: "k2", heroCaption: "theirs" });
  });

  it("finds the fields only the other editor changed, so keeping mine does not undo their work", () => {
    const base = values({ headline: "Base", summary: "base summary" });
    const theirs = { ...base, summary: "their summary" };
    const mine = { ...base, headline: "My headline" };
    expect(changedOnlyByThem(base, mine, theirs)).toEqual(["summary"]);
    // Both changed the summary: it is a real conflict, and mine is the default.
    expect(changedOnlyByThem(base, { ...mine, summary: "my summary" }, theirs)).toEqual([]);
    // Keeping mine with their summary: both editors' work survives.
    expect(takeGroups(mine, theirs, changedOnlyByThem(base, mine, theirs))).toMatchObject({
      headline: "My headline",
      summary: "their summary",
    });
  });

  it("rebases typing done during a save onto the saved state", () => {
    const sent = values({ headline: "Sent", slug: "" });
    const saved = values({ headline: "Sent", slug: "sent" }); // the server made the slug
    // Nothing typed meanwhile: the saved state as it is.
    expect(rebase(saved, sent, sent)).toEqual(saved);
    // The summary typed meanwhile is kept; the server's slug is taken.
    const now = { ...sent, summary: "typed while saving" };
    expect(rebase(saved, sent, now)).toEqual({ ...saved, summary: "typed while saving" });
  });

  it("shows cards as readable text", () => {
    const cards: TCard[] = [
      card("<p>Hello <b>there</b></p><p>Two</p>"),
      {
        ...card(""),
        id: "c2",
        "story-elements": [
          { id: "e2", type: "youtube-video", subtype: null, url: "https://youtu.be/x", metadata: {} },
        ] as TCard["story-elements"],
      },
    ];
    expect(cardsText(cards)).toBe("Hello there\nTwo\n\n[youtube-video https://youtu.be/x]");
  });
});

describe("search-result preview", () => {
  it("truncates at a word boundary with an ellipsis, leaving short text alone", () => {
    expect(truncate("short  text ", 60)).toBe("short text");
    const cut = truncate("one two three four five six seven eight nine ten eleven twelve thirteen", 30);
    expect(cut.length).toBeLessThanOrEqual(30);
    expect(cut).toBe("one two three four five six…");
  });

  it("uses the meta fields, else the headline and summary, and the site URL with the slug", () => {
    const v = values({ headline: "Budget day", slug: "budget-day", summary: "What changes" });
    expect(searchResult(v, "https://news.example.com/")).toEqual({
      title: "Budget day",
      url: "https://news.example.com/budget-day",
      description: "What changes",
    });
    const meta = { ...v, metaTitle: "x".repeat(80), metaDescription: "Meta description" };
    const result = searchResult(meta, null);
    expect(result.title).toHaveLength(60);
    expect(result.title.endsWith("…")).toBe(true);
    expect(result.description).toBe("Meta description");
    expect(result.url).toBe("https://your-site.example/budget-day");
  });
});
