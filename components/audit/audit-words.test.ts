import { describe, expect, it } from "vitest";

import { auditTarget, detailLines, words } from "./audit-words";

describe("the audit log in words", () => {
  it("says what a target is and links to where the dashboard shows it", () => {
    expect(auditTarget("story", "42")).toEqual({ label: "Story", href: "/admin/content/stories/42" });
    expect(auditTarget("webhook_endpoint", "a b")).toEqual({ label: "Webhook", href: "/admin/webhooks/a%20b" });
    expect(auditTarget("api_key", "k1")).toEqual({ label: "API key", href: "/admin/users" });
    expect(auditTarget("something_new", "1")).toEqual({ label: "Something new", href: null });
    expect(auditTarget("constructor", "1")).toEqual({ label: "Constructor", href: null });
    expect(auditTarget(null, null)).toBeNull();
  });

  it("writes details as lines, changes as from → to", () => {
    expect(
      detailLines({
        changed: ["adaptive", "siteUrl"],
        adaptive: { from: false, to: true },
        siteUrl: { from: "", to: "https://news.example" },
        system: "dashboard import",
      }),
    ).toEqual([
      { label: "Changed", text: "adaptive, siteUrl" },
      { label: "Adaptive", text: "false → true" },
      { label: "Site url", text: "— → https://news.example" },
      { label: "System", text: "dashboard import" },
    ]);
    expect(words("bannedWords")).toBe("Banned words");
  });
});
