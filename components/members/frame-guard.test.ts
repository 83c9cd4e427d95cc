/** The self-service page's frame guard (frame-guard.ts): the publication's own frames only. */
import { describe, expect, it } from "vitest";

import { framedByAllowedSite, type FramedWindow } from "./frame-guard";

const top = {};
function win(opts: { framed: boolean; ancestors?: string[]; referrer?: string }): FramedWindow {
  return {
    self: {},
    top: opts.framed ? top : undefined,
    location: { hostname: "members.gazette.example", ancestorOrigins: opts.ancestors },
    document: { referrer: opts.referrer ?? "" },
  };
}

describe("framedByAllowedSite", () => {
  it("allows the page at the top of its window", () => {
    const w = win({ framed: false });
    w.top = w.self;
    expect(framedByAllowedSite(w, [])).toBe(true);
  });

  it("allows a frame of the publication's hosts or its own host, by ancestors or else the referrer", () => {
    expect(
      framedByAllowedSite(win({ framed: true, ancestors: ["https://www.gazette.example"] }), ["www.gazette.example"]),
    ).toBe(true);
    expect(framedByAllowedSite(win({ framed: true, ancestors: ["https://members.gazette.example"] }), [])).toBe(true);
    expect(
      framedByAllowedSite(win({ framed: true, referrer: "https://www.gazette.example/account" }), [
        "www.gazette.example",
      ]),
    ).toBe(true);
  });

  it("refuses another site, any foreign ancestor, and a frame that tells nothing", () => {
    const hosts = ["www.gazette.example"];
    expect(framedByAllowedSite(win({ framed: true, ancestors: ["https://evil.example"] }), hosts)).toBe(false);
    expect(
      framedByAllowedSite(
        win({ framed: true, ancestors: ["https://www.gazette.example", "https://evil.example"] }),
        hosts,
      ),
    ).toBe(false);
    expect(framedByAllowedSite(win({ framed: true }), hosts)).toBe(false);
    expect(framedByAllowedSite(win({ framed: true, referrer: "not a url" }), hosts)).toBe(false);
  });
});
