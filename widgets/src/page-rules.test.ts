/** The words the comments widget shows about a page's rules (page-rules.ts). */
import { describe, expect, it } from "vitest";

import { frameMessages } from "../../server/widgets/frame-catalogue";
import { rulesLines, waitText, type PageRules } from "./page-rules";
import { frameWords } from "./translate";

// As a frame has them: the catalogue's messages, parsed, formatted without a parser.
const en = frameWords("en", frameMessages("en")).t;
const es = frameWords("es", frameMessages("es")).t;
const ar = frameWords("ar", frameMessages("ar")).t;
const de = frameWords("de", frameMessages("de")).t;
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

  it("says waits in words, by the language's plural rules", () => {
    expect(waitText(45, en)).toBe("every 45 seconds");
    expect(waitText(60, en)).toBe("every minute");
    expect(waitText(90, en)).toBe("every 90 seconds");
    expect(waitText(3600, en)).toBe("every hour");
    expect(waitText(7200, en)).toBe("every 2 hours");
    expect(waitText(60, de)).toBe("jede Minute");
    expect(waitText(300, de)).toBe("alle 5 Minuten");
    // Arabic: one, two (the dual), few (3–10), many (11–99), in the digits Intl gives the locale.
    const digits = new Intl.NumberFormat("ar");
    expect(waitText(60, ar)).toBe("كل دقيقة");
    expect(waitText(120, ar)).toBe("كل دقيقتين");
    expect(waitText(300, ar)).toBe(`كل ${digits.format(5)} دقائق`);
    expect(waitText(15 * 60, ar)).toBe(`كل ${digits.format(15)} دقيقة`);
  });
});
