import { describe, expect, it } from "vitest";

import { deepMerge, menuItems } from "./config-view";
import { customUrlPath } from "./custom-urls";
import { rulesSelectStory } from "./entities";

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
    ]);
  });
});

describe("deepMerge", () => {
  it("merges objects key by key and replaces everything else", () => {
    expect(deepMerge({ a: { x: 1, y: 2 }, list: [1, 2], keep: true }, { a: { y: 3 }, list: [9], extra: null })).toEqual({
      a: { x: 1, y: 3 },
      list: [9],
      keep: true,
      extra: null,
    });
  });
});

describe("rulesSelectStory", () => {
  const story = { sectionIds: [1, 2], tagSlugs: ["budget"], authorIds: [7], template: null };
  it("needs every rule present to match one of its values", () => {
    expect(rulesSelectStory({}, story)).toBe(true);
    expect(rulesSelectStory({ "section-ids": [2, 5] }, story)).toBe(true);
    expect(rulesSelectStory({ "section-ids": [5] }, story)).toBe(false);
    expect(rulesSelectStory({ "section-ids": [1], "tag-slugs": ["budget"], "author-ids": [7] }, story)).toBe(true);
    expect(rulesSelectStory({ "section-ids": [1], "author-ids": [8] }, story)).toBe(false);
    expect(rulesSelectStory({ "story-templates": ["default"] }, story)).toBe(true);
    expect(rulesSelectStory({ "story-templates": ["video"] }, story)).toBe(false);
    expect(rulesSelectStory({ "section-ids": [], sort: "published-at" }, story)).toBe(true);
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
