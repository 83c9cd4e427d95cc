import { describe, expect, it } from "vitest";

import { routeTemplate } from "./metrics";

describe("routeTemplate", () => {
  it("names a route's parameters instead of their values", () => {
    expect(routeTemplate("/api/v1/stories/abc-123", { "story-id": "abc-123" })).toBe("/api/v1/stories/[story-id]");
    expect(routeTemplate("/api/v1/stories", undefined)).toBe("/api/v1/stories");
    expect(routeTemplate("/api/v1/tags/caf%C3%A9", { slug: "café" })).toBe("/api/v1/tags/[slug]");
  });

  it("folds a catch-all into one segment, and matches parameters from the end", () => {
    expect(routeTemplate("/images/1/2026/11/x.png", { key: ["1", "2026", "11", "x.png"] })).toBe("/images/[...key]");
    expect(routeTemplate("/api/no/such/thing", { path: ["no", "such", "thing"] })).toBe("/api/[...path]");
    // A value that is also a static segment of the path: the parameter is the later one.
    expect(routeTemplate("/api/v1/stories/stories", { id: "stories" })).toBe("/api/v1/stories/[id]");
  });
});
