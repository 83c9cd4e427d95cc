import { describe, expect, it } from "vitest";

import { LOCALES } from "@/i18n/locales";
import { translator } from "@/i18n/translate";

import { EXPORT_FORMAT, EXPORT_FORMAT_VERSION, EXPORT_SECTIONS, type TMemberExportData } from "./format";
import { renderExportHtml } from "./render";

function sample(comment: string): TMemberExportData {
  const data = Object.fromEntries(EXPORT_SECTIONS.map((s) => [s, []])) as unknown as TMemberExportData;
  return {
    ...data,
    format: EXPORT_FORMAT,
    version: EXPORT_FORMAT_VERSION,
    generated_at: "2026-12-02T10:00:00.000Z",
    publication: { name: "The <Daily>", domain: null },
    member: { name: "Ada", created_at: "2026-01-05T08:00:00.000Z", metadata: { a: "<b>" } },
    comments: [{ id: 1, text: comment, page_url: "https://news.example/x" }],
    payments: [{ amount_cents: 1250, currency: "EUR", created_at: "2026-03-01T12:00:00.000Z" }],
    notification_preferences: null,
  };
}

describe("renderExportHtml", () => {
  it("escapes everything from the data, and loads nothing", () => {
    const html = renderExportHtml(sample('<script>alert("x")</script> & <img src=x onerror=y>'), {
      locale: "en",
      t: translator("member", "en"),
      timeZone: "UTC",
    });
    expect(html).not.toMatch(/<script|<img/i);
    expect(html).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &lt;img src=x onerror=y&gt;");
    expect(html).toContain("Your data at The &lt;Daily&gt;");
    expect(html).toContain("default-src 'none'");
    expect(html).toMatch(/<html lang="en" dir="ltr">/);
  });

  it("shows times in the account's zone and money in the locale's form", () => {
    const html = renderExportHtml(sample("hi"), {
      locale: "en",
      t: translator("member", "en"),
      timeZone: "Asia/Kolkata",
    });
    expect(html).toContain("€12.50");
    expect(html).toContain("1 Mar 2026, 17:30 GMT+5:30"); // 12:00 UTC in Kolkata, the zone named
  });

  it("is right to left in Arabic, with the catalogue's titles in every locale", () => {
    const ar = renderExportHtml(sample("مرحبا"), { locale: "ar", t: translator("member", "ar"), timeZone: "UTC" });
    expect(ar).toMatch(/<html lang="ar" dir="rtl">/);
    expect(ar).toContain("تعليقاتك");
    for (const locale of LOCALES) {
      const html = renderExportHtml(sample("x"), { locale, t: translator("member", locale), timeZone: "UTC" });
      expect(html).not.toContain("export.section.");
      expect(html.match(/<section /g)?.length).toBe(EXPORT_SECTIONS.length);
    }
  });
});
