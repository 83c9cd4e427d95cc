/** The words the comments widget shows about a page's rules (page-rules.ts). */
import { describe, expect, it } from "vitest";

import { rulesLines, waitText, type PageRules } from "./page-rules";
import { stringsFor } from "./strings";

const en = stringsFor("en");
const es = stringsFor("es");
const open: PageRules = { comment_mode: "open", slow_mode_seconds: 0, surge: null };

describe("page rules in the widget", () => {
  it("says nothing on an open page, and that a closed page takes no comments", () => {
    expect(rulesLines(null, en)).toEqual([]);
    expect(rulesLines(open, en)).toEqual([]);
    expect(rulesLines({ ...open, comment_mode: "closed" }, en)).toEqual(["Comments are closed on this page."]);
  });

  it("names who holds the comments: the moderators, or a surge and why", () => {
    expect(rulesLines({ ...open, comment_mode: "pre_moderation" }, en)).toEqual([
      "Comments on this page are reviewed by a moderator before they appear.",
    ]);
    const surge = { reason: "queue" as const, action: "pre_moderation" as const, slow_mode_seconds: 0 };
    expect(rulesLines({ ...open, comment_mode: "pre_moderation", surge }, en)).toEqual([
      "Comments on this page are being reviewed before they appear while moderators catch up.",
    ]);
    expect(
      rulesLines({ ...open, comment_mode: "pre_moderation", surge: { ...surge, reason: "off_shift" } }, en),
    ).toEqual(["Comments are being reviewed before they appear until moderators are back on shift."]);
  });

  it("says slow mode's wait, with the surge's reason when the surge's wait applies", () => {
    expect(rulesLines({ ...open, slow_mode_seconds: 30 }, en)).toEqual([
      "Slow mode: you can post one comment every 30 seconds.",
    ]);
    const surge = { reason: "queue" as const, action: "slow_mode" as const, slow_mode_seconds: 120 };
    expect(rulesLines({ ...open, slow_mode_seconds: 120, surge }, en)).toEqual([
      "Slow mode while moderators catch up: you can post one comment every 2 minutes.",
    ]);
    // The page's own longer slow mode is the moderators'.
    expect(rulesLines({ ...open, slow_mode_seconds: 600, surge }, en)).toEqual([
      "Slow mode: you can post one comment every 10 minutes.",
    ]);
    expect(rulesLines({ ...open, comment_mode: "pre_moderation", slow_mode_seconds: 60 }, es)).toEqual([
      "Un moderador revisa los comentarios de esta página antes de que aparezcan.",
      "Modo lento: puedes publicar un comentario cada minuto.",
    ]);
  });

  it("says waits in words", () => {
    expect(waitText(45, en)).toBe("45 seconds");
    expect(waitText(60, en)).toBe("minute");
    expect(waitText(90, en)).toBe("90 seconds");
    expect(waitText(3600, en)).toBe("hour");
    expect(waitText(7200, en)).toBe("2 hours");
  });
});
