import { describe, expect, it } from "vitest";

import { collectImageRefs, isAllowedExternalImage } from "./image-refs";

describe("collectImageRefs", () => {
  it("finds every …s3-key string in a JSON tree, with its field path", () => {
    const cards = [
      {
        metadata: { "social-share": { "image-s3-key": "1/2026/01/a.png" } },
        "story-elements": [
          { type: "text", text: "<p>x</p>" },
          { type: "image", "image-s3-key": "1/2026/01/b.png", metadata: { "cover-s3Key": "c" } },
          { type: "image", "image-s3-key": "" },
        ],
      },
    ];
    expect(collectImageRefs(cards, "cards")).toEqual([
      { field: "cards.0.metadata.social-share.image-s3-key", key: "1/2026/01/a.png" },
      { field: "cards.0.story-elements.1.image-s3-key", key: "1/2026/01/b.png" },
      { field: "cards.0.story-elements.1.metadata.cover-s3Key", key: "c" },
    ]);
    expect(collectImageRefs({ "cover-image": { "cover-image-s3-key": "k" } }, "metadata")).toEqual([
      { field: "metadata.cover-image.cover-image-s3-key", key: "k" },
    ]);
    expect(collectImageRefs(undefined, "x")).toEqual([]);
  });
});

describe("isAllowedExternalImage", () => {
  const hosts = ["images.example.org", "*.cdn.example.net"];
  it("allows listed hosts and subdomains of wildcard entries, over http(s)", () => {
    expect(isAllowedExternalImage("https://images.example.org/a.jpg", hosts)).toBe(true);
    expect(isAllowedExternalImage("https://IMAGES.example.org/a.jpg", hosts)).toBe(true);
    expect(isAllowedExternalImage("https://eu.cdn.example.net/a.jpg", hosts)).toBe(true);
  });
  it("refuses other hosts, look-alikes, credentials and other schemes", () => {
    expect(isAllowedExternalImage("https://cdn.example.net/a.jpg", hosts)).toBe(false);
    expect(isAllowedExternalImage("https://images.example.org.evil.test/a.jpg", hosts)).toBe(false);
    expect(isAllowedExternalImage("https://evilimages.example.org/a.jpg", hosts)).toBe(false);
    expect(isAllowedExternalImage("https://images.example.org@evil.test/a.jpg", hosts)).toBe(false);
    expect(isAllowedExternalImage("javascript:alert(1)//images.example.org", hosts)).toBe(false);
    expect(isAllowedExternalImage("https://images.example.org/a.jpg", [])).toBe(false);
  });
});
