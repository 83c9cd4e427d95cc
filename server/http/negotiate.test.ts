import { describe, expect, it } from "vitest";

import { preferredMediaType } from "./negotiate";

const offered = ["text/html", "application/json"] as const;
const pick = (accept: string | null) => preferredMediaType(accept, offered);

describe("preferredMediaType", () => {
  it("answers the default without an Accept header, or with */*", () => {
    expect(pick(null)).toBe("text/html");
    expect(pick("")).toBe("text/html");
    expect(pick("*/*")).toBe("text/html");
  });

  it("prefers JSON when asked for it, alone or beside wildcards (axios, request)", () => {
    expect(pick("application/json")).toBe("application/json");
    expect(pick("Application/JSON; charset=utf-8")).toBe("application/json");
    expect(pick("application/json, text/plain, */*")).toBe("application/json");
    expect(pick("application/*")).toBe("application/json");
  });

  it("honours q-values", () => {
    expect(pick("text/html;q=0.5, application/json")).toBe("application/json");
    expect(pick("application/json;q=0.5, text/html")).toBe("text/html");
    expect(pick("application/json;q=0.9, */*;q=0.1")).toBe("application/json");
    expect(pick("application/json;q=0, */*")).toBe("text/html");
    expect(pick("text/html;q=0, */*")).toBe("application/json");
    // A browser: HTML first, everything else at 0.8.
    expect(pick("text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8")).toBe("text/html");
  });

  it("breaks a tie of quality and specificity by the order of the Accept header", () => {
    expect(pick("application/json, text/html")).toBe("application/json");
    expect(pick("text/html, application/json")).toBe("text/html");
  });

  it("returns null when every offered type is ruled out, and ignores malformed ranges", () => {
    expect(pick("image/png")).toBeNull();
    expect(pick("application/json;q=0, text/html;q=0")).toBeNull();
    expect(pick("application/json;q=2")).toBeNull();
    expect(pick("garbage, application/json")).toBe("application/json");
  });
});
