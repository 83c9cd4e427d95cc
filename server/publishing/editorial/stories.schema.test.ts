import { describe, expect, it } from "vitest";

import { slugify } from "../../text/slug";
import { STORY_SLUG_MAX, tweetIdFromUrl, youtubeVideoId, ZCreateStoryInput, ZUpdateStoryInput } from "./stories.schema";

describe("slugify", () => {
  it("makes lower-case hyphenated slugs without accents", () => {
    expect(slugify("Élan & Co: 5 things!")).toBe("elan-co-5-things");
    expect(slugify("  --Hello   World--  ")).toBe("hello-world");
    expect(slugify("!!!")).toBe("");
    expect(slugify("a".repeat(300), STORY_SLUG_MAX)).toHaveLength(120);
    expect(slugify("a".repeat(300))).toHaveLength(100);
  });
});

describe("youtubeVideoId", () => {
  it.each([
    ["https://www.youtube.com/watch?v=dQw4w9WgXcQ", "dQw4w9WgXcQ"],
    ["https://youtu.be/dQw4w9WgXcQ?t=10", "dQw4w9WgXcQ"],
    ["https://www.youtube.com/embed/dQw4w9WgXcQ", "dQw4w9WgXcQ"],
    ["https://youtube.com/shorts/dQw4w9WgXcQ", "dQw4w9WgXcQ"],
    ["https://m.youtube.com/watch?v=dQw4w9WgXcQ&list=x", "dQw4w9WgXcQ"],
  ])("%s → %s", (url, id) => expect(youtubeVideoId(url)).toBe(id));

  it.each([
    "https://vimeo.com/123",
    "https://www.youtube.com/watch?v=short",
    "javascript:alert(1)",
    "not a url",
    "https://evil.example/watch?v=dQw4w9WgXcQ",
  ])("refuses %s", (url) => expect(youtubeVideoId(url)).toBeNull());
});

describe("tweetIdFromUrl", () => {
  it.each([
    ["https://twitter.com/jack/status/20", "20"],
    ["https://x.com/NASA/status/1790000000000000000?s=20", "1790000000000000000"],
    ["https://mobile.twitter.com/someone/statuses/123456/photo/1", "123456"],
  ])("%s → %s", (url, id) => expect(tweetIdFromUrl(url)).toBe(id));

  it.each(["https://x.com/NASA", "https://example.com/a/status/1", "ftp://x.com/a/status/1"])("refuses %s", (url) =>
    expect(tweetIdFromUrl(url)).toBeNull(),
  );
});

describe("story inputs", () => {
  it("needs a headline to create; blank optional text becomes null", () => {
    expect(ZCreateStoryInput.safeParse({}).success).toBe(false);
    expect(ZCreateStoryInput.parse({ headline: "  Hi  ", subheadline: "  ", slug: "" })).toEqual({
      headline: "Hi",
      subheadline: null,
      slug: "",
    });
  });

  it("validates slugs, ids and access", () => {
    expect(ZCreateStoryInput.parse({ headline: "x", slug: "Politics/Budget-2026" }).slug).toBe("politics/budget-2026");
    expect(ZCreateStoryInput.safeParse({ headline: "x", slug: "two--hyphens" }).success).toBe(false);
    expect(ZCreateStoryInput.safeParse({ headline: "x", slug: "/lead" }).success).toBe(false);
    expect(ZCreateStoryInput.safeParse({ headline: "x", sectionIds: [1, 1] }).success).toBe(false);
    expect(ZCreateStoryInput.safeParse({ headline: "x", access: "everyone" }).success).toBe(false);
    expect(ZCreateStoryInput.safeParse({ headline: "x", tags: [{ id: 1 }, { name: "New" }] }).success).toBe(true);
  });

  it("needs the loaded version to update, and changes only the fields given", () => {
    expect(ZUpdateStoryInput.safeParse({ id: "7b0a8f0e-8a40-4a7c-9c1a-2b8f8f1d2c3e", headline: "x" }).success).toBe(
      false,
    );
    expect(ZUpdateStoryInput.parse({ id: "7b0a8f0e-8a40-4a7c-9c1a-2b8f8f1d2c3e", version: 3 })).toEqual({
      id: "7b0a8f0e-8a40-4a7c-9c1a-2b8f8f1d2c3e",
      version: 3,
    });
  });
});
