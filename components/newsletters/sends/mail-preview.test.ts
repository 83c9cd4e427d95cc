import { describe, expect, it } from "vitest";

import { previewDocument } from "./mail-preview";

const POLICY = `content="script-src 'none';`;

describe("previewDocument", () => {
  it("puts the no-scripts policy first in the head, before anything the mail carries", () => {
    const out = previewDocument(
      `<!doctype html><html><head lang="en"><script>alert(1)</script></head><body>x</body></html>`,
    );
    expect(out.indexOf(POLICY)).toBeGreaterThan(out.indexOf("<head"));
    expect(out.indexOf(POLICY)).toBeLessThan(out.indexOf("<script>"));
  });

  it("opens a document without a head with the policy", () => {
    expect(previewDocument("<p>Hello</p>").startsWith('<meta http-equiv="Content-Security-Policy"')).toBe(true);
    expect(previewDocument("<p>Hello</p>")).toContain(POLICY);
  });
});
