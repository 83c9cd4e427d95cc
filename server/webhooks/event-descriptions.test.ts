import { readFileSync } from "node:fs";
import path from "node:path";

import { describe, expect, it } from "vitest";

import { EVENTS_BY_KIND, TEST_EVENT, WEBHOOK_EVENT_DESCRIPTIONS, webhookEventDescription } from "./events.schema";

/** The items of docs/webhooks.md's "When each event is sent" list: `- \`name\`: description`. */
function documentedDescriptions(): Record<string, string> {
  const doc = readFileSync(path.join(process.cwd(), "docs/webhooks.md"), "utf8");
  const section = doc.split("### When each event is sent")[1]?.split(/\n#/)[0] ?? "";
  const rows: Record<string, string> = {};
  for (const match of section.matchAll(/^- `([^`]+)`: (.+)$/gm)) rows[match[1]!] = match[2]!;
  return rows;
}

describe("webhook event descriptions", () => {
  it("describe every event Masthead sends, in one line each", () => {
    const names = [...Object.values(EVENTS_BY_KIND).flat(), TEST_EVENT];
    expect(Object.keys(WEBHOOK_EVENT_DESCRIPTIONS).sort()).toEqual([...names].sort());
    for (const name of names) {
      expect(webhookEventDescription(name), name).toMatch(/^[A-Z].{9,99}\.$/);
      expect(webhookEventDescription(name), name).not.toContain("\n");
    }
    expect(webhookEventDescription("story-explode")).toBe("");
  });

  it("are the ones docs/webhooks.md lists, word for word", () => {
    expect(documentedDescriptions()).toEqual(WEBHOOK_EVENT_DESCRIPTIONS);
  });
});
