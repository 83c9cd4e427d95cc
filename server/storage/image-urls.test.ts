import { describe, expect, it } from "vitest";

import { defaultCdnImage } from "../publishing/publisher";
import { diskPath, publicImageUrl } from "./image-storage";

describe("where images are read", () => {
  it("is Masthead's /images unless IMAGE_PUBLIC_BASE_URL names a CDN or public bucket", () => {
    const key = "1/2026/03/0b7c0000-0000-4000-8000-0000000000e2.png";
    expect(publicImageUrl(key, { APP_URL: "https://news.example.com" })).toBe(`https://news.example.com/images/${key}`);
    expect(
      publicImageUrl(key, { APP_URL: "https://news.example.com", IMAGE_PUBLIC_BASE_URL: "https://cdn.example.com/i" }),
    ).toBe(`https://cdn.example.com/i/${key}`);
    expect(defaultCdnImage("https://news.example.com", undefined)).toBe("news.example.com/images");
    expect(defaultCdnImage("https://news.example.com", "https://cdn.example.com/i")).toBe("cdn.example.com/i");
  });

  it("keeps disk keys inside the folder", () => {
    expect(diskPath("/srv/uploads", "1/2026/03/a.png")).toBe("/srv/uploads/1/2026/03/a.png");
    for (const bad of ["../x.png", "1/../../x.png", "/etc/passwd", "1//x.png", "1/%2e%2e/x.png", ""])
      expect(diskPath("/srv/uploads", bad)).toBeNull();
  });
});
