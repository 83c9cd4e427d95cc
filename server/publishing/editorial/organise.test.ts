import path from "node:path";

import { describe, expect, it } from "vitest";

import { slugify } from "../../text/slug";
import { findCollectionCycle } from "./collections/items";
import { imageKey, imagePath, sniffImageType } from "./images";
import { ZCollectionRules, ZCreateAuthorInput, ZSetCollectionItemsInput } from "./organise.schema";
import { sectionTree, wouldCreateSectionCycle } from "./taxonomy/sections";

describe("slugify", () => {
  it("makes URL slugs from names", () => {
    expect(slugify("World News")).toBe("world-news");
    expect(slugify("  Côte d'Ivoire & Co. ")).toBe("cote-d-ivoire-co");
    expect(slugify("!!!")).toBe("");
    expect(slugify("a".repeat(150))).toHaveLength(100);
  });
});

describe("collection rules", () => {
  it("accepts the documented rules and refuses anything else", () => {
    expect(
      ZCollectionRules.parse({ "section-ids": [1, 2], "tag-slugs": ["Cricket"], sort: "last-published-at" }),
    ).toEqual({
      "section-ids": [1, 2],
      "tag-slugs": ["cricket"],
      sort: "last-published-at",
    });
    expect(ZCollectionRules.safeParse({ "section-ids": ["1"] }).success).toBe(false);
    expect(ZCollectionRules.safeParse({ sort: "random" }).success).toBe(false);
    expect(ZCollectionRules.safeParse({ "section-id": [1] }).success).toBe(false);
  });

  it("refuses an item listed twice", () => {
    const storyId = "7b2d1c0e-8a4f-4c55-9a61-0c2f3e4d5a6b";
    const result = ZSetCollectionItemsInput.safeParse({
      id: 1,
      items: [{ storyId }, { collectionId: 2 }, { storyId }],
    });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual(["items", 2]);
    expect(ZSetCollectionItemsInput.safeParse({ id: 1, items: [{ storyId, collectionId: 2 }] }).success).toBe(false);
  });
});

describe("author input", () => {
  it("normalises handles and clears empty fields", () => {
    expect(ZCreateAuthorInput.parse({ name: "Ada", twitterHandle: "@ada_l", bio: " ", avatarUrl: "" })).toMatchObject({
      twitterHandle: "ada_l",
      bio: null,
      avatarUrl: null,
    });
    expect(ZCreateAuthorInput.safeParse({ name: "Ada", twitterHandle: "not a handle" }).success).toBe(false);
    expect(ZCreateAuthorInput.safeParse({ name: "Ada", avatarS3Key: "../etc/passwd" }).success).toBe(false);
  });
});

describe("findCollectionCycle", () => {
  const edges = new Map<number, number[]>([
    [1, [2]],
    [2, [3]],
    [4, [5]],
  ]);
  it("finds a collection containing itself, directly or through nesting", () => {
    expect(findCollectionCycle(1, [1], edges)).toBe(1);
    // 3 ← 2 ← 1: putting 1 into 3 makes a loop.
    expect(findCollectionCycle(3, [4, 1], edges)).toBe(1);
    expect(findCollectionCycle(3, [4, 5], edges)).toBeNull();
    expect(findCollectionCycle(1, [4], edges)).toBeNull();
  });
});

describe("sections", () => {
  it("orders a tree depth-first by position and name", () => {
    const rows = [
      { id: 1, parentId: null, name: "News", position: 0 },
      { id: 2, parentId: null, name: "Sport", position: 1 },
      { id: 3, parentId: 2, name: "Tennis", position: 1 },
      { id: 4, parentId: 2, name: "Cricket", position: 0 },
      { id: 5, parentId: 99, name: "Orphan", position: 5 },
    ];
    expect(sectionTree(rows).map((r) => [r.name, r.depth])).toEqual([
      ["News", 0],
      ["Sport", 0],
      ["Cricket", 1],
      ["Tennis", 1],
      ["Orphan", 0],
    ]);
  });

  it("refuses a parent that is the section or below it", () => {
    const parentOf = new Map<number, number | null>([
      [1, null],
      [2, 1],
      [3, 2],
    ]);
    expect(wouldCreateSectionCycle(1, 1, parentOf)).toBe(true);
    expect(wouldCreateSectionCycle(1, 3, parentOf)).toBe(true);
    expect(wouldCreateSectionCycle(3, 1, parentOf)).toBe(false);
    expect(wouldCreateSectionCycle(2, null, parentOf)).toBe(false);
  });
});

describe("images", () => {
  const png = Buffer.from("89504e470d0a1a0a0000000d49484452", "hex");
  it("knows an image by its first bytes", () => {
    expect(sniffImageType(png)).toBe("image/png");
    expect(sniffImageType(Buffer.from([0xff, 0xd8, 0xff, 0xe0]))).toBe("image/jpeg");
    expect(sniffImageType(Buffer.from("GIF89a....", "latin1"))).toBe("image/gif");
    expect(sniffImageType(Buffer.from("RIFF\x10\x00\x00\x00WEBPVP8 ", "latin1"))).toBe("image/webp");
    expect(sniffImageType(Buffer.from("RIFF\x10\x00\x00\x00WAVE", "latin1"))).toBeNull();
    expect(sniffImageType(Buffer.from("<svg xmlns='http://www.w3.org/2000/svg'/>"))).toBeNull();
    expect(sniffImageType(new Uint8Array())).toBeNull();
  });

  it("makes keys and resolves only those under the upload folder", () => {
    const id = "7b2d1c0e-8a4f-4c55-9a61-0c2f3e4d5a6b";
    const key = imageKey(12, new Date("2024-03-09T23:59:00Z"), id, "image/webp");
    expect(key).toBe(`12/2024/03/${id}.webp`);
    expect(imagePath("/srv/uploads", key)).toBe(path.join("/srv/uploads", "12", "2024", "03", `${id}.webp`));
    for (const bad of [
      "../etc/passwd",
      `/12/2024/03/${id}.webp`,
      `12/2024/03/../${id}.webp`,
      `12%2F2024/03/${id}.webp`,
      `12/2024/03/${id}.svg`,
      "",
      `12\\2024\\03\\${id}.png`,
    ]) {
      expect(imagePath("/srv/uploads", bad)).toBeNull();
    }
  });
});
