import { describe, expect, it } from "vitest";

import { deepMerge, menuItems } from "./config-view";
import { ZStoredCollectionRules } from "./content.schema";
import { customUrlPath } from "./custom-urls";
import { rulesSelectStory, sectionFamilyOf } from "./entities";

const section = (id: number, slug: string, parentId: number | null = null) => ({
  id,
  name: slug,
  displayName: slug.toUpperCase(),
  slug,
  parentId,
  domainSlug: null,
  collection: null,
});

describe("menuItems", () => {
  const sections = [section(1, "world"), section(2, "europe", 1), section(3, "orphan", 99)];

  it("derives one item per section when no menu is stored, parents only among listed sections", () => {
    const items = menuItems(undefined, sections, "https://site.test/");
    expect(items.map((i) => [i.id, i.title, i.url, i["parent-id"], i.rank])).toEqual([
      [1, "WORLD", "https://site.test/world", null, 0],
      [2, "EUROPE", "https://site.test/europe", 1, 1],
      [3, "ORPHAN", "https://site.test/orphan", null, 2],
    ]);
  });

  it("normalises stored items: sections by id or slug, links made absolute, unknown sections and non-objects dropped, ordered by rank", () => {
    const items = menuItems(
      [
        { title: "Home", url: "/", rank: 9 },
        "junk",
        { "section-slug": "europe" },
        { "item-type": "section", "section-id": 42 },
        { "item-type": "link", title: "Shop", url: "https://shop.test/", rank: -1 },
        { "item-type": "tag", "tag-slug": "a b" },
        { "item-type": "section", title: "World by URL", url: "/world", rank: 20 },
        { "item-type": "section", title: "Not a section", url: "/archive/2020", rank: 21 },
        { "item-type": "section", title: "Gone", "section-slug": "gone", url: "/gone" },
      ],
      sections,
      "https://site.test",
      "footer",
    );
    expect(items.map((i) => [i.title, i["item-type"], i.url, i["menu-group-slug"]])).toEqual([
      ["Shop", "link", "https://shop.test/", "footer"],
      ["EUROPE", "section", "https://site.test/europe", "footer"],
      ["a b", "tag", "https://site.test/topic/a%20b", "footer"],
      ["Home", "link", "https://site.test/", "footer"],
      ["World by URL", "section", "https://site.test/world", "footer"],
      ["Not a section", "section", "https://site.test/archive/2020", "footer"],
    ]);
    expect(items.find((i) => i.title === "World by URL")!["section-id"]).toBe(1);
    expect(items.find((i) => i.title === "Not a section")!["section-id"]).toBeNull();
  });
});

describe("deepMerge", () => {
  it("merges objects key by key and replaces everything else", () => {
    expect(deepMerge({ a: { x: 1, y: 2 }, list: [1, 2], keep: true }, { a: { y: 3 }, list: [9], extra: null })).toEqual(
      {
        a: { x: 1, y: 3 },
        list: [9],
        keep: true,
        extra: null,
      },
    );
  });
});

describe("rulesSelectStory", () => {
  // 1 world → 2 europe (child) ; 3 sport ; 4 deleted (not listed)
  const family = sectionFamilyOf([
    { id: 1, parentId: null },
    { id: 2, parentId: 1 },
    { id: 3, parentId: null },
  ]);
  const story = { sectionIds: [2], tagSlugs: ["budget"], authorIds: [7], template: null };
  const rules = (r: object) => ZStoredCollectionRules.parse(r);

  it("needs every rule present to match one of its values; sections cover direct sub-sections", () => {
    expect(rulesSelectStory(rules({}), null, story, family)).toBe(true);
    expect(rulesSelectStory(rules({ "section-ids": [1] }), null, story, family)).toBe(true);
    expect(rulesSelectStory(rules({ "section-ids": [3, 4] }), null, story, family)).toBe(false);
    expect(
      rulesSelectStory(rules({ "section-ids": [1], "tag-slugs": ["budget"], "author-ids": [7] }), null, story, family),
    ).toBe(true);
    expect(rulesSelectStory(rules({ "section-ids": [1], "author-ids": [8] }), null, story, family)).toBe(false);
    expect(rulesSelectStory(rules({ "tag-slugs": [] }), null, story, family)).toBe(false);
  });

  it("uses the collection's own section without section-ids; a null template matches no template rule", () => {
    expect(rulesSelectStory(rules({}), 1, story, family)).toBe(true);
    expect(rulesSelectStory(rules({}), 3, story, family)).toBe(false);
    expect(rulesSelectStory(rules({ "story-templates": ["default"] }), null, story, family)).toBe(false);
    expect(
      rulesSelectStory(rules({ "story-templates": ["video"] }), null, { ...story, template: "video" }, family),
    ).toBe(true);
  });

  it("ignores unreadable rules, as the collection reader does", () => {
    expect(rulesSelectStory(rules({ "section-ids": "nope", sort: 5 }), null, story, family)).toBe(true);
  });
});

describe("customUrlPath", () => {
  it("decodes once and adds the leading slash", () => {
    expect(customUrlPath("%2Fold%2Fpage")).toBe("/old/page");
    expect(customUrlPath("old/page")).toBe("/old/page");
    expect(customUrlPath("%252F")).toBe("/%2F");
    expect(() => customUrlPath("%E0%A4%A")).toThrow(/URL-encoded/);
  });
});
