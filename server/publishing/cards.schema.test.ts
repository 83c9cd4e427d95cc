import { randomUUID } from "node:crypto";

import { describe, expect, it } from "vitest";

import { ZStoryElement } from "./cards.schema";

const element = (extra: Record<string, unknown>) => ({ id: randomUUID(), type: "youtube-video", ...extra });

describe("story elements", () => {
  it("take http and https links only: a javascript: or data: URL never reaches a front end", () => {
    expect(ZStoryElement.safeParse(element({ url: "https://www.youtube.com/watch?v=abc" })).success).toBe(true);
    expect(ZStoryElement.safeParse(element({ "embed-url": "http://example.com/embed" })).success).toBe(true);
    for (const url of [
      "javascript:alert(1)",
      "JavaScript:alert(1)",
      "data:text/html,<script>alert(1)</script>",
      "vbscript:x",
    ]) {
      expect(ZStoryElement.safeParse(element({ url })).success).toBe(false);
      expect(ZStoryElement.safeParse(element({ "embed-url": url })).success).toBe(false);
    }
  });
});
