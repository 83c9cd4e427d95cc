import { describe, expect, it } from "vitest";

import { toolName } from "./rich-text";

describe("a formatting button's accessible name holds the text it shows (WCAG 2.5.3)", () => {
  it.each([
    ["H2", "Heading (Ctrl+Alt+2)", "H2: Heading (Ctrl+Alt+2)"],
    ["1. List", "Numbered list (Ctrl+Shift+7)", "1. List: Numbered list (Ctrl+Shift+7)"],
    ["Link", "Link (Ctrl+K)", "Link (Ctrl+K)"],
    ["B", "Bold (Ctrl+B)", "Bold (Ctrl+B)"],
  ])("%s, %s → %s", (shows, label, name) => {
    expect(toolName(shows, label)).toBe(name);
  });
});
