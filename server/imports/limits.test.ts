import { describe, expect, it } from "vitest";

import { withFileName } from "./limits";

describe("withFileName", () => {
  it("names an uploaded file by its own name, never the stored path or its last segment", () => {
    const file = { path: "/var/masthead/uploads/9f3c2a1b.xml", name: "export.xml" };
    expect(withFileName("/var/masthead/uploads/9f3c2a1b.xml: line 3 is not XML", file)).toBe(
      "export.xml: line 3 is not XML",
    );
    expect(withFileName("9f3c2a1b.xml is empty", file)).toBe("export.xml is empty");
  });

  it("leaves a message about a source read from an address whole, its last segment an ordinary word", () => {
    const file = { path: "https://news.example/site/", name: "https://news.example/site/" };
    expect(withFileName("the site has no collection of this slug", file)).toBe(
      "the site has no collection of this slug",
    );
  });
});
