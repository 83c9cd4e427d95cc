import { describe, expect, it } from "vitest";

import { localTime } from "./local-time";

describe("a suspension's end, as the widget says it", () => {
  it("is in the frame's language, with the time zone's name", () => {
    const iso = "2026-11-30T10:00:00.000Z";
    const en = localTime(iso, "en");
    expect(en).toMatch(/November/);
    expect(en).toMatch(/2026/);
    expect(localTime(iso, "es")).toMatch(/noviembre/);
    expect(localTime(iso, "ar")).toMatch(/نوفمبر/);
    expect(localTime(iso, "hi")).toMatch(/नवंबर/);
    // The zone's name is part of it (the machine's zone here: the reader's in a browser).
    const zone = new Intl.DateTimeFormat("en", { timeZoneName: "short" })
      .formatToParts(new Date(iso))
      .find((p) => p.type === "timeZoneName")!.value;
    expect(en).toContain(zone);
  });

  it("falls back to the browser's language for a tag Intl refuses", () => {
    expect(localTime("2026-11-30T10:00:00.000Z", "not a language!")).toMatch(/2026/);
  });
});
