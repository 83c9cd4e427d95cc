import { describe, expect, it } from "vitest";

import { ALT_MAX_LENGTH, cleanFileName, cleanPlainText, ZAltText, ZListMediaInput } from "./media.schema";
import { IMAGE_KEY_PATTERN } from "./organise.schema";
import {
  originalKeyOfThumbnail,
  THUMBNAIL_MAX_INPUT_PIXELS,
  thumbnailKey,
  withinThumbnailPixelLimit,
} from "./thumbnails";

const KEY = "7/2026/11/0b7c5a52-1f0e-4a4e-9a53-3c1e2d4f5a6b.jpg";

describe("thumbnail keys", () => {
  it("puts a thumbnail next to its original, under a key that is no original's", () => {
    const thumb = thumbnailKey(KEY);
    expect(thumb).toBe(`${KEY}.thumb.webp`);
    expect(IMAGE_KEY_PATTERN.test(thumb)).toBe(false);
    expect(originalKeyOfThumbnail(thumb)).toBe(KEY);
  });

  it("refuses to derive from, or map back to, anything that is not an upload key", () => {
    expect(() => thumbnailKey("../etc/passwd")).toThrow();
    expect(() => thumbnailKey(`${KEY}.thumb.webp`)).toThrow();
    expect(originalKeyOfThumbnail(KEY)).toBeNull();
    expect(originalKeyOfThumbnail("7/2026/11/x.jpg.thumb.webp")).toBeNull();
    expect(originalKeyOfThumbnail(`${KEY}.thumb.webp.thumb.webp`)).toBeNull();
    expect(originalKeyOfThumbnail(`${KEY}.thumb.png`)).toBeNull();
  });

  it("lets sharp decode only images within the pixel limit (unknown sizes go to sharp's own limit)", () => {
    expect(withinThumbnailPixelLimit(4000, 3000)).toBe(true);
    expect(withinThumbnailPixelLimit(THUMBNAIL_MAX_INPUT_PIXELS, 1)).toBe(true);
    expect(withinThumbnailPixelLimit(THUMBNAIL_MAX_INPUT_PIXELS, 2)).toBe(false);
    expect(withinThumbnailPixelLimit(60_000, 60_000)).toBe(false);
    expect(withinThumbnailPixelLimit(null, 10)).toBe(true);
  });
});

describe("alt text and file names", () => {
  it("keeps plain text: tags and control characters out, whitespace collapsed, comparisons kept", () => {
    expect(cleanPlainText("  A <b>tram</b>\n\tat  dawn ")).toBe("A tram at dawn");
    expect(cleanPlainText('<img src=x onerror="alert(1)">Cat')).toBe("Cat");
    expect(cleanPlainText("a < b & c > d")).toBe("a < b & c > d");
    expect(cleanPlainText("zero\u200bwidth\u0007bell")).toBe("zero width bell");
  });

  it("ZAltText cleans, then limits to ALT_MAX_LENGTH characters", () => {
    expect(ZAltText.parse(" <i>Hi</i> ")).toBe("Hi");
    expect(ZAltText.safeParse("x".repeat(ALT_MAX_LENGTH)).success).toBe(true);
    expect(ZAltText.safeParse("x".repeat(ALT_MAX_LENGTH + 1)).success).toBe(false);
    expect(ZAltText.safeParse(`<b>${"x".repeat(ALT_MAX_LENGTH)}</b>`).success).toBe(true);
  });

  it("keeps a file's own name only, without folders, at most 200 characters", () => {
    expect(cleanFileName("C:\\Users\\me\\tram.jpg")).toBe("tram.jpg");
    expect(cleanFileName("../../evil.exe")).toBe("evil.exe");
    expect(cleanFileName(`${"a".repeat(300)}.png`)).toHaveLength(200);
    expect(cleanFileName("")).toBe("");
  });

  it("list input: defaults, and limits on paging", () => {
    expect(ZListMediaInput.parse({})).toEqual({ filter: "all", offset: 0, limit: 24 });
    expect(ZListMediaInput.safeParse({ limit: 101 }).success).toBe(false);
    expect(ZListMediaInput.safeParse({ offset: -1 }).success).toBe(false);
    expect(ZListMediaInput.safeParse({ filter: "orphans" }).success).toBe(false);
  });
});
