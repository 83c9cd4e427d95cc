/**
 * The widget frame pages through their route handler: the HTML shell and its settings block,
 * the strict CSP with frame-ancestors from the account's hosts (Settings' domains included), the
 * account's language (frame-locales.int.test.ts has the rest) and moderation settings, invalid settings dropped or refused, and the
 * scripts' routes.
 */
import { describe, expect, it } from "vitest";

import * as embedRoute from "@/app/embed/[account_id]/[widget]/route";
import * as metypeLoader from "@/app/quintype-metype/assets/application.js/route";
import * as frameJs from "@/app/widgets/v1/frame.js/route";
import * as loaderRoute from "@/app/widgets/v1/loader.js/route";
import { messagesOf, parseMessage } from "@/i18n/messages";
import { getDb } from "@/server/db";
import { forgetPublisherCache } from "@/server/publishing/publisher";
import { call } from "@/server/testing/engagement";
import { createTestPublisher } from "@/server/testing/publishing-factories";
import { FRAME_JS_HASH, LOADER_JS } from "@/server/widgets/bundles.generated";

function frame(accountId: number, widget: string, query: Record<string, string>) {
  const qs = new URLSearchParams(query).toString();
  return call(embedRoute.GET, "GET", `/embed/${accountId}/${widget}?${qs}`, {
    account_id: String(accountId),
    widget,
  });
}

function configOf(html: string): Record<string, unknown> {
  const json = /<script id="masthead-config" type="application\/json">([^<]*)<\/script>/.exec(html)?.[1];
  return JSON.parse(json!) as Record<string, unknown>;
}

describe("widget frame pages", () => {
  it("serve the shell with the settings, a strict CSP and frame-ancestors of the publication's hosts", async () => {
    const db = await getDb();
    const account = await createTestPublisher(db, { domain: "news.example.com", siteUrl: "https://www.example.com" });
    await db.publisherConfig.update({
      where: { accountId: account.id },
      data: { siteDomains: ["m.example.com"], languageIsoCode: "es", languageIetfCode: "es-ES" },
    });
    await db.commentModerationSettings.create({
      data: { accountId: account.id, guestCommentsAllowed: true, confidentialCommentsAllowed: false },
    });
    forgetPublisherCache();

    const res = await frame(account.id, "comments", {
      page_url: "https://news.example.com/a-story?x=1",
      primary_color: "#aa3300",
      bg_color: "url(javascript:alert(1))",
      font_family: "Georgia, serif",
      parent_origin: "https://news.example.com",
      widget_id: "masthead-comments-1",
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    const csp = res.headers.get("content-security-policy")!;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self';");
    expect(csp).not.toMatch(/unsafe-inline|unsafe-eval/);
    const ancestors = /frame-ancestors ([^;]*)/.exec(csp)![1]!.split(" ");
    expect(ancestors.sort()).toEqual(["'self'", "www.example.com:*", "news.example.com:*", "m.example.com:*"].sort());

    const html = await res.text();
    expect(html).toContain('<html lang="es" dir="ltr">');
    expect(html).toContain(`/widgets/v1/frame.js?v=${FRAME_JS_HASH}`);
    expect(html).not.toMatch(/<script>(?!<)/); // no inline script: only src= and the JSON block
    const { messages, ...config } = configOf(html);
    // The account's locale's words, parsed (the frame formats them without a parser).
    expect((messages as Record<string, unknown>).comments).toEqual(
      parseMessage(messagesOf("widgets", "es").get("comments")!),
    );
    expect(html).toContain(`<title>${messagesOf("widgets", "es").get("comments")}</title>`);
    expect(config).toEqual({
      kind: "comments",
      accountId: account.id,
      pageUrl: "https://news.example.com/a-story?x=1",
      widgetId: "masthead-comments-1",
      parentOrigin: "https://news.example.com",
      locale: "es",
      guestsAllowed: true,
      confidentialAllowed: false,
      topicType: "",
      topicValue: "",
      publisher: "The Test Gazette",
      colors: { primary: "#aa3300" }, // the bad background is dropped, the default applies
      fontFamily: "Georgia, serif",
    });
  });

  it("keep what a page sends as data: no markup ends the settings block", async () => {
    const db = await getDb();
    const account = await createTestPublisher(db, { domain: "news.example.com" });
    const res = await frame(account.id, "ugc", {
      page_url: "https://news.example.com/</script><script>alert(1)</script>",
      topic_type: "tag",
      topic_value: "</script><b>x</b>",
      language: "en",
    });
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).not.toContain("</script><script>alert(1)");
    expect(html).not.toContain("<b>x</b>");
    expect(configOf(html).topicValue).toBe("</script><b>x</b>");
  });

  it("refuse a page URL that is not http(s), an unknown widget and an unknown account", async () => {
    const db = await getDb();
    const account = await createTestPublisher(db);
    expect((await frame(account.id, "comments", { page_url: "javascript:alert(1)" })).status).toBe(400);
    expect((await frame(account.id, "comments", {})).status).toBe(400);
    expect((await frame(account.id, "popup", { page_url: "https://localhost/a" })).status).toBe(400); // params.widget
    expect((await frame(2_000_000_000, "comments", { page_url: "https://localhost/a" })).status).toBe(404);
  });

  it("serve the loader at its three paths and the frame script, cached by version", async () => {
    for (const route of [loaderRoute, metypeLoader]) {
      const res = await call(route.GET, "GET", "/widgets/v1/loader.js", {});
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
      expect(res.headers.get("cache-control")).toContain("max-age=300");
      expect(await res.text()).toBe(LOADER_JS);
    }
    const versioned = await call(frameJs.GET, "GET", `/widgets/v1/frame.js?v=${FRAME_JS_HASH}`, {});
    expect(versioned.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    const stale = await call(frameJs.GET, "GET", "/widgets/v1/frame.js?v=old", {});
    expect(stale.headers.get("cache-control")).toContain("max-age=300");
  });
});
